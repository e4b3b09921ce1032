/**
 * Account deletion, its alternatives, reactivation (DEL-01) and the data export (GDPR-01) against a
 * real (in-memory PGlite) database, with a clock the tests move.
 */
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { type Database } from '../../db/client';
import { accountTokens, mailOutbox, pageEvents, photos, profiles, sessions, sites, users } from '../../db/schema';
import { hashPassword } from '../auth/passwords';
import { createSession } from '../auth/sessions';
import { loadSessionMember } from '../session/lookup';
import type { Clock } from '../clock';
import { grant } from '../credits/ledger';
import { createLogger } from '../logger';
import { Mailer } from '../mail/mailer';
import { InProcessBus } from '../realtime/bus';
import { SiteDirectory, type Site } from '../sites/directory';
import { exportFilename, exportUserData } from './data-export';
import { DELETE_GRACE_MS, checkReactivation, deleteAccount, reactivateAccount } from './deletion';

const PASSWORD = 'correct horse battery';
const clock = new FakeClock();
let database: Database;
let kit: SeededDatabase;
let app: { db: Database['db']; clock: Clock; mailer: Mailer; bus: InProcessBus };
/** The sites whose shared answers the bus said to drop (`site.content_changed`). */
const contentChanged: number[] = [];
let site: Site;
let otherSite: Site;
let passwordHash: string;
let n = 0;

beforeAll(async () => {
  kit = await seededDatabase({ clock: clock, profilesPerSite: 0 });
  database = kit.database;
  const directory = new SiteDirectory(database.db, clock, 0);
  const all = await database.db.select({ id: sites.id, isDefault: sites.isDefault }).from(sites);
  site = await directory.forId(all.find((s) => s.isDefault)!.id);
  otherSite = await directory.forId(all.find((s) => !s.isDefault)!.id);
  app = { db: database.db, clock, mailer: new Mailer(database.db, createLogger('silent')), bus: new InProcessBus() };
  app.bus.subscribe('site.content_changed', ({ siteId }) => void contentChanged.push(siteId));
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(() => kit?.close());

async function member(options: { confirmed?: boolean } = {}) {
  n++;
  const confirmed = options.confirmed ?? true;
  const email = `leaving-${n}@example.com`;
  const [user] = await database.db
    .insert(users)
    .values({
      siteId: site.settings.id,
      email,
      passwordHash,
      status: confirmed ? 'active' : 'not_confirmed',
      emailConfirmedAt: confirmed ? clock.now() : null,
      language: 'en',
      tracking: { network: 'ads', ref: 'r1' },
      signupMessage: 'Hello there',
    })
    .returning({ id: users.id });
  const id = user!.id;
  await database.db.insert(profiles).values({
    userId: id,
    siteId: site.settings.id,
    name: `Leaver ${n}`,
    status: confirmed ? 'active' : 'disabled',
    gender: 'male',
    sexuality: 'hetero',
    birthDate: '1988-04-04',
    country: 'NL',
    about: 'I like walks',
    hairColour: 'brown',
  });
  const session = await createSession(database.db, clock, id, { ip: '203.0.113.9', userAgent: 'TestBrowser/1' });
  return { id, email, session };
}

async function userRow(id: number) {
  const [row] = await database.db.select().from(users).where(eq(users.id, id));
  const [profile] = await database.db.select().from(profiles).where(eq(profiles.userId, id));
  return { user: row!, profile: profile! };
}

async function lastMail(userId: number) {
  const [mail] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.userId, userId)).orderBy(desc(mailOutbox.id)).limit(1);
  return mail;
}

const linkToken = (text: string) => /\/account\/reactivate\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? '';

