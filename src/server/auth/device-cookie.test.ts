/**
 * Device cookies against lockout (SEC-13, AUTH-03) with the login service on a real database
 * (in-memory PGlite) and a clock the tests move.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { appSecrets, loginThrottle, profiles, users } from '../../db/schema';
import { DEVICE_COOKIE_TTL_MS, DEVICE_SECRET_KEY, DeviceCookies } from './device-cookie';
import { login, type LoginResult } from './login';
import { hashPassword } from './passwords';
import { accountKey, activeBlock, DEVICE_RULE } from './throttle';

const MINUTE = 60_000;
const PASSWORD = 'owner-secret-words';
const clock = new FakeClock();
let kit: SeededDatabase;
let hash: string;
let siteId: number;
let n = 0;

beforeAll(async () => {
  kit = await seededDatabase({ clock });
  hash = await hashPassword(PASSWORD);
  siteId = (await kit.site()).settings.id;
});
afterAll(() => kit?.close());
beforeEach(() => clock.advance(24 * 3600 * 1000));

async function member() {
  const email = `device-${++n}@example.com`;
  const [user] = await kit.db.insert(users).values({ siteId, email, passwordHash: hash, status: 'active', language: 'en', emailConfirmedAt: clock.now() }).returning({ id: users.id });
  await kit.db.insert(profiles).values({ userId: user!.id, siteId, name: `Device${n}`, gender: 'female', sexuality: 'hetero', birthDate: '1990-01-01', country: 'NL' });
  return { id: user!.id, email };
}
const deps = () => ({ db: kit.db, clock, devices: kit.devices });
const attempt = (email: string, password: string, ip: string, deviceCookie?: string | null) => login(deps(), { email, password, siteId, ip, deviceCookie: deviceCookie ?? null });
/** The device cookie the owner's browser got from logging in once. */
async function ownersBrowser(email: string): Promise<string> {
  const first = await attempt(email, PASSWORD, '198.51.100.10');
  if (first.type !== 'ok') throw new Error('the owner could not log in');
  return first.deviceCookie;
}
const blocked = (r: LoginResult) => r.type === 'error' && r.reason === 'too_many_attempts';

