/** The signed-in member as `GET /api/user.php` returns it (SPEC §3 User). */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { photos, profiles, users, type PhotoStatus, type ProfileStatus, type UserStatus } from '../../db/schema';
import type { Schema } from '../../shared/api/contract';
import { isLanguage, type Language } from '../../shared/languages';

/** The signed-in member (`User` of openapi/openapi.yaml). */
export type CurrentUser = Schema<'User'>;

/** The columns a CurrentUser is made of (not the whole rows: a page needs these and no more). */
export const memberColumns = {
  id: users.id,
  email: users.email,
  status: users.status,
  credits: users.credits,
  paidUser: users.paidUser,
  signupDate: users.signupDate,
  language: users.language,
  invisible: users.invisible,
  notificationsDisabled: users.notificationsDisabled,
  name: profiles.name,
  country: profiles.country,
  profileStatus: profiles.status,
  fictional: profiles.fictional,
  photoFilename: photos.filename,
  photoThumb: photos.thumbFilename,
  photoStatus: photos.status,
};

/** The member's main photo, unless it was removed: joined by every member lookup. */
export const mainPhotoJoin = and(eq(photos.id, profiles.mainPhotoId), sql`${photos.status} <> 'removed'`);

export type MemberRow = {
  id: number;
  email: string;
  status: UserStatus;
  credits: number;
  paidUser: boolean;
  signupDate: Date;
  language: string;
  invisible: boolean;
  notificationsDisabled: string[];
  name: string;
  country: string;
  profileStatus: ProfileStatus;
  fictional: boolean;
  photoFilename: string | null;
  photoThumb: string | null;
  photoStatus: PhotoStatus | null;
};

export function toCurrentUser(row: MemberRow): CurrentUser {
  return {
    id: row.id,
    email: row.email,
    status: row.status,
    credits: row.credits,
    paid_user: row.paidUser,
    signup_date: row.signupDate.toISOString(),
    fictional_icon: row.fictional,
    language: isLanguage(row.language) ? row.language : 'en',
    invisible: row.invisible,
    notifications_disabled: row.notificationsDisabled,
    profile: {
      id: row.id,
      name: row.name,
      country: row.country,
      status: row.profileStatus,
      main_image: row.photoFilename !== null && row.photoThumb !== null && row.photoStatus !== null ? { filename: row.photoFilename, thumb_filename: row.photoThumb, status: row.photoStatus } : null,
    },
  };
}

/** Loads the member with their profile and main image; null when the account is gone. */
export async function loadCurrentUser(db: Db, userId: number): Promise<CurrentUser | null> {
  const [row] = await db.select(memberColumns).from(users).innerJoin(profiles, eq(profiles.userId, users.id)).leftJoin(photos, mainPhotoJoin).where(eq(users.id, userId)).limit(1);
  return row ? toCurrentUser(row) : null;
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
