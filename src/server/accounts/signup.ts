/**
 * Signing up (SIGN-03..06, AUTH-05, CLI-04, ACT-01): checks every field, creates the account with its
 * profile, grants the site's signup credits once through the ledger, logs the new member in and mails
 * the activation link.
 */
import { checkInvitation, useInvitation } from './invitations';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { profiles, users } from '../../db/schema';
import { grant } from '../credits/ledger';
import { isValidEmail, suggestEmail } from '../../shared/email';
import type { Language } from '../../shared/languages';
import type { Settings } from '../../shared/settings';
import { hashPassword } from '../auth/passwords';
import { createSession, type CreatedSession } from '../auth/sessions';
import type { Clock } from '../clock';
import type { Tracking } from '../../shared/tracking';
import { checkBirthDate, checkName, checkPassword, isDisposableEmail, signupsAllowed } from './rules';

export const signupSchema = z.object({
  email: z.string().trim().max(254),
  name: z.string().trim().max(60),
  password: z.string().max(1024),
  date_of_birth: z.string().max(10),
  gender: z.enum(['male', 'female']),
  looking_for: z.enum(['male', 'female', 'both']),
  signup_message: z.string().trim().max(500).optional().default(''),
  member_id: z.coerce.number().int().positive().optional(),
  /** LND-06: the token of an invitation link; on an invite-only site the only way in. */
  invitation: z.string().max(200).optional(),
  /** HON-02: shown on the public pages by first name, age, city and main photo; asked at signup, off unless chosen. */
  public_profile: z
    .union([z.boolean(), z.string().max(5)])
    .optional()
    .transform((v) => v === true || v === '1' || v === 'on' || v === 'true'),
});
export type SignupInput = z.input<typeof signupSchema>;

export type SignupFieldError =
  | 'invalid_email'
  | 'email_taken'
  | 'email_disposable'
  | 'signup_name_equal_to_email'
  | 'signup_name_starts_with_at'
  | 'signup_name_length'
  | 'password_too_short'
  | 'password_too_long'
  | 'password_too_common'
  | 'password_like_email'
  | 'date_of_birth_min_age';

export type SignupResult =
  | { type: 'ok'; userId: number; created: CreatedSession }
  | { type: 'error'; reason: 'signups_closed' }
  | { type: 'error'; reason: 'validation_failed'; fields: Record<string, SignupFieldError>; suggestion: string | null };

export interface SignupContext {
  db: Db;
  clock: Clock;
  settings: Settings;
  language: Language;
  /** The visitor's country (CDN header or the site's geoip setting). */
  country: string;
  tracking: Tracking | null;
  ip?: string | null;
  userAgent?: string | null;
}

class InvitationUsed extends Error {}

/** Orientation from gender and who the member looks for. */
export function sexualityFor(gender: 'male' | 'female', lookingFor: 'male' | 'female' | 'both'): 'hetero' | 'gay' | 'lesbian' | 'bi' {
  if (lookingFor === 'both') return 'bi';
  if (lookingFor !== gender) return 'hetero';
  return gender === 'male' ? 'gay' : 'lesbian';
}

/** Field checks without touching the database (the form shows them before posting, too). */
export function validateSignup(input: z.output<typeof signupSchema>, settings: Pick<Settings, 'min_age'>, today: Date): Record<string, SignupFieldError> {
  const fields: Record<string, SignupFieldError> = {};
  if (!isValidEmail(input.email)) fields.email = 'invalid_email';
  else if (isDisposableEmail(input.email)) fields.email = 'email_disposable';
  const name = checkName(input.name, input.email);
  if (name) fields.name = name;
  const password = checkPassword(input.password, input.email);
  if (password) fields.password = password;
  const dob = checkBirthDate(input.date_of_birth, today, settings.min_age);
  if (dob) fields.date_of_birth = dob;
  return fields;
}

/**
 * Whether this visitor may sign up on this site (AUTH-05, LND-04, SEC-09): not on an invite-only site,
 * and as the `signups` setting says (all, or only with a traffic source). The one rule of the signup
 * page and `POST /api/signup.php`; {@link signup} applies it itself, so no path can skip it.
 */
export function signupOpen(ctx: Pick<SignupContext, 'settings' | 'tracking'>): boolean {
  return signupsAllowed(ctx.settings, ctx.tracking !== null);
}

/**
 * Whether the site takes self-signups from anyone (a visitor with a traffic source, at least): decides
 * whether visitor pages offer the signup modal. It does not depend on the visitor, so pages that are the
 * same for every visitor can show it; the signup itself still answers {@link signupOpen}.
 */
export function signupOffered(settings: Pick<Settings, 'signups' | 'invite_only'>): boolean {
  return signupsAllowed(settings, true);
}