describe('deleting and reactivating', () => {
  it('DEL-01 a wrong password deletes nothing, ends no session and sends no mail', async () => {
    const m = await member();
    for (const password of ['wrong password', '', 'x'.repeat(2000)]) {
      expect(await deleteAccount(app, site, { userId: m.id, password, origin: 'http://localhost' })).toEqual({ type: 'error', reason: 'wrong_password' });
    }
    const { user, profile } = await userRow(m.id);
    expect(user).toMatchObject({ status: 'active', deletedAt: null });
    expect(profile.status).toBe('active');
    expect(await loadSessionMember(database.db, clock, m.session.token, site.settings.id)).not.toBeNull();
    expect(await lastMail(m.id)).toBeUndefined();
    expect(await database.db.select().from(accountTokens).where(eq(accountTokens.userId, m.id))).toHaveLength(0);
  });

  it('DEL-01 wrong passwords are throttled: after five, even the right one is refused for a while', async () => {
    const m = await member();
    for (let i = 0; i < 4; i++) expect((await deleteAccount(app, site, { userId: m.id, password: `guess ${i}`, origin: 'http://x' })).type).toBe('error');
    expect(await deleteAccount(app, site, { userId: m.id, password: 'guess 5', origin: 'http://x' })).toMatchObject({ type: 'error', reason: 'too_many_attempts' });
    expect(await deleteAccount(app, site, { userId: m.id, password: PASSWORD, origin: 'http://x' })).toMatchObject({ type: 'error', reason: 'too_many_attempts' });
    expect((await userRow(m.id)).user.status).toBe('active');
  });

  it('DEL-01 an account of another site cannot be deleted through this site', async () => {
    const m = await member();
    expect(await deleteAccount(app, otherSite, { userId: m.id, password: PASSWORD, origin: 'http://x' })).toEqual({ type: 'error', reason: 'not_found' });
    expect((await userRow(m.id)).user.status).toBe('active');
  });

  it('DEL-01 deleting hides the account at once, ends every session and mails a reactivation link valid 14 days', async () => {
    const m = await member();
    const second = await createSession(database.db, clock, m.id);
    contentChanged.length = 0;
    expect(await deleteAccount(app, site, { userId: m.id, password: PASSWORD, origin: 'http://localhost:4321' })).toEqual({ type: 'ok' });
    // Every process drops the site's shared search pages, teasers and cached landers (MEM-01).
    expect(contentChanged).toEqual([site.settings.id]);
    const { user, profile } = await userRow(m.id);
    expect(user.status).toBe('deleted');
    expect(user.deletedAt?.toISOString()).toBe(clock.now().toISOString());
    expect(profile.status).toBe('disabled');
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, m.id))).toHaveLength(0);
    expect(await loadSessionMember(database.db, clock, second.token, site.settings.id)).toBeNull();
    const mail = await lastMail(m.id);
    expect(mail).toMatchObject({ kind: 'account_deleted', toAddress: m.email });
    expect(mail!.subject).toContain(site.settings.name);
    expect(mail!.text).toContain('14 days');
    expect(mail!.html).toContain('http://localhost:4321/account/reactivate?token=');
    const [token] = await database.db
      .select()
      .from(accountTokens)
      .where(and(eq(accountTokens.userId, m.id), eq(accountTokens.kind, 'reactivation')));
    expect(token!.expiresAt.getTime() - clock.now().getTime()).toBe(DELETE_GRACE_MS);
    // A second delete of the same account does nothing more.
    expect(await deleteAccount(app, site, { userId: m.id, password: PASSWORD, origin: 'http://x' })).toEqual({ type: 'error', reason: 'not_found' });
  });

  it('DEL-01 the link restores a confirmed account as active, visible and logged in, once', async () => {
    const m = await member({ confirmed: true });
    await deleteAccount(app, site, { userId: m.id, password: PASSWORD, origin: 'http://localhost' });
    const token = linkToken((await lastMail(m.id))!.text);
    clock.advance(13 * 24 * 3600 * 1000);
    expect(await checkReactivation(app, token, site.settings.id)).toMatchObject({ type: 'ok', userId: m.id });
    expect(await checkReactivation(app, token, otherSite.settings.id)).toEqual({ type: 'error', reason: 'invalid' });
    contentChanged.length = 0;
    const result = await reactivateAccount(app, token, { siteId: site.settings.id, ip: '198.51.100.1', userAgent: 'Back/1' });
    expect(result.type).toBe('ok');
    // Back in the site's shared answers in every process.
    expect(contentChanged).toEqual([site.settings.id]);
    if (result.type !== 'ok') return;
    const { user, profile } = await userRow(m.id);
    expect(user).toMatchObject({ status: 'active', deletedAt: null });
    expect(profile.status).toBe('active');
    expect(await loadSessionMember(database.db, clock, result.created.token, site.settings.id)).not.toBeNull();
    expect(await reactivateAccount(app, token, { siteId: site.settings.id })).toEqual({ type: 'error', reason: 'used' });
    expect(contentChanged).toEqual([site.settings.id]);
  });

  it('DEL-01 an account whose e-mail was never confirmed comes back unconfirmed with its profile still hidden', async () => {
    const m = await member({ confirmed: false });
    await deleteAccount(app, site, { userId: m.id, password: PASSWORD, origin: 'http://localhost' });
    const result = await reactivateAccount(app, linkToken((await lastMail(m.id))!.text), { siteId: site.settings.id });
    expect(result.type).toBe('ok');
    const { user, profile } = await userRow(m.id);
    expect(user).toMatchObject({ status: 'not_confirmed', deletedAt: null, emailConfirmedAt: null });
    expect(profile.status).toBe('disabled');
  });

  it('DEL-01 after 14 days the link no longer restores the account', async () => {
    const m = await member();
    await deleteAccount(app, site, { userId: m.id, password: PASSWORD, origin: 'http://localhost' });
    const token = linkToken((await lastMail(m.id))!.text);
    clock.advance(DELETE_GRACE_MS);
    expect(await reactivateAccount(app, token, { siteId: site.settings.id })).toEqual({ type: 'error', reason: 'expired' });
    expect((await userRow(m.id)).user.status).toBe('deleted');
  });

  it('DEL-01 a made-up or foreign-site token restores nothing', async () => {
    const m = await member();
    await deleteAccount(app, site, { userId: m.id, password: PASSWORD, origin: 'http://localhost' });
    const token = linkToken((await lastMail(m.id))!.text);
    expect(await reactivateAccount(app, 'not-a-token', { siteId: site.settings.id })).toEqual({ type: 'error', reason: 'invalid' });
    expect(await reactivateAccount(app, 'A'.repeat(43), { siteId: site.settings.id })).toEqual({ type: 'error', reason: 'invalid' });
    expect(await reactivateAccount(app, token, { siteId: otherSite.settings.id })).toEqual({ type: 'error', reason: 'invalid' });
    expect((await userRow(m.id)).user.status).toBe('deleted');
    // The genuine link still works afterwards: a refused attempt did not use it up.
    expect((await reactivateAccount(app, token, { siteId: site.settings.id })).type).toBe('ok');
  });
});

