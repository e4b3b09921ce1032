/** The signed-in member as `GET /api/user.php` returns it (SPEC §3 User). */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { photos, profiles, users, type PhotoStatus, type ProfileStatus, type UserStatus } from '../../db/schema';
import { isLanguage, type Language } from '../../shared/languages';

export interface MainImage {
  filename: string;
  thumb_filename: string;
  status: PhotoStatus;
}

export interface CurrentUser {
  id: number;
  email: string;
  status: UserStatus;
  credits: number;
  paid_user: boolean;
  signup_date: string;
  fictional_icon: boolean;
  language: Language;
  invisible: boolean;
  notifications_disabled: string[];
  profile: {
    id: number;
    name: string;
    country: string;
    status: ProfileStatus;
    main_image: MainImage | null;
  };
}

/** Loads the member with their profile and main image; null when the account is gone. */
export async function loadCurrentUser(db: Db, userId: number): Promise<CurrentUser | null> {
  const [row] = await db
    .select({ user: users, profile: profiles, photo: photos })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(photos, and(eq(photos.id, profiles.mainPhotoId), sql`${photos.status} <> 'removed'`))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return null;
  const { user, profile, photo } = row;
  return {
    id: user.id,
    email: user.email,
    status: user.status,
    credits: user.credits,
    paid_user: user.paidUser,
    signup_date: user.signupDate.toISOString(),
    fictional_icon: profile.fictional,
    language: isLanguage(user.language) ? user.language : 'en',
    invisible: user.invisible,
    notifications_disabled: user.notificationsDisabled,
    profile: {
      id: user.id,
      name: profile.name,
      country: profile.country,
      status: profile.status,
      main_image: photo ? { filename: photo.filename, thumb_filename: photo.thumbFilename, status: photo.status } : null,
    },
  };
}

export async function setUserLanguage(db: Db, userId: number, language: Language): Promise<void> {
  await db.update(users).set({ language }).where(eq(users.id, userId));
}

export type LanguageChange = { type: 'ok'; language: Language } | { type: 'error'; reason: 'unsupported_language' };

/**
 * A change of interface language (I18N-02, I18N-03): only one of the site's languages; a member's is
 * stored too (their e-mails are written in it). The caller sets the language cookie.
 */
export async function changeLanguage(db: Db, input: { languages: readonly Language[]; userId: number | null; value: unknown }): Promise<LanguageChange> {
  const { value } = input;
  if (!isLanguage(value) || !input.languages.includes(value)) return { type: 'error', reason: 'unsupported_language' };
  if (input.userId !== null) await setUserLanguage(db, input.userId, value);
  return { type: 'ok', language: value };
}
