/**
 * Completing the signup (SIGN-02): five steps after the signup form — photo, about me, push, confirm
 * e-mail, ready — then complete. `users.signup_step` holds the step reached (0..4, 5 = complete), so a
 * member resumes where they left off. Every step may be skipped; a step only ever moves forward.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { photos, profiles, regions, users, type UserStatus } from '../../db/schema';
import { regionInCountry } from './places';
import { BODY_TYPES, EYE_COLOURS, HAIR_COLOURS, INTERESTS, RELATIONSHIP_STATUSES, SIGNUP_REASONS, TATTOOS } from '../../shared/interests';

export const SIGNUP_STEPS = ['photo', 'about', 'push', 'confirm_email', 'summary'] as const;
/** `users.signup_step` once every step is done. */
export const SIGNUP_COMPLETE = SIGNUP_STEPS.length;
/** Steps counted in the progress indicator ("step 2 of 4"); the summary is the finish line. */
export const COUNTED_STEPS = 4;

export const ABOUT_MAX = 1000;

/** What a member tells about themselves: filled in at completion (this module), edited later (./profile-edit.ts). */
export interface ProfileFacts {
  name: string;
  country: string;
  about: string;
  hairColour: string | null;
  eyeColour: string | null;
  bodyType: string | null;
  relationshipStatus: string | null;
  tattoos: string | null;
  interests: string[];
  signupReason: string | null;
  regionId: number | null;
}

/** The facts of a profile row. */
export function profileFacts(p: typeof profiles.$inferSelect): ProfileFacts {
  return {
    name: p.name,
    country: p.country,
    about: p.about,
    hairColour: p.hairColour,
    eyeColour: p.eyeColour,
    bodyType: p.bodyType,
    relationshipStatus: p.relationshipStatus,
    tattoos: p.tattoos,
    interests: p.interests,
    signupReason: p.signupReason,
    regionId: p.regionId,
  };
}

export interface CompletionState {
  step: number;
  status: UserStatus;
  email: string;
  paidUser: boolean;
  profile: ProfileFacts & { mainPhoto: { filename: string; thumbFilename: string; status: string } | null };
}

/** Where the member stands, with what the steps show and pre-fill. */
export async function loadCompletion(db: Db, userId: number): Promise<CompletionState | null> {
  const [row] = await db
    .select({ user: users, profile: profiles, photo: { filename: photos.filename, thumbFilename: photos.thumbFilename, status: photos.status } })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(photos, and(eq(photos.id, profiles.mainPhotoId), sql`${photos.status} <> 'removed'`))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return null;
  const step = Math.min(Math.max(row.user.signupStep, 0), SIGNUP_COMPLETE);
  const p = row.profile;
  return {
    step,
    status: row.user.status,
    email: row.user.email,
    paidUser: row.user.paidUser,
    profile: {
      ...profileFacts(p),
      mainPhoto: row.photo?.filename ? (row.photo as { filename: string; thumbFilename: string; status: string }) : null,
    },
  };
}

/**
 * Moves the member from step `from` to the next one. Conditional on still being at `from`, so a form
 * posted twice (or from a stale tab) cannot skip a step; returns the step the member is at afterwards.
 */
export async function advanceStep(db: Db, userId: number, from: number): Promise<number> {
  if (!Number.isInteger(from) || from < 0 || from >= SIGNUP_COMPLETE) return currentStep(db, userId);
  const [row] = await db
    .update(users)
    .set({ signupStep: from + 1 })
    .where(and(eq(users.id, userId), eq(users.signupStep, from)))
    .returning({ step: users.signupStep });
  return row?.step ?? currentStep(db, userId);
}

async function currentStep(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ step: users.signupStep }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.step ?? 0;
}

/** Regions of a country for the region select, by name. */
export async function regionsOf(db: Db, country: string): Promise<Array<{ id: number; name: string }>> {
  return db.select({ id: regions.id, name: regions.name }).from(regions).where(eq(regions.country, country)).orderBy(asc(regions.name));
}

/** An optional choice from a list: '' or missing means "not said". */
const choice = <T extends readonly [string, ...string[]]>(values: T) => z.preprocess((v) => (v === '' || v === undefined || v === null ? null : v), z.enum(values).nullable());

export const aboutSchema = z.object({
  about: z
    .string()
    .transform((s) => s.replace(/\r\n/g, '\n').trim())
    .refine((s) => [...s].length <= ABOUT_MAX, { message: 'about_too_long' }),
  hair_colour: choice(HAIR_COLOURS),
  eye_colour: choice(EYE_COLOURS),
  body_type: choice(BODY_TYPES),
  relationship_status: choice(RELATIONSHIP_STATUSES),
  tattoos: choice(TATTOOS),
  signup_reason: choice(SIGNUP_REASONS),
  interests: z
    .array(z.enum(INTERESTS))
    .max(INTERESTS.length)
    .transform((list) => [...new Set(list)]),
  region_id: z.preprocess((v) => (v === '' || v === undefined || v === null ? null : v), z.coerce.number().int().positive().nullable()),
});

/** The about-me fields from a posted form (interests are repeated checkboxes). */
export function aboutFromForm(form: FormData): Record<string, unknown> {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : undefined;
  };
  return {
    about: text('about') ?? '',
    hair_colour: text('hair_colour'),
    eye_colour: text('eye_colour'),
    body_type: text('body_type'),
    relationship_status: text('relationship_status'),
    tattoos: text('tattoos'),
    signup_reason: text('signup_reason'),
    interests: form.getAll('interests').filter((v): v is string => typeof v === 'string'),
    region_id: text('region_id'),
  };
}

export type SaveAboutResult = { type: 'ok' } | { type: 'error'; fields: Record<string, string> };

/** The profile columns the about step (and the profile editor) sets from its checked input. */
export function aboutColumns(input: z.infer<typeof aboutSchema>) {
  return {
    about: input.about,
    hairColour: input.hair_colour,
    eyeColour: input.eye_colour,
    bodyType: input.body_type,
    relationshipStatus: input.relationship_status,
    tattoos: input.tattoos,
    signupReason: input.signup_reason,
    interests: input.interests,
    regionId: input.region_id,
  };
}

/**
 * Saves the about-me step onto the profile. Any bad field refuses the whole form (nothing is saved);
 * the region must belong to the profile's country.
 */
export async function saveAbout(db: Db, userId: number, raw: unknown): Promise<SaveAboutResult> {
  const parsed = aboutSchema.safeParse(raw);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? 'about');
      fields[key] ??= key === 'about' ? 'about_too_long' : 'invalid_choice';
    }
    return { type: 'error', fields };
  }
  const input = parsed.data;
  const [profile] = await db.select({ country: profiles.country }).from(profiles).where(eq(profiles.userId, userId)).limit(1);
  if (!profile) throw new Error(`saveAbout: no profile for user ${userId}`);
  if (input.region_id !== null && !(await regionInCountry(db, input.region_id, profile.country))) return { type: 'error', fields: { region_id: 'invalid_choice' } };
  await db.update(profiles).set(aboutColumns(input)).where(eq(profiles.userId, userId));
  return { type: 'ok' };
}