/**
 * Signs a visitor up: the site's signup rule ({@link signupOpen}), every field, a free address, then the
 * account, its hidden profile, the signup credits and a session.
 */
export async function signup(ctx: SignupContext, raw: SignupInput): Promise<SignupResult> {
  // LND-06: an invite-only site takes only the address its good, unused invitation was sent to.
  let invitation: { id: number; email: string } | null = null;
  if (ctx.settings.invite_only) {
    const token = typeof raw.invitation === 'string' ? raw.invitation : '';
    const checked = token ? await checkInvitation(ctx.db, ctx.settings.id, token, ctx.clock.now()) : null;
    if (checked?.type !== 'ok') return { type: 'error', reason: 'signups_closed' };
    invitation = checked;
  } else if (!signupOpen(ctx)) return { type: 'error', reason: 'signups_closed' };
  const parsed = signupSchema.safeParse(invitation ? { ...raw, email: invitation.email } : raw);
  if (!parsed.success) {
    const fields: Record<string, SignupFieldError> = {};
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? 'email');
      fields[key] ??= key === 'date_of_birth' ? 'date_of_birth_min_age' : key === 'password' ? 'password_too_long' : key === 'name' ? 'signup_name_length' : 'invalid_email';
    }
    return { type: 'error', reason: 'validation_failed', fields, suggestion: null };
  }
  const input = parsed.data;
  const fields = validateSignup(input, ctx.settings, ctx.clock.now());
  const suggestion = suggestEmail(input.email);
  if (Object.keys(fields).length > 0) return { type: 'error', reason: 'validation_failed', fields, suggestion };

  const email = input.email.trim();
  const [taken] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.siteId, ctx.settings.id), sql`lower(${users.email}) = ${email.toLowerCase()}`))
    .limit(1);
  if (taken) return { type: 'error', reason: 'validation_failed', fields: { email: 'email_taken' }, suggestion: null };

  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now();
  const country = ctx.settings.countries.includes(ctx.country) ? ctx.country : ctx.settings.geoip_selected_country;
  let memberId: number | null = null;
  if (input.member_id) {
    const [member] = await ctx.db
      .select({ id: profiles.userId })
      .from(profiles)
      .where(and(eq(profiles.userId, input.member_id), eq(profiles.siteId, ctx.settings.id), eq(profiles.status, 'active')))
      .limit(1);
    memberId = member?.id ?? null;
  }

  let userId: number;
  try {
    userId = await ctx.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          siteId: ctx.settings.id,
          email,
          passwordHash,
          role: 'member',
          status: 'not_confirmed',
          language: ctx.language,
          tracking: ctx.tracking,
          signupMessage: input.signup_message || null,
          signupMemberId: memberId,
          publicProfile: input.public_profile,
          signupDate: now,
          credits: 0,
        })
        .returning({ id: users.id });
      const id = user!.id;
      await tx.insert(profiles).values({
        userId: id,
        siteId: ctx.settings.id,
        name: input.name.trim(),
        // Hidden from search until the e-mail address is confirmed (ACT-01, ACT-02).
        status: 'disabled',
        gender: input.gender,
        sexuality: sexualityFor(input.gender, input.looking_for),
        birthDate: input.date_of_birth,
        country,
        lastActiveAt: now,
      });
      // Single use: of two signups with one link at the same moment, one account is made.
      if (invitation && !(await useInvitation(tx, invitation.id, id, now))) throw new InvitationUsed();
      if (ctx.settings.signup_credits > 0) {
        // Granted once, through the ledger (CRD-09): the reference 'signup:<id>' can be applied only once.
        await grant(tx, { memberId: id, amount: ctx.settings.signup_credits, reason: 'signup_credits', reference: `signup:${id}`, at: now });
      }
      return id;
    });
  } catch (err) {
    if (err instanceof InvitationUsed) return { type: 'error', reason: 'signups_closed' };
    // Two signups with one address at the same moment: the unique index decides.
    if (String((err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code) === '23505') {
      return { type: 'error', reason: 'validation_failed', fields: { email: 'email_taken' }, suggestion: null };
    }
    throw err;
  }
  const created = await createSession(ctx.db, ctx.clock, userId, { ip: ctx.ip ?? null, userAgent: ctx.userAgent ?? null });
  return { type: 'ok', userId, created };
}

/** The member a visitor signs up to write to (`/signup?member=<id>`, SIGN-06): an active profile of this site, or undefined. */
export async function signupTarget(db: Db, siteId: number, memberId: number): Promise<{ id: number; name: string } | undefined> {
  const [row] = await db
    .select({ id: profiles.userId, name: profiles.name })
    .from(profiles)
    .where(and(eq(profiles.userId, memberId), eq(profiles.siteId, siteId), eq(profiles.status, 'active')))
    .limit(1);
  return row;
}