describe('data export', () => {
  it('GDPR-01 the export holds account, profile, photos, sessions, ledger, mails and page events, and no secrets', async () => {
    const m = await member();
    await database.db.insert(photos).values({ userId: m.id, filename: `exp${m.id}-main.webp`, thumbFilename: `exp${m.id}-thumb.webp`, status: 'inspection_pending', width: 480, height: 600 });
    await grant(database.db, { memberId: m.id, amount: 25, reason: 'signup_credits', reference: `signup:${m.id}`, at: clock.now() });
    await database.db.insert(pageEvents).values({ siteId: site.settings.id, userId: m.id, kind: 'hidden', path: '/members', durationMs: 1200 });
    await app.mailer.send({
      siteId: site.settings.id,
      userId: m.id,
      kind: 'activation',
      to: m.email,
      fromName: 'Site',
      fromAddress: 'noreply@example.com',
      subject: 'Confirm your address',
      text: 't',
      html: '<p>t</p>',
    });

    const data = await exportUserData(database.db, site, m.id, clock.now());
    expect(data).not.toBeNull();
    expect(data!.account).toMatchObject({ id: m.id, email: m.email, status: 'active', tracking: { network: 'ads', ref: 'r1' }, signup_message: 'Hello there' });
    expect(data!.profile).toMatchObject({ name: `Leaver ${n}`, about: 'I like walks', hair_colour: 'brown', birth_date: '1988-04-04' });
    expect(data!.photos).toEqual([expect.objectContaining({ filename: `exp${m.id}-main.webp`, status: 'inspection_pending' })]);
    expect(data!.sessions).toEqual([expect.objectContaining({ ip: '203.0.113.9', user_agent: 'TestBrowser/1' })]);
    expect(data!.credit_ledger).toEqual([expect.objectContaining({ delta: 25, reason: 'signup_credits' })]);
    expect(data!.mails).toEqual([expect.objectContaining({ subject: 'Confirm your address', kind: 'activation' })]);
    expect(data!.page_events).toEqual([expect.objectContaining({ path: '/members', kind: 'hidden' })]);
    const text = JSON.stringify(data);
    expect(text).not.toContain(passwordHash);
    expect(text).not.toContain(m.session.session.id);
    expect(text).not.toContain('password');
  });

  it('GDPR-01 nobody exports an account of another site', async () => {
    const m = await member();
    expect(await exportUserData(database.db, otherSite, m.id, clock.now())).toBeNull();
  });

  it('GDPR-01 the file name is <site>-data-<id>.json with safe characters only', () => {
    expect(exportFilename('Flirt Lokaal!', 42)).toBe('flirt-lokaal-data-42.json');
    expect(exportFilename('Café "Zoë"', 7)).toBe('cafe-zoe-data-7.json');
    expect(exportFilename('***', 1)).toBe('site-data-1.json');
  });
});
