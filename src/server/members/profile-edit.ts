/**
 * Editing one's own profile on /profile (MEM-06): the profile name (the signup's rule, SIGN-03), about
 * me and the optional attributes, interests and region (the about-me step's schema and checks, SIGN-02),
 * and what the member looks for — genders ('looking for', stored as the orientation like at signup),
 * and an age range. The member search starts from these (search.ts `memberDefaults`), as the last
 * signup step promises. Any bad field refuses the whole form: nothing is saved.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { profiles, users } from '../../db/schema';
import { aboutColumns, aboutSchema, profileFacts, type ProfileFacts } from './profile-completion';
import { regionInCountry } from './places';
import { checkName } from '../accounts/rules';
import { sexualityFor } from '../accounts/signup';
import { SEARCH_MAX_AGE } from './search';

export const LOOKING_FOR = ['male', 'female', 'both'] as const;
export type LookingFor = (typeof LOOKING_FOR)[number];

/** 'Looking for' as the signup asked it, from the stored gender and orientation. */
export function lookingForOf(gender: string, sexuality: string): LookingFor {
  if (sexuality === 'bi') return 'both';
  if (sexuality === 'gay' || sexuality === 'lesbian') return gender === 'female' ? 'female' : 'male';
  return gender === 'female' ? 'male' : 'female';
}

const optionalAge = z.preprocess((v) => (v === '' || v === undefined || v === null ? null : v), z.coerce.number().int().nullable());

const editSchema = aboutSchema.extend({
  name: z.string().max(200),
  looking_for: z.enum(LOOKING_FOR),
  search_min_age: optionalAge,
  search_max_age: optionalAge,
});

/** Error codes per field; texts are `profile_edit:errors.<code>` (name codes: `errors:<code>`). */
export type EditFieldError = 'about_too_long' | 'invalid_choice' | 'age_range' | 'age_order' | 'signup_name_equal_to_email' | 'signup_name_starts_with_at' | 'signup_name_length';

export type SaveProfileResult = { type: 'ok' } | { type: 'error'; fields: Record<string, EditFieldError> };

export interface EditableProfile extends ProfileFacts {
  lookingFor: LookingFor;
  searchMinAge: number | null;
  searchMaxAge: number | null;
}

export async function loadEditableProfile(db: Db, userId: number): Promise<EditableProfile | null> {
  const [p] = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
  if (!p) return null;
  return {
    ...profileFacts(p),
    lookingFor: lookingForOf(p.gender, p.sexuality),
    searchMinAge: p.searchMinAge,
    searchMaxAge: p.searchMaxAge,
  };
}

/** The posted profile form as plain values (interests are repeated checkboxes). */
export function profileFromForm(form: FormData): Record<string, unknown> {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : undefined;
  };
  const fields = ['name', 'about', 'hair_colour', 'eye_colour', 'body_type', 'relationship_status', 'tattoos', 'signup_reason', 'region_id', 'looking_for', 'search_min_age', 'search_max_age'];
  const out: Record<string, unknown> = Object.fromEntries(fields.map((f) => [f, text(f)]));
  out.about ??= '';
  out.name ??= '';
  out.interests = form.getAll('interests').filter((v): v is string => typeof v === 'string');
  return out;
}

/** Validates and saves `raw` onto `userId`'s profile; `minAge` is the site's minimum age. */
export async function saveProfile(db: Db, userId: number, raw: unknown, options: { minAge: number }): Promise<SaveProfileResult> {
  const parsed = editSchema.safeParse(raw);
  const fields: Record<string, EditFieldError> = {};
  const [row] = await db
    .select({ country: profiles.country, gender: profiles.gender, email: users.email })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.userId, userId))
    .limit(1);
  if (!row) throw new Error(`saveProfile: no profile for user ${userId}`);
  // The name is checked whatever else is wrong, so every error shows at once.
  const rawName = typeof (raw as { name?: unknown } | null)?.name === 'string' ? (raw as { name: string }).name : '';
  const nameProblem = rawName.length > 200 ? 'signup_name_length' : checkName(rawName, row.email);
  if (nameProblem) fields.name = nameProblem;
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? 'about');
      fields[key] ??= key === 'about' ? 'about_too_long' : key === 'name' ? 'signup_name_length' : key.startsWith('search_') ? 'age_range' : 'invalid_choice';
    }
    return { type: 'error', fields };
  }
  const input = parsed.data;
  const inRange = (age: number | null) => age === null || (age >= options.minAge && age <= SEARCH_MAX_AGE);
  if (!inRange(input.search_min_age)) fields.search_min_age = 'age_range';
  if (!inRange(input.search_max_age)) fields.search_max_age = 'age_range';
  if (!fields.search_min_age && !fields.search_max_age && input.search_min_age !== null && input.search_max_age !== null && input.search_min_age > input.search_max_age) {
    fields.search_max_age = 'age_order';
  }
  if (input.region_id !== null) {
    if (!(await regionInCountry(db, input.region_id, row.country))) fields.region_id = 'invalid_choice';
  }
  if (Object.keys(fields).length > 0) return { type: 'error', fields };
  const gender = row.gender === 'female' ? 'female' : 'male';
  await db
    .update(profiles)
    .set({
      ...aboutColumns(input),
      name: input.name.trim(),
      sexuality: sexualityFor(gender, input.looking_for),
      searchMinAge: input.search_min_age,
      searchMaxAge: input.search_max_age,
    })
    .where(eq(profiles.userId, userId));
  return { type: 'ok' };
}
