/** Signup and activation against a real database (in-memory PGlite). */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { type Database } from '../../db/client';
import { creditLedger, profiles, users } from '../../db/schema';
import { balance, grant } from '../credits/ledger';
import { type Site } from '../sites/directory';
import { activate, canBeRepliedTo, sendActivationMail } from './activation';
import { signup, signupOffered, signupOpen, sexualityFor, type SignupContext } from './signup';

const clock = new FakeClock();
let kit: SeededDatabase;
let database: Database;
let site: Site;

beforeAll(async () => {
  kit = await seededDatabase({ clock, profilesPerSite: 2 });
  database = kit.database;
  site = await kit.site('localhost');
});
afterAll(() => kit?.close());

const ctx = (over: Partial<SignupContext> = {}): SignupContext => ({ db: database.db, clock, settings: site.settings, language: 'nl', country: 'NL', tracking: null, ...over });
const input = (email: string, over: Record<string, unknown> = {}) => ({
  email,
  name: 'Lotte',
  password: 'zonnige-dinsdag-42',
  date_of_birth: '1995-04-12',
  gender: 'female' as const,
  looking_for: 'male' as const,
  ...over,
});
const count = async (table: typeof users | typeof profiles) => (await database.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;

describe('signup', () => {
  it('SIGN-06 creates the account unconfirmed with a hidden profile and grants the signup credits once, as a ledger entry', async () => {
    const result = await signup(ctx({ tracking: { network: 'adnet', sub1: 'x' } }), input('lotte@example.com'));
    expect(result.type).toBe('ok');
    const id = (result as { userId: number }).userId;
    const [user] = await database.db.select().from(users).where(eq(users.id, id));
    expect(user).toMatchObject({ status: 'not_confirmed', credits: site.settings.signup_credits, language: 'nl', tracking: { network: 'adnet', sub1: 'x' } });
    const [profile] = await database.db.select().from(profiles).where(eq(profiles.userId, id));
    expect(profile).toMatchObject({ name: 'Lotte', status: 'disabled', gender: 'female', sexuality: 'hetero', country: 'NL' });
    const ledger = await database.db.select().from(creditLedger).where(eq(creditLedger.userId, id));
    expect(ledger.map((l) => [l.reason, l.delta])).toEqual([['signup_credits', site.settings.signup_credits]]);
    // The same grant again (its reference 'signup:<id>') is answered from the ledger, not applied twice.
    const again = await grant(database.db, { memberId: id, amount: site.settings.signup_credits, reason: 'signup_credits', reference: `signup:${id}` });
    expect(again).toMatchObject({ ok: true, replayed: true, entry: { id: ledger[0]!.id } });
    expect(await balance(database.db, id)).toBe(site.settings.signup_credits);
  });

  it('CLI-04 the stored tracking record is attached to the member', async () => {
    const result = await signup(ctx({ tracking: { ref: 'summer' } }), input('tracked@example.com'));
    const [user] = await database.db
      .select({ tracking: users.tracking })
      .from(users)
      .where(eq(users.id, (result as { userId: number }).userId));
    expect(user?.tracking).toEqual({ ref: 'summer' });
  });

  it('SIGN-05 bad fields are all reported at once and nothing is stored', async () => {
    const before = [await count(users), await count(profiles)];
    const result = await signup(ctx(), { email: 'lotte@gmial', name: '@lotte', password: '123', date_of_birth: '2015-01-01', gender: 'female', looking_for: 'male' });
    expect(result).toMatchObject({
      type: 'error',
      reason: 'validation_failed',
      fields: { email: 'invalid_email', name: 'signup_name_starts_with_at', password: 'password_too_short', date_of_birth: 'date_of_birth_min_age' },
    });
    expect([await count(users), await count(profiles)]).toEqual(before);
  });

  it('SIGN-05 a mistyped popular domain gets a suggestion with the errors', async () => {
    const result = await signup(ctx(), input('lotte@gmial.com', { password: 'x' }));
    expect(result).toMatchObject({ type: 'error', suggestion: 'lotte@gmail.com' });
  });

  it('SIGN-03 an address that already has an account on the site is refused, in any case', async () => {
    const result = await signup(ctx(), input('LOTTE@example.com'));
    expect(result).toMatchObject({ type: 'error', fields: { email: 'email_taken' } });
  });

  it('AUTH-05 a site that signs up only visitors with a traffic source refuses the others', async () => {
    const settings = { ...site.settings, signups: 'with_trafficsource' as const };
    expect(await signup(ctx({ settings }), input('notrack@example.com'))).toEqual({ type: 'error', reason: 'signups_closed' });
    expect((await signup(ctx({ settings, tracking: { network: 'n' } }), input('track@example.com'))).type).toBe('ok');
    expect(await signup(ctx({ settings: { ...site.settings, signups: 'other' } }), input('closed@example.com'))).toEqual({ type: 'error', reason: 'signups_closed' });
  });

  it('SEC-09 LND-04 an invite-only site refuses every self-signup, traffic source or not, and stores nothing', async () => {
    const before = [await count(users), await count(profiles)];
    for (const signups of ['all', 'with_trafficsource'] as const) {
      const settings = { ...site.settings, signups, invite_only: true };
      for (const tracking of [null, { network: 'n' }]) {
        expect(signupOpen({ settings, tracking })).toBe(false);
        expect(await signup(ctx({ settings, tracking }), input('invited@example.com'))).toEqual({ type: 'error', reason: 'signups_closed' });
      }
    }
    expect([await count(users), await count(profiles)]).toEqual(before);
    expect(signupOpen({ settings: { ...site.settings, signups: 'all', invite_only: false }, tracking: null })).toBe(true);
    // The modal is offered where someone may sign up: not on invite-only or closed sites.
    expect(signupOffered({ signups: 'with_trafficsource', invite_only: false })).toBe(true);
    expect(signupOffered({ signups: 'all', invite_only: true })).toBe(false);
    expect(signupOffered({ signups: 'other', invite_only: false })).toBe(false);
  });

  it('SIGN-06 orientation follows gender and who the member looks for', () => {
    expect(sexualityFor('male', 'female')).toBe('hetero');
    expect(sexualityFor('male', 'male')).toBe('gay');
    expect(sexualityFor('female', 'female')).toBe('lesbian');
    expect(sexualityFor('female', 'both')).toBe('bi');
  });
});

describe('activation', () => {
  it('ACT-01 the mailed link confirms the address once; the profile becomes visible and can be replied to', async () => {
    const mailer = kit.mailer;
    const result = await signup(ctx(), input('activate@example.com', { name: 'Noor' }));
    const id = (result as { userId: number }).userId;
    const [before] = await database.db.select().from(users).where(eq(users.id, id));
    expect(canBeRepliedTo(before!)).toBe(false);
    const sent = await sendActivationMail({ db: database.db, clock, mailer }, site, id, 'http://localhost:4321');
    expect(sent?.type).toBe('ok');
    const [mail] = await mailer.recent(1, 'activate@example.com');
    expect(mail!.subject).toContain(site.settings.name);
    expect(mail!.text).toContain('Noor');
    const token = /activate\/done\?token=([\w-]+)/.exec(mail!.text)![1]!;
    expect(await activate({ db: database.db, clock }, token)).toEqual({ type: 'ok', userId: id });
    const [after] = await database.db.select().from(users).where(eq(users.id, id));
    expect(after!.status).toBe('active');
    expect(canBeRepliedTo(after!)).toBe(true);
    expect((await database.db.select().from(profiles).where(eq(profiles.userId, id)))[0]!.status).toBe('active');
    expect(await activate({ db: database.db, clock }, token)).toEqual({ type: 'error', reason: 'used' });
    expect(await activate({ db: database.db, clock }, 'x'.repeat(43))).toEqual({ type: 'error', reason: 'invalid' });
  });

  it('ACT-01 an activation link expires after 14 days', async () => {
    const mailer = kit.mailer;
    const result = await signup(ctx(), input('late@example.com'));
    await sendActivationMail({ db: database.db, clock, mailer }, site, (result as { userId: number }).userId, 'http://localhost');
    const token = /token=([\w-]+)/.exec((await mailer.recent(1, 'late@example.com'))[0]!.text)![1]!;
    const later = { now: () => new Date(clock.time + 14 * 24 * 3600 * 1000 + 1) };
    expect(await activate({ db: database.db, clock: later }, token)).toEqual({ type: 'error', reason: 'expired' });
  });
});
