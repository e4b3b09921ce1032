/** Password reset (PWD-01, PWD-02, AUTH-04, SEC-11) against a real database (in-memory PGlite). */
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { type Database } from '../../db/client';
import { accountTokens, loginThrottle, mailOutbox, profiles, sessions, users } from '../../db/schema';
import { DeviceCookies } from '../auth/device-cookie';
import { login } from '../auth/login';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { createSession } from '../auth/sessions';
import { loadSessionMember } from '../session/lookup';
import { accountKey, activeBlock } from '../auth/throttle';
import { BackgroundTasks } from '../background';
import { Mailer, type OutgoingMail, type SendResult } from '../mail/mailer';
import { type Site } from '../sites/directory';
import { checkResetLink, requestPasswordReset, resetPassword, RESET_IP_RULE, RESET_MAILS_PER_DAY, type ResetRequestResult } from './password-reset';
import { linkOriginFor } from '../web/link-origin';

const HOUR = 3600 * 1000;
const clock = new FakeClock();
const OLD_PASSWORD = 'old-secret-words-1';
let kit: SeededDatabase;
let database: Database;
let site: Site;
let otherSite: Site;
let mailer: Mailer;
let oldHash: string;
let devices: DeviceCookies;
const background = new BackgroundTasks(pino({ level: 'silent' }));
const app = () => ({ db: database.db, clock, mailer, background, devices });

beforeAll(async () => {
  kit = await seededDatabase({ clock });
  database = kit.database;
  site = await kit.site('localhost');
  otherSite = await kit.site('127.0.0.1');
  mailer = kit.mailer;
  devices = kit.devices;
  oldHash = await hashPassword(OLD_PASSWORD);
});
afterAll(() => kit?.close());

let counter = 0;
/** A fresh member on `site` with OLD_PASSWORD. */
async function member(on: Site = site, status: 'active' | 'deleted' = 'active') {
  const email = `reset-${++counter}@example.com`;
  const [user] = await database.db
    .insert(users)
    .values({ siteId: on.settings.id, email, passwordHash: oldHash, status, language: 'nl', emailConfirmedAt: clock.now(), deletedAt: status === 'deleted' ? clock.now() : null })
    .returning({ id: users.id });
  await database.db.insert(profiles).values({ userId: user!.id, siteId: on.settings.id, name: `Lid${counter}`, gender: 'female', sexuality: 'hetero', birthDate: '1990-01-01', country: 'NL' });
  return { id: user!.id, email };
}

const linkToken = (text: string) => /\/reset-password\/do\?token=([\w-]+)/.exec(text)?.[1] ?? null;
async function requestLink(email: string) {
  const result = await requestPasswordReset(app(), { site, email, origin: 'http://localhost:4321' });
  if (result.type !== 'accepted') throw new Error(`reset refused: ${result.reason}`);
  const delivery = await result.delivery;
  if (delivery.type !== 'mailed') throw new Error(`reset not mailed: ${JSON.stringify(delivery)}`);
  const mail = await mailer.byId(delivery.mailId);
  return { mail: mail!, token: linkToken(mail!.text)! };
}
/** What a browser sees of a reset request: the answer without the background delivery. */
const answer = (result: ResetRequestResult) => (result.type === 'accepted' ? { type: 'accepted' } : result);
const ask = (email: string, ip?: string) => requestPasswordReset(app(), { site, email, origin: 'http://x', ...(ip ? { ip } : {}) });
const mailsTo = async (to: string) => (await database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to))).length;
const tokenCount = async (userId: number) =>
  (
    await database.db
      .select()
      .from(accountTokens)
      .where(and(eq(accountTokens.userId, userId), eq(accountTokens.kind, 'password_reset')))
  ).length;
const passwordHashOf = async (userId: number) => (await database.db.select({ h: users.passwordHash }).from(users).where(eq(users.id, userId)))[0]!.h!;

