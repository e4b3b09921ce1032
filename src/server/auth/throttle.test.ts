/** Login throttling (AUTH-03) and the deleted-account login answer (DEL-01) against a real database. */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { openDatabase, type Database } from '../../db/client';
import { createTestDatabase, everyDatabaseKind } from '../../../tests/setup/databases';
import { loginThrottle, sessions, users } from '../../db/schema';
import { DEMO_ACCOUNTS } from '../../demo/seed';
import { DELETE_GRACE_MS } from '../accounts/deletion';
import { DeviceCookies } from './device-cookie';
import { login } from './login';
import { accountKey, ACCOUNT_RULE, activeBlock, clearFailures, giveBackTry, ipKey, IP_RULE, minutesLeft, pruneThrottle, recordFailure, takeTry, unknownEmailKey, type Try } from './throttle';

const MINUTE = 60_000;
let kit: SeededDatabase;
let database: Database;
const clock = new FakeClock();
let siteId: number;
let freeId: number;
let devices: DeviceCookies;
const deps = () => ({ db: database.db, clock, devices });

beforeAll(async () => {
  kit = await seededDatabase({ clock });
  database = kit.database;
  devices = kit.devices;
  const [free] = await database.db.select().from(users).where(eq(users.email, DEMO_ACCOUNTS.free.email)).orderBy(users.id).limit(1);
  siteId = free!.siteId;
  freeId = free!.id;
});
afterAll(() => kit?.close());
beforeEach(async () => {
  await database.db.delete(loginThrottle);
  clock.advance(24 * 3600 * 1000);
});

const attempt = (password: string, ip: string | null = '198.51.100.1', email = DEMO_ACCOUNTS.free.email) => login(deps(), { email, password, siteId, ip });

describe('throttle counters', () => {
  it('AUTH-03 failures within the window count up; the limit starts a block of the set length', async () => {
    const rule = { limit: 3, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE };
    expect((await recordFailure(deps(), 'k', rule)).failures).toBe(1);
    expect((await recordFailure(deps(), 'k', rule)).block).toBeNull();
    const third = await recordFailure(deps(), 'k', rule);
    expect(third.failures).toBe(3);
    expect(third.block?.minutes).toBe(15);
    expect(third.block?.until.getTime()).toBe(clock.time + 15 * MINUTE);
  });

  it('AUTH-03 a window older than 15 minutes starts over', async () => {
    const rule = { limit: 3, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE };
    await recordFailure(deps(), 'k', rule);
    await recordFailure(deps(), 'k', rule);
    clock.advance(15 * MINUTE);
    const fresh = await recordFailure(deps(), 'k', rule);
    expect(fresh.failures).toBe(1);
    expect(fresh.block).toBeNull();
  });

  it('AUTH-03 failures that race past the limit keep the running block: it never grows', async () => {
    const rule = { limit: 2, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE };
    await recordFailure(deps(), 'k', rule);
    const first = await recordFailure(deps(), 'k', rule);
    clock.advance(5 * MINUTE);
    const later = await recordFailure(deps(), 'k', rule);
    expect(later.block?.until.getTime()).toBe(first.block!.until.getTime());
    expect(later.block?.minutes).toBe(10);
  });

  it('AUTH-03 concurrent failures are all counted (one conditional upsert each)', async () => {
    const rule = { limit: 100, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE };
    await Promise.all(Array.from({ length: 20 }, () => recordFailure(deps(), 'race', rule)));
    const [row] = await database.db.select().from(loginThrottle).where(eq(loginThrottle.key, 'race'));
    expect(row?.failures).toBe(20);
  });

  it('AUTH-03 minutes left are rounded up and never below one', () => {
    const now = new Date(0);
    expect(minutesLeft(new Date(14 * MINUTE + 1), now)).toBe(15);
    expect(minutesLeft(new Date(1000), now)).toBe(1);
  });

  it('AUTH-03 old rows are pruned, running blocks are kept', async () => {
    await recordFailure(deps(), 'old', ACCOUNT_RULE);
    clock.advance(25 * 3600 * 1000);
    for (let i = 0; i < 5; i++) await recordFailure(deps(), 'blocked', ACCOUNT_RULE);
    expect(await pruneThrottle(deps())).toBe(1);
    expect(await activeBlock(deps(), ['blocked'])).not.toBeNull();
    await clearFailures(deps(), 'blocked');
    expect(await activeBlock(deps(), ['blocked'])).toBeNull();
  });
});