describe('device cookies', () => {
  it('SEC-13 AUTH-03 after 11 wrong passwords from an attacker, the owner’s known browser logs in; a browser without the cookie is refused', async () => {
    const owner = await member();
    const cookie = await ownersBrowser(owner.email);
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await attempt(owner.email, `guess-${i}`, '203.0.113.66'));
    expect(answers.slice(0, 4).every((r) => r.type === 'error' && r.reason === 'invalid_credentials')).toBe(true);
    expect(answers.slice(4).every(blocked)).toBe(true);

    const fresh = await attempt(owner.email, PASSWORD, '198.51.100.10');
    expect(fresh).toEqual({ type: 'error', reason: 'too_many_attempts', minutes: 15 });
    const known = await attempt(owner.email, PASSWORD, '198.51.100.10', cookie);
    expect(known.type).toBe('ok');
    if (known.type !== 'ok') return;
    // A new cookie every login (new nonce); the old one keeps working until it expires.
    expect(known.deviceCookie).not.toBe(cookie);
    expect(kit.devices.verify(known.deviceCookie, owner.id)).not.toBeNull();
    // The trusted login does not lift the block for untrusted clients.
    expect(blocked(await attempt(owner.email, PASSWORD, '198.51.100.11'))).toBe(true);
    expect(await activeBlock(deps(), [accountKey(owner.id)])).not.toBeNull();
  });

  it('SEC-13 the known browser is not blocked by its IP’s block either (a shared address)', async () => {
    const owner = await member();
    const cookie = await ownersBrowser(owner.email);
    const shared = '192.0.2.99';
    for (let i = 0; i < 30; i++) await attempt(`nobody-${n}-${i}@example.com`, 'x', shared);
    expect(blocked(await attempt(owner.email, PASSWORD, shared))).toBe(true);
    expect((await attempt(owner.email, PASSWORD, shared, cookie)).type).toBe('ok');
  });

  it('SEC-13 a cookie of another account, a tampered, forged or expired cookie does not help', async () => {
    const owner = await member();
    const other = await member();
    const ownCookie = await ownersBrowser(owner.email);
    const otherCookie = await ownersBrowser(other.email);
    for (let i = 0; i < 5; i++) await attempt(owner.email, 'guess', '203.0.113.67');

    const [id, expires, nonce, signature] = ownCookie.split('.') as [string, string, string, string];
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    // Signed the right way with a secret that is not ours.
    const forged = `${id}.${expires}.${nonce}.${createHmac('sha256', randomBytes(32)).update(`device|${id}|${expires}|${nonce}`).digest('base64url')}`;
    const useless = [
      otherCookie,
      `${other.id}.${expires}.${nonce}.${signature}`,
      `${owner.id}.${Number(expires) + 3600}.${nonce}.${signature}`,
      `${id}.${expires}.${flip(nonce)}.${signature}`,
      `${id}.${expires}.${nonce}.${flip(signature)}`,
      forged,
      `${ownCookie}x`,
      'garbage',
      '',
    ];
    for (const cookie of useless) expect(blocked(await attempt(owner.email, PASSWORD, '198.51.100.12', cookie)), cookie).toBe(true);

    // Expired: a year after it was issued the cookie is just a cookie.
    expect((await attempt(owner.email, PASSWORD, '198.51.100.12', ownCookie)).type).toBe('ok');
    clock.advance(DEVICE_COOKIE_TTL_MS);
    for (let i = 0; i < 5; i++) await attempt(owner.email, 'guess', '203.0.113.67');
    expect(blocked(await attempt(owner.email, PASSWORD, '198.51.100.12', ownCookie))).toBe(true);
  });

  it('SEC-13 AUTH-03 the device’s own counter: 5 failures block that device for 15 minutes; the owner’s other known browser still logs in', async () => {
    const owner = await member();
    const stolen = await ownersBrowser(owner.email);
    const phone = await ownersBrowser(owner.email);
    for (let i = 0; i < DEVICE_RULE.limit - 1; i++) expect(await attempt(owner.email, 'guess', '203.0.113.68', stolen)).toEqual({ type: 'error', reason: 'invalid_credentials' });
    expect(await attempt(owner.email, 'guess', '203.0.113.68', stolen)).toEqual({ type: 'error', reason: 'too_many_attempts', minutes: 15 });
    expect(blocked(await attempt(owner.email, PASSWORD, '203.0.113.68', stolen))).toBe(true);
    // The device's failures are its own: the account and the other browser are not blocked by them.
    expect(await activeBlock(deps(), [accountKey(owner.id)])).toBeNull();
    expect((await attempt(owner.email, PASSWORD, '198.51.100.13', phone)).type).toBe('ok');
    expect((await attempt(owner.email, PASSWORD, '198.51.100.14')).type).toBe('ok');
    clock.advance(15 * MINUTE);
    expect((await attempt(owner.email, PASSWORD, '203.0.113.68', stolen)).type).toBe('ok');
  });

  it('SEC-13 a success through a device clears only that device’s counter', async () => {
    const owner = await member();
    const cookie = await ownersBrowser(owner.email);
    for (let i = 0; i < 4; i++) await attempt(owner.email, 'typo', '198.51.100.15', cookie);
    const ok = await attempt(owner.email, PASSWORD, '198.51.100.15', cookie);
    expect(ok.type).toBe('ok');
    if (ok.type !== 'ok') return;
    for (let i = 0; i < 4; i++) expect(await attempt(owner.email, 'typo', '198.51.100.15', ok.deviceCookie)).toEqual({ type: 'error', reason: 'invalid_credentials' });
    const rows = await kit.db
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.key, accountKey(owner.id)));
    expect(rows).toHaveLength(0);
  });

  it('SEC-13 the secret is made once and kept: another process (a second instance) accepts the cookies', async () => {
    const owner = await member();
    const cookie = await ownersBrowser(owner.email);
    const again = await DeviceCookies.create({ db: kit.db, clock });
    expect(again.verify(cookie, owner.id)).toMatchObject({ userId: owner.id });
    expect(await kit.db.select().from(appSecrets).where(eq(appSecrets.key, DEVICE_SECRET_KEY))).toHaveLength(1);
  });
});