describe('requesting a reset', () => {
  it('PWD-01 a known address gets a mail in the member’s language with a single link to /reset-password/do', async () => {
    const m = await member();
    const { mail, token } = await requestLink(m.email.toUpperCase());
    expect(mail.toAddress).toBe(m.email);
    expect(mail.kind).toBe('password_reset');
    expect(mail.subject).toContain('Kies een nieuw wachtwoord');
    expect(mail.text).toContain(`http://localhost:4321/reset-password/do?token=${token}`);
    // Only the SHA-256 of the token is stored (PWD-02).
    const [row] = await database.db.select().from(accountTokens).where(eq(accountTokens.userId, m.id));
    expect(row!.tokenHash).not.toContain(token);
    expect(row!.expiresAt.getTime() - clock.now().getTime()).toBe(2 * HOUR);
  });

  it('SEC-11 PWD-02 known, unknown, other-site and deleted addresses get the same answer; only the account is mailed', async () => {
    const known = await member();
    const elsewhere = await member(otherSite);
    const deleted = await member(site, 'deleted');
    const results = {
      known: await ask(known.email),
      unknown: await ask('nobody-here@example.com'),
      elsewhere: await ask(elsewhere.email),
      deleted: await ask(deleted.email),
    };
    for (const result of Object.values(results)) expect(answer(result)).toEqual({ type: 'accepted' });
    await background.idle();
    expect(await mailsTo(known.email)).toBe(1);
    // 'E-mail not found' is not told to anyone: an account on the other site is not an account here,
    // and nothing reaches an address without an account.
    for (const address of ['nobody-here@example.com', elsewhere.email, deleted.email]) expect(await mailsTo(address)).toBe(0);
    expect(await ask('not-an-address')).toEqual({ type: 'error', reason: 'invalid_email' });
  });

  it('SEC-11 the answer does not wait for the look-up or the mail (no timing difference to measure)', async () => {
    const m = await member();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    const slowMailer = {
      send: async (mail: OutgoingMail): Promise<SendResult> => {
        started.push(mail.to);
        await gate;
        return mailer.send(mail);
      },
    } as unknown as Mailer;
    const result = await requestPasswordReset({ ...app(), mailer: slowMailer }, { site, email: m.email, origin: 'http://x' });
    // Answered while the mail has not even been handed to the mailer (the delivery starts after this turn).
    expect(answer(result)).toEqual({ type: 'accepted' });
    expect(started).toEqual([]);
    expect(await mailsTo(m.email)).toBe(0);
    release();
    if (result.type !== 'accepted') return;
    expect((await result.delivery).type).toBe('mailed');
    expect(started).toEqual([m.email]);
  });

  it('SEC-11 PWD-02 over the per-address limit (3 a day) the answer is too_many_password_resets, for unknown addresses too, and nothing is mailed', async () => {
    const m = await member();
    for (const address of [m.email, 'never-registered@example.com']) {
      for (let i = 0; i < RESET_MAILS_PER_DAY; i++) expect(answer(await ask(i === 1 ? address.toUpperCase() : address))).toEqual({ type: 'accepted' });
      expect(await ask(address)).toEqual({ type: 'error', reason: 'too_many_password_resets' });
    }
    await background.idle();
    expect(await mailsTo(m.email)).toBe(RESET_MAILS_PER_DAY);
    expect(await mailsTo('never-registered@example.com')).toBe(0);
  });

  it('SEC-11 over the per-IP limit the answer is too_many_password_resets and nothing is mailed; other IPs go on', async () => {
    const ip = '203.0.113.111';
    for (let i = 0; i < RESET_IP_RULE.limit; i++) expect(answer(await ask(`ip-spray-${i}@example.com`, ip))).toEqual({ type: 'accepted' });
    const m = await member();
    expect(await ask(m.email, ip)).toEqual({ type: 'error', reason: 'too_many_password_resets' });
    await background.idle();
    expect(await mailsTo(m.email)).toBe(0);
    // The refused request did not use up the address's own allowance.
    expect(answer(await ask(m.email, '203.0.113.112'))).toEqual({ type: 'accepted' });
    await background.idle();
    expect(await mailsTo(m.email)).toBe(1);
  });

  it('PWD-02 at most 3 reset mails per account in 24 hours, then "try tomorrow"', async () => {
    const m = await member();
    for (let i = 0; i < RESET_MAILS_PER_DAY; i++) await requestLink(m.email);
    expect(await ask(m.email)).toEqual({ type: 'error', reason: 'too_many_password_resets' });
    expect(await tokenCount(m.id)).toBe(3);
    clock.advance(24 * HOUR - 1);
    expect((await ask(m.email)).type).toBe('error');
    clock.advance(1 + 1);
    expect((await ask(m.email)).type).toBe('accepted');
  });

  it('PWD-02 SEC-11 parallel requests cannot pass the daily limit together', async () => {
    const m = await member();
    const results = await Promise.all(Array.from({ length: 6 }, () => ask(m.email)));
    expect(results.filter((r) => r.type === 'accepted')).toHaveLength(3);
    await background.idle();
    expect(await tokenCount(m.id)).toBe(3);
  });

  it('PWD-02 the daily cap of 3 mails per account holds on its own (behind the request counters)', async () => {
    const m = await member();
    for (let i = 0; i < RESET_MAILS_PER_DAY; i++) await requestLink(m.email);
    // Even with the request counters gone (pruned, or a key spelled differently), no fourth mail goes out.
    await database.db.delete(loginThrottle);
    const fourth = await ask(m.email);
    expect(answer(fourth)).toEqual({ type: 'accepted' });
    if (fourth.type === 'accepted') expect(await fourth.delivery).toEqual({ type: 'skipped', reason: 'daily_limit' });
    expect(await mailsTo(m.email)).toBe(RESET_MAILS_PER_DAY);
  });

  it('PWD-02 links point at a host of the site, never at a forged Host header', async () => {
    const sites = kit.sites;
    const originFor = async (url: string) => {
      const { site: found, registered } = await sites.resolveHost(new URL(url).host);
      return found.settings.id === site.settings.id ? linkOriginFor(site, registered, new URL(url).origin) : `https://${site.settings.domain}`;
    };
    expect(await originFor('http://localhost:4321/reset-password')).toBe('http://localhost:4321');
    expect(await originFor('http://evil.example/reset-password')).toBe(`https://${site.settings.domain}`);
    // A host of another site does not count for this one either.
    expect(await originFor('http://127.0.0.1:4321/reset-password')).toBe(`https://${site.settings.domain}`);
  });
});