describe.each(await everyDatabaseKind())('tries taken before the check on %s', (kind) => {
  it("SEC-19 20 tries racing on one key: the limit's worth are taken (the last starts the block), the rest refused uncounted; giving back the last lifts its block", async () => {
    const test = await createTestDatabase(kind);
    const own = await openDatabase(test.url, kind === 'postgres' ? { poolSize: 20 } : {});
    try {
      const on = { db: own.db, clock };
      const rule = { limit: 5, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE };
      const results = await Promise.all(Array.from({ length: 20 }, () => takeTry(on, 'burst', rule)));
      const taken = results.flatMap((r) => (r.type === 'taken' ? [r.try] : []));
      expect(taken).toHaveLength(5);
      expect(results.filter((r) => r.type === 'blocked' && r.block.minutes === 15)).toHaveLength(15);
      const starter = taken.filter((t) => t.block !== null);
      expect(starter).toHaveLength(1);
      const row = async () => (await own.db.select().from(loginThrottle).where(eq(loginThrottle.key, 'burst')))[0]!;
      expect((await row()).failures).toBe(5);
      await giveBackTry(on, starter[0] as Try);
      expect([(await row()).failures, (await row()).blockedUntil]).toEqual([4, null]);
      expect((await takeTry(on, 'burst', rule)).type).toBe('taken');
    } finally {
      await own.close();
      await test.drop();
    }
  });
});

describe('login throttling', () => {
  it('AUTH-03 five wrong passwords block the account for 15 minutes; the fifth answer says so', async () => {
    for (let i = 0; i < 4; i++) expect(await attempt('wrong')).toEqual({ type: 'error', reason: 'invalid_credentials' });
    expect(await attempt('wrong')).toEqual({ type: 'error', reason: 'too_many_attempts', minutes: 15 });
    clock.advance(4 * MINUTE);
    expect(await attempt('wrong')).toEqual({ type: 'error', reason: 'too_many_attempts', minutes: 11 });
  });

  it('AUTH-03 during the block even the right password from a clean IP is refused, and the block lifts on time', async () => {
    for (let i = 0; i < 5; i++) await attempt('wrong', '203.0.113.66');
    expect(await attempt(DEMO_ACCOUNTS.free.password, '198.51.100.77')).toMatchObject({ reason: 'too_many_attempts', minutes: 15 });
    // Attempts during the block do not extend it.
    for (let i = 0; i < 10; i++) await attempt('wrong', '203.0.113.66');
    clock.advance(15 * MINUTE - 1);
    expect(await attempt(DEMO_ACCOUNTS.free.password, '198.51.100.77')).toMatchObject({ reason: 'too_many_attempts', minutes: 1 });
    clock.advance(1);
    expect(await attempt(DEMO_ACCOUNTS.free.password, '198.51.100.77')).toMatchObject({ type: 'ok' });
  });

  it('AUTH-03 a successful login resets the account counter', async () => {
    for (let i = 0; i < 4; i++) await attempt('wrong');
    expect(await attempt(DEMO_ACCOUNTS.free.password)).toMatchObject({ type: 'ok' });
    for (let i = 0; i < 4; i++) expect(await attempt('wrong')).toMatchObject({ reason: 'invalid_credentials' });
    const [row] = await database.db
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.key, accountKey(freeId)));
    expect(row?.failures).toBe(4);
  });

  it('AUTH-03 failures spread over more than 15 minutes do not block', async () => {
    for (let i = 0; i < 4; i++) await attempt('wrong');
    clock.advance(15 * MINUTE);
    expect(await attempt('wrong')).toMatchObject({ reason: 'invalid_credentials' });
    expect(await attempt(DEMO_ACCOUNTS.free.password)).toMatchObject({ type: 'ok' });
  });

  it('AUTH-03 30 failures from one IP block that IP for every account, other IPs still log in', async () => {
    const ip = '192.0.2.30';
    for (let i = 0; i < 29; i++) {
      const r = await attempt('wrong', ip, `nobody-${i}@example.com`);
      expect(r).toMatchObject({ reason: 'invalid_credentials' });
    }
    expect(await attempt('wrong', ip, 'nobody-29@example.com')).toEqual({ type: 'error', reason: 'too_many_attempts', minutes: 15 });
    expect(await attempt(DEMO_ACCOUNTS.free.password, ip)).toMatchObject({ reason: 'too_many_attempts' });
    expect(await attempt(DEMO_ACCOUNTS.free.password, '192.0.2.31')).toMatchObject({ type: 'ok' });
    clock.advance(IP_RULE.blockMs);
    expect(await attempt(DEMO_ACCOUNTS.free.password, ip)).toMatchObject({ type: 'ok' });
  });

  it('AUTH-03 an address without an account is throttled the same way (no account enumeration)', async () => {
    for (let i = 0; i < 4; i++) await attempt('wrong', null, 'Ghost@Example.com');
    expect(await attempt('wrong', null, 'ghost@example.com')).toMatchObject({ reason: 'too_many_attempts', minutes: 15 });
    expect(await activeBlock(deps(), [unknownEmailKey(siteId, 'GHOST@example.com')])).not.toBeNull();
  });

  it('AUTH-03 the account block is per site: the same address on the other site is not blocked', async () => {
    for (let i = 0; i < 5; i++) await attempt('wrong');
    const otherSite = (await database.db.select({ siteId: users.siteId }).from(users).where(eq(users.email, DEMO_ACCOUNTS.free.email))).find((u) => u.siteId !== siteId);
    expect(otherSite).toBeDefined();
    const r = await login(deps(), { email: DEMO_ACCOUNTS.free.email, password: DEMO_ACCOUNTS.free.password, siteId: otherSite!.siteId, ip: '198.51.100.9' });
    expect(r.type).toBe('ok');
  });

  it('SEC-19 a burst of 20 wrong passwords at once checks five: each attempt takes its try before the password is checked', async () => {
    const ips = Array.from({ length: 20 }, (_, i) => `198.51.100.${100 + i}`);
    const results = await Promise.all(ips.map((ip) => attempt('wrong', ip)));
    // Four were checked and wrong, the fifth was checked and started the block; fifteen were refused unchecked.
    expect(results.filter((r) => r.type === 'error' && r.reason === 'invalid_credentials')).toHaveLength(4);
    expect(results.filter((r) => r.type === 'error' && r.reason === 'too_many_attempts')).toHaveLength(16);
    const [row] = await database.db
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.key, accountKey(freeId)));
    expect(row?.failures).toBe(5);
    // Only the five checked attempts counted on their addresses.
    const counted = await database.db
      .select()
      .from(loginThrottle)
      .where(inArray(loginThrottle.key, ips.map(ipKey)));
    expect(counted.map((r) => r.failures)).toEqual([1, 1, 1, 1, 1]);
    expect(await attempt(DEMO_ACCOUNTS.free.password, '198.51.100.99')).toMatchObject({ reason: 'too_many_attempts', minutes: 15 });
  });

  it("SEC-19 a right password does not count on its address, even when its try reached the address's limit", async () => {
    const ip = '192.0.2.40';
    for (let i = 0; i < IP_RULE.limit - 1; i++) await attempt('wrong', ip, `nobody-${i}@example.com`);
    expect(await attempt(DEMO_ACCOUNTS.free.password, ip)).toMatchObject({ type: 'ok' });
    const [row] = await database.db
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.key, ipKey(ip)));
    expect([row?.failures, row?.blockedUntil]).toEqual([IP_RULE.limit - 1, null]);
    expect(await attempt('wrong', ip, 'nobody-last@example.com')).toEqual({ type: 'error', reason: 'too_many_attempts', minutes: 15 });
  });

  it('AUTH-03 without an IP only the account is counted', async () => {
    for (let i = 0; i < 5; i++) await attempt('wrong', null);
    expect(await activeBlock(deps(), [accountKey(freeId)])).not.toBeNull();
    expect(
      await database.db
        .select()
        .from(loginThrottle)
        .where(eq(loginThrottle.key, ipKey('198.51.100.1'))),
    ).toHaveLength(0);
  });
});

