/** Sites directory, sessions and login against a real (in-memory PGlite) database. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../tests/setup/kit';
import { type Database } from '../db/client';
import { sites, siteHosts, sessions, users } from '../db/schema';
import { DEMO_ACCOUNTS } from '../demo/seed';
import { login } from './auth/login';
import { createSession, revokeUserSessions, SESSION_TTL_MS } from './auth/sessions';
import { loadSessionMember } from './session/lookup';
import { normaliseHost, SiteDirectory } from './sites/directory';

let database: Database;
let kit: SeededDatabase;
const clock = new FakeClock();

beforeAll(async () => {
  kit = await seededDatabase({ clock: clock, profilesPerSite: 0 });
  database = kit.database;
});
afterAll(() => kit?.close());

describe('site directory', () => {
  it('SITE-01 hosts are normalised: case, port and trailing dot do not matter', () => {
    expect(normaliseHost('LocalHost:4321')).toBe('localhost');
    expect(normaliseHost('flirtlokaal.nl.')).toBe('flirtlokaal.nl');
    expect(normaliseHost('[::1]:80')).toBe('[::1]');
    expect(normaliseHost(undefined)).toBe('');
  });

  it('SITE-01 finds the site by host and gives unknown hosts the default site', async () => {
    const dir = new SiteDirectory(database.db, clock, 1000);
    const one = await dir.forHost('localhost:4321');
    const two = await dir.forHost('127.0.0.1');
    const other = await dir.forHost('unknown.example');
    expect(one.settings.id).not.toBe(two.settings.id);
    expect(other.settings.id).toBe(one.settings.id);
    expect(one.company.name).toBeTruthy();
  });

  it('SITE-02 settings are cached per process for the TTL, then read again', async () => {
    const dir = new SiteDirectory(database.db, clock, 30_000);
    const before = await dir.forHost('localhost');
    await database.db.update(sites).set({ name: 'Renamed' }).where(eq(sites.id, before.settings.id));
    expect((await dir.forHost('localhost')).settings.name).toBe(before.settings.name);
    clock.advance(30_001);
    expect((await dir.forHost('localhost')).settings.name).toBe('Renamed');
    await database.db.update(sites).set({ name: before.settings.name }).where(eq(sites.id, before.settings.id));
  });

  it('SITE-02 a site row that breaks the settings rules is refused with a clear error', async () => {
    const dir = new SiteDirectory(database.db, clock, 0);
    const id = (await dir.forHost('localhost')).settings.id;
    await database.db.update(sites).set({ supportEmail: 'not-an-email' }).where(eq(sites.id, id));
    await expect(dir.forId(id)).rejects.toThrow(/support_email/);
    await database.db.update(sites).set({ supportEmail: 'support@flirtlokaal.nl' }).where(eq(sites.id, id));
  });

  it('SITE-01 a newly added host reaches its site once the cache expires', async () => {
    const dir = new SiteDirectory(database.db, clock, 10);
    const two = await dir.forHost('127.0.0.1');
    expect((await dir.forHost('www.example.test')).settings.id).not.toBe(two.settings.id);
    await database.db.insert(siteHosts).values({ host: 'www.example.test', siteId: two.settings.id });
    clock.advance(11);
    expect((await dir.forHost('www.example.test')).settings.id).toBe(two.settings.id);
  });
});

describe('sessions', () => {
  async function demoUser(siteId = 1) {
    const [u] = await database.db.select().from(users).where(eq(users.email, DEMO_ACCOUNTS.free.email));
    return { ...u!, siteId: u!.siteId ?? siteId };
  }

  it('AUTH-04 a session lasts 30 days and is renewed when used in its second half', async () => {
    const user = await demoUser();
    const { token, session } = await createSession(database.db, clock, user.id);
    expect(session.expiresAt.getTime() - clock.now().getTime()).toBe(SESSION_TTL_MS);
    const fresh = await loadSessionMember(database.db, clock, token, user.siteId);
    expect(fresh?.renewed).toBe(false);
    clock.advance(20 * 24 * 3600 * 1000);
    const renewed = await loadSessionMember(database.db, clock, token, user.siteId);
    expect(renewed?.renewed).toBe(true);
    expect(renewed!.session.expiresAt.getTime() - clock.now().getTime()).toBe(SESSION_TTL_MS);
    clock.advance(SESSION_TTL_MS + 1);
    expect(await loadSessionMember(database.db, clock, token, user.siteId)).toBeNull();
    expect(await database.db.select().from(sessions).where(eq(sessions.id, session.id))).toHaveLength(0);
  });

  it('AUTH-04 sessions are revoked all at once, keeping the current one when asked', async () => {
    const user = await demoUser();
    const a = await createSession(database.db, clock, user.id);
    const b = await createSession(database.db, clock, user.id);
    await revokeUserSessions(database.db, user.id, a.session.id);
    expect(await loadSessionMember(database.db, clock, a.token, user.siteId)).not.toBeNull();
    expect(await loadSessionMember(database.db, clock, b.token, user.siteId)).toBeNull();
    await revokeUserSessions(database.db, user.id);
    expect(await loadSessionMember(database.db, clock, a.token, user.siteId)).toBeNull();
  });

  it('AUTH-04 malformed tokens are refused without a query', async () => {
    expect(await loadSessionMember(database.db, clock, "' or 1=1 --", 1)).toBeNull();
    expect(await loadSessionMember(database.db, clock, '', 1)).toBeNull();
  });

  it('AUTH-01 login takes the e-mail in any case, and fictional profiles cannot log in', async () => {
    const user = await demoUser();
    const ok = await login({ db: database.db, clock, devices: kit.devices }, { email: DEMO_ACCOUNTS.free.email.toUpperCase(), password: DEMO_ACCOUNTS.free.password, siteId: user.siteId });
    expect(ok.type).toBe('ok');
    const wrong = await login({ db: database.db, clock, devices: kit.devices }, { email: DEMO_ACCOUNTS.free.email, password: 'nope', siteId: user.siteId });
    expect(wrong).toEqual({ type: 'error', reason: 'invalid_credentials' });
    await database.db.update(users).set({ role: 'fictional' }).where(eq(users.id, user.id));
    const fictional = await login({ db: database.db, clock, devices: kit.devices }, { email: DEMO_ACCOUNTS.free.email, password: DEMO_ACCOUNTS.free.password, siteId: user.siteId });
    expect(fictional.type).toBe('error');
    await database.db.update(users).set({ role: 'member' }).where(eq(users.id, user.id));
  });
});
