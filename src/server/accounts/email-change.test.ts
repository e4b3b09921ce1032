/** E-mail change by link (MAIL-01) against a real database (in-memory PGlite). */
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { type Database } from '../../db/client';
import { accountTokens, mailOutbox, profiles, users } from '../../db/schema';
import { hashPassword } from '../auth/passwords';
import { Mailer } from '../mail/mailer';
import { SiteDirectory, type Site } from '../sites/directory';
import { confirmEmailChange, EMAIL_CHANGES_PER_DAY, emailStatus, requestEmailChange } from './email-change';
import { issueToken } from './tokens';

const HOUR = 3600 * 1000;
const clock = new FakeClock();
const PASSWORD = 'current-secret-words';
let database: Database;
let site: Site;
let otherSite: Site;
let kit: SeededDatabase;
let mailer: Mailer;
let hash: string;
const app = () => ({ db: database.db, clock, mailer });

beforeAll(async () => {
  kit = await seededDatabase({ clock: clock, profilesPerSite: 0 });
  database = kit.database;
  const sites = new SiteDirectory(database.db, clock, 0);
  site = await sites.forHost('localhost');
  otherSite = await sites.forHost('127.0.0.1');
  mailer = new Mailer(database.db, pino({ level: 'silent' }));
  hash = await hashPassword(PASSWORD);
});
afterAll(() => kit?.close());

let counter = 0;
async function member(on: Site = site, status: 'active' | 'not_confirmed' = 'active') {
  const email = `change-${++counter}@example.com`;
  const [user] = await database.db
    .insert(users)
    .values({ siteId: on.settings.id, email, passwordHash: hash, status, language: 'en', emailConfirmedAt: status === 'active' ? clock.now() : null })
    .returning({ id: users.id });
  await database.db.insert(profiles).values({
    userId: user!.id,
    siteId: on.settings.id,
    name: `Member${counter}`,
    status: status === 'active' ? 'active' : 'disabled',
    gender: 'male',
    sexuality: 'hetero',
    birthDate: '1990-01-01',
    country: 'NL',
  });
  return { id: user!.id, email };
}
const request = (userId: number, email: string, current_password = PASSWORD) => requestEmailChange(app(), { site, userId, origin: 'http://localhost:4321', form: { email, current_password } });
const emailOf = async (id: number) => (await database.db.select().from(users).where(eq(users.id, id)))[0]!;
const mailsTo = (to: string) => database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
const tokenFrom = (text: string) => /\/mail-change\/do\?token=([\w-]+)/.exec(text)?.[1] ?? '';

describe('requesting an e-mail change', () => {
  it('MAIL-01 mails a 24-hour link to the new address and a notice to the old one; nothing changes yet', async () => {
    const m = await member();
    expect(await request(m.id, 'New.Address@Example.org')).toEqual({ type: 'ok', newEmail: 'New.Address@Example.org' });
    const [link] = await mailsTo('New.Address@Example.org');
    expect(link).toMatchObject({ kind: 'email_change', subject: expect.stringContaining('Confirm your new e-mail address') });
    expect(link!.text).toMatch(/http:\/\/localhost:4321\/mail-change\/do\?token=[\w-]{40,}/);
    const [notice] = await mailsTo(m.email);
    expect(notice).toMatchObject({ kind: 'email_change_notice' });
    expect(notice!.text).toContain('New.Address@Example.org');
    expect(notice!.text).not.toContain('/mail-change/do');
    expect((await emailOf(m.id)).email).toBe(m.email);
    const [token] = await database.db
      .select()
      .from(accountTokens)
      .where(and(eq(accountTokens.userId, m.id), eq(accountTokens.kind, 'email_change')));
    expect(token!.newEmail).toBe('New.Address@Example.org');
    expect(token!.expiresAt.getTime() - clock.now().getTime()).toBe(24 * HOUR);
    expect(await emailStatus(app(), m.id)).toEqual({ confirmed: true, pending: 'New.Address@Example.org' });
  });

  it('MAIL-01 an address that already has an account on the site is refused (any letter case); on another site it is free', async () => {
    const m = await member();
    const taken = await member();
    expect(await request(m.id, taken.email.toUpperCase())).toEqual({ type: 'error', reason: 'validation_failed', fields: { email: 'email_taken' } });
    const elsewhere = await member(otherSite);
    expect((await request(m.id, elsewhere.email)).type).toBe('ok');
  });

  it('MAIL-01 invalid, disposable or unchanged addresses and a wrong password are refused and nothing is mailed', async () => {
    const m = await member();
    const before = (await database.db.select().from(mailOutbox)).length;
    expect(await request(m.id, 'not-an-address')).toMatchObject({ fields: { email: 'invalid_email' } });
    expect(await request(m.id, 'someone@mailinator.com')).toMatchObject({ fields: { email: 'email_disposable' } });
    expect(await request(m.id, m.email.toUpperCase())).toMatchObject({ fields: { email: 'email_unchanged' } });
    expect(await request(m.id, 'fresh@example.org', 'wrong password')).toMatchObject({ fields: { current_password: 'wrong_password' } });
    expect((await database.db.select().from(mailOutbox)).length).toBe(before);
    expect(await database.db.select().from(accountTokens).where(eq(accountTokens.userId, m.id))).toHaveLength(0);
  });

  it('MAIL-01 wrong current passwords are throttled: 5 in 15 minutes block the form for 15 minutes', async () => {
    const m = await member();
    for (let i = 0; i < 4; i++) expect(await request(m.id, 'fresh2@example.org', 'nope')).toMatchObject({ fields: { current_password: 'wrong_password' } });
    expect(await request(m.id, 'fresh2@example.org', 'nope')).toEqual({ type: 'error', reason: 'too_many_attempts', minutes: 15 });
    expect(await request(m.id, 'fresh2@example.org')).toEqual({ type: 'error', reason: 'too_many_attempts', minutes: 15 });
    clock.advance(15 * 60_000);
    expect((await request(m.id, 'fresh2@example.org')).type).toBe('ok');
  });

  it('MAIL-01 at most 5 change requests a day; a new request replaces the earlier link', async () => {
    const m = await member();
    for (let i = 0; i < EMAIL_CHANGES_PER_DAY; i++) expect((await request(m.id, `daily-${i}@example.org`)).type).toBe('ok');
    expect(await request(m.id, 'daily-x@example.org')).toEqual({ type: 'error', reason: 'too_many_email_changes' });
    const [first] = await mailsTo('daily-0@example.org');
    expect(await confirmEmailChange(app(), tokenFrom(first!.text))).toEqual({ type: 'error', reason: 'used' });
    const [last] = await mailsTo(`daily-${EMAIL_CHANGES_PER_DAY - 1}@example.org`);
    expect((await confirmEmailChange(app(), tokenFrom(last!.text))).type).toBe('ok');
  });
});