describe('performing a reset', () => {
  it('PWD-01 a live link sets the new password, ends every session, revokes other links and logs this browser in', async () => {
    const m = await member();
    const first = await requestLink(m.email);
    const second = await requestLink(m.email);
    const phone = await createSession(database.db, clock, m.id);
    const laptop = await createSession(database.db, clock, m.id);
    expect(await checkResetLink(app(), second.token)).toEqual({ type: 'ok', userId: m.id });

    const result = await resetPassword(app(), { token: second.token, password: 'a-brand-new-secret', password_repeat: 'a-brand-new-secret' });
    expect(result.type).toBe('ok');
    if (result.type !== 'ok') return;
    // This browser becomes a known device of the account (SEC-13).
    expect(devices.verify(result.deviceCookie, m.id)).not.toBeNull();
    expect(await verifyPassword(await passwordHashOf(m.id), 'a-brand-new-secret')).toBe(true);
    expect(await passwordHashOf(m.id)).toMatch(/^\$argon2id\$/);
    expect(await loadSessionMember(database.db, clock, phone.token, site.settings.id)).toBeNull();
    expect(await loadSessionMember(database.db, clock, laptop.token, site.settings.id)).toBeNull();
    expect(await loadSessionMember(database.db, clock, result.created.token, site.settings.id)).not.toBeNull();
    expect((await database.db.select().from(sessions).where(eq(sessions.userId, m.id))).length).toBe(1);
    // The used link and the other open link no longer work (single use, PWD-02).
    expect(await checkResetLink(app(), second.token)).toEqual({ type: 'error', reason: 'reset_link_expired' });
    expect(await checkResetLink(app(), first.token)).toEqual({ type: 'error', reason: 'reset_link_expired' });
    expect(await resetPassword(app(), { token: second.token, password: 'another-new-secret', password_repeat: 'another-new-secret' })).toEqual({ type: 'error', reason: 'reset_link_expired' });
    expect((await login(app(), { email: m.email, password: OLD_PASSWORD, siteId: site.settings.id })).type).toBe('error');
    expect((await login(app(), { email: m.email, password: 'a-brand-new-secret', siteId: site.settings.id })).type).toBe('ok');
  });

  it('PWD-02 a link expires after 2 hours', async () => {
    const m = await member();
    const { token } = await requestLink(m.email);
    clock.advance(2 * HOUR - 1);
    expect((await checkResetLink(app(), token)).type).toBe('ok');
    clock.advance(1);
    expect(await checkResetLink(app(), token)).toEqual({ type: 'error', reason: 'reset_link_expired' });
    expect(await resetPassword(app(), { token, password: 'a-brand-new-secret', password_repeat: 'a-brand-new-secret' })).toEqual({ type: 'error', reason: 'reset_link_expired' });
    expect(await passwordHashOf(m.id)).toBe(oldHash);
  });

  it('PWD-01 different passwords, or a password against the rule, change nothing and keep the link usable', async () => {
    const m = await member();
    const { token } = await requestLink(m.email);
    const session = await createSession(database.db, clock, m.id);
    expect(await resetPassword(app(), { token, password: 'a-brand-new-secret', password_repeat: 'a-brand-new-secreT' })).toEqual({
      type: 'error',
      reason: 'validation_failed',
      fields: { password_repeat: 'passwords_differ' },
    });
    expect(await resetPassword(app(), { token, password: 'short', password_repeat: 'short' })).toMatchObject({ fields: { password: 'password_too_short' } });
    expect(await resetPassword(app(), { token, password: 'password123', password_repeat: 'password123' })).toMatchObject({ fields: { password: 'password_too_common' } });
    expect(await resetPassword(app(), { token, password: m.email, password_repeat: m.email })).toMatchObject({ fields: { password: 'password_like_email' } });
    expect(await resetPassword(app(), { token: 'garbage', password: 'a-brand-new-secret', password_repeat: 'a-brand-new-secret' })).toEqual({ type: 'error', reason: 'reset_link_expired' });
    expect(await passwordHashOf(m.id)).toBe(oldHash);
    expect(await loadSessionMember(database.db, clock, session.token, site.settings.id)).not.toBeNull();
    expect((await checkResetLink(app(), token)).type).toBe('ok');
  });

  it('PWD-02 two submissions of one link at the same moment: exactly one succeeds', async () => {
    const m = await member();
    const { token } = await requestLink(m.email);
    const results = await Promise.all([
      resetPassword(app(), { token, password: 'first-new-secret', password_repeat: 'first-new-secret' }),
      resetPassword(app(), { token, password: 'second-new-secret', password_repeat: 'second-new-secret' }),
    ]);
    expect(results.filter((r) => r.type === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r.type === 'error' && r.reason === 'reset_link_expired')).toHaveLength(1);
  });

  it('AUTH-03 a completed reset lifts a login block on the account (a stranger cannot keep the owner out)', async () => {
    const m = await member();
    for (let i = 0; i < 5; i++) await login(app(), { email: m.email, password: 'guess', siteId: site.settings.id, ip: '203.0.113.9' });
    expect(await activeBlock(app(), [accountKey(m.id)])).not.toBeNull();
    const { token } = await requestLink(m.email);
    expect((await resetPassword(app(), { token, password: 'a-brand-new-secret', password_repeat: 'a-brand-new-secret' })).type).toBe('ok');
    expect(
      await database.db
        .select()
        .from(loginThrottle)
        .where(eq(loginThrottle.key, accountKey(m.id))),
    ).toHaveLength(0);
    expect((await login(app(), { email: m.email, password: 'a-brand-new-secret', siteId: site.settings.id, ip: '198.51.100.3' })).type).toBe('ok');
  });
});