describe('deleted accounts', () => {
  it('DEL-01 a deleted account within 14 days with the right password answers account_deletion_pending; afterwards invalid_credentials', async () => {
    const [row] = await database.db
      .select()
      .from(users)
      .where(and(eq(users.email, DEMO_ACCOUNTS.premium.email), eq(users.siteId, siteId)));
    await database.db.update(users).set({ status: 'deleted', deletedAt: clock.now() }).where(eq(users.id, row!.id));
    try {
      const premium = (password: string) => login(deps(), { email: DEMO_ACCOUNTS.premium.email, password, siteId, ip: '198.51.100.5' });
      const sessionsBefore = (await database.db.select().from(sessions).where(eq(sessions.userId, row!.id))).length;
      expect(await premium(DEMO_ACCOUNTS.premium.password)).toEqual({ type: 'error', reason: 'account_deletion_pending' });
      expect(await premium('wrong-password')).toEqual({ type: 'error', reason: 'invalid_credentials' });
      clock.advance(DELETE_GRACE_MS - 1);
      expect(await premium(DEMO_ACCOUNTS.premium.password)).toMatchObject({ reason: 'account_deletion_pending' });
      clock.advance(1);
      expect(await premium(DEMO_ACCOUNTS.premium.password)).toEqual({ type: 'error', reason: 'invalid_credentials' });
      expect((await database.db.select().from(sessions).where(eq(sessions.userId, row!.id))).length).toBe(sessionsBefore);
    } finally {
      await database.db.update(users).set({ status: 'active', deletedAt: null }).where(eq(users.id, row!.id));
    }
  });
});