describe('confirming an e-mail change', () => {
  it('MAIL-01 the link applies the change once and marks the address confirmed', async () => {
    const m = await member(site, 'not_confirmed');
    expect((await request(m.id, 'confirmed-new@example.org')).type).toBe('ok');
    const [mail] = await mailsTo('confirmed-new@example.org');
    const token = tokenFrom(mail!.text);
    await issueToken(database.db, clock, m.id, 'activation');
    clock.advance(HOUR);
    expect(await confirmEmailChange(app(), token)).toEqual({ type: 'ok', userId: m.id, email: 'confirmed-new@example.org' });
    const after = await emailOf(m.id);
    expect(after.email).toBe('confirmed-new@example.org');
    expect(after.emailConfirmedAt?.getTime()).toBe(clock.now().getTime());
    expect(after.status).toBe('active');
    const [profile] = await database.db.select().from(profiles).where(eq(profiles.userId, m.id));
    expect(profile!.status).toBe('active');
    // The activation link of the old address is no longer usable; the change link is single use.
    const [act] = await database.db
      .select()
      .from(accountTokens)
      .where(and(eq(accountTokens.userId, m.id), eq(accountTokens.kind, 'activation')));
    expect(act!.usedAt).not.toBeNull();
    expect(await confirmEmailChange(app(), token)).toEqual({ type: 'error', reason: 'used' });
    expect(await emailStatus(app(), m.id)).toEqual({ confirmed: true, pending: null });
  });

  it('MAIL-01 an expired or unknown link changes nothing', async () => {
    const m = await member();
    await request(m.id, 'late@example.org');
    const [mail] = await mailsTo('late@example.org');
    clock.advance(24 * HOUR);
    expect(await confirmEmailChange(app(), tokenFrom(mail!.text))).toEqual({ type: 'error', reason: 'expired' });
    expect(await confirmEmailChange(app(), 'x'.repeat(43))).toEqual({ type: 'error', reason: 'invalid' });
    expect((await emailOf(m.id)).email).toBe(m.email);
  });

  it('MAIL-01 an address that got an account in the meantime is refused at confirmation', async () => {
    const m = await member();
    await request(m.id, 'contested@example.org');
    const [mail] = await mailsTo('contested@example.org');
    const [rival] = await database.db
      .insert(users)
      .values({ siteId: site.settings.id, email: 'Contested@example.org', passwordHash: hash, status: 'active', language: 'en' })
      .returning({ id: users.id });
    expect(await confirmEmailChange(app(), tokenFrom(mail!.text))).toEqual({ type: 'error', reason: 'email_taken' });
    expect((await emailOf(m.id)).email).toBe(m.email);
    expect(await confirmEmailChange(app(), tokenFrom(mail!.text))).toEqual({ type: 'error', reason: 'used' });
    await database.db.delete(users).where(eq(users.id, rival!.id));
  });

  it('MAIL-01 two members confirming the same new address at once: the unique index lets only one have it', async () => {
    const a = await member();
    const b = await member();
    await request(a.id, 'race@example.org');
    await request(b.id, 'race@example.org');
    const mails = await mailsTo('race@example.org');
    const results = await Promise.all(mails.map((mail) => confirmEmailChange(app(), tokenFrom(mail.text))));
    expect(results.filter((r) => r.type === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r.type === 'error' && r.reason === 'email_taken')).toHaveLength(1);
    const owners = await database.db.select().from(users).where(eq(users.email, 'race@example.org'));
    expect(owners).toHaveLength(1);
  });
});
