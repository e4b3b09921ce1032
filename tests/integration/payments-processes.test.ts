/**
 * SEC-16 the way members create it: parallel checkouts of one offer through two server processes (the
 * built entry, as `npm start` runs it) on one PostgreSQL database, over HTTP. Ten starts of a one-use
 * code, ten of the time bonus and ten direct debits against the limit, split between the processes:
 * one discounted checkout per offer, the others refused before payment; paying every checkout that
 * started uses each offer once; the direct debits stay within the limit.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditPackages, directDebitMandates, discountCodes, payments, profiles, users } from '../../src/db/schema';
import { systemClock } from '../../src/server/clock';
import { seededDatabase, type SeededDatabase } from '../setup/kit';
import { call, startBuiltServer, stopBuiltServer, type BuiltServer } from '../setup/built-server';
import { createTestDatabase, type TestDatabase } from '../setup/databases';

describe('SEC-16 parallel checkouts through two server processes on PostgreSQL', () => {
  let database: TestDatabase;
  let kit: SeededDatabase;
  const db = () => kit.db;
  let dataDir: string;
  const servers: BuiltServer[] = [];
  let session = '';
  let memberId = 0;
  let pkg: typeof creditPackages.$inferSelect;
  /** Room for three and a half of the cheapest package by direct debit (its price and 19 cents of costs). */
  let limitCents = 0;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    // The schema and the demo first, so the limit can be computed from the package before the processes start.
    dataDir = await mkdtemp(join(tmpdir(), 'pay-processes-'));
    kit = await seededDatabase({ url: database.url, clock: systemClock, profilesPerSite: 2 });
    const db = kit.db;
    [pkg] = (await db
      .select()
      .from(creditPackages)
      .where(and(eq(creditPackages.siteId, 1), eq(creditPackages.active, true)))
      .orderBy(creditPackages.priceCents)
      .limit(1)) as [typeof creditPackages.$inferSelect];
    limitCents = Math.floor(3.5 * (pkg.priceCents + 19));
    const env = { DATA_DIR: dataDir, PAYMENTS_PROVIDER: 'simulated', DEMO_MODE: 'true', DIRECT_DEBIT_LIMIT_CENTS: String(limitCents), SETTINGS_TTL_MS: '0', RENDER_CACHE_TTL_MS: '0' };
    servers.push(...(await Promise.all([startBuiltServer(database.url, env), startBuiltServer(database.url, env)])));
    const login = await call(servers[0]!, 'POST', '/api/user.php', { json: { email: 'free@demo.test', password: 'demo-password-1' } });
    session = login.cookies.session!;
    memberId = (login.json as { id: number }).id;
    await db.update(profiles).set({ country: 'NL' }).where(eq(profiles.userId, memberId));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => stopBuiltServer(server)));
    await kit?.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** A form post as the member through process `n % 2`. */
  const post = (n: number, path: string, fields: Record<string, string>) => call(servers[n % 2]!, 'POST', path, { form: fields, cookies: { session } });

  /** Ten confirm-form posts at once, alternating between the processes; the statuses and the checkouts that started. */
  async function tenStarts(method: string, fields: Record<string, string>, tag: string) {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, n) => post(n, `/credits/${pkg.id}/${method}`, { key: `${tag}-${n}-${Date.now()}`, ...fields })));
    const statuses = answers.map((a) => a.status);
    const checkouts = answers.map((a) => a.location).filter((l): l is string => Boolean(l && l.includes('/checkout/simulated/')));
    console.info(`SEC-16 two processes, ${tag}: statuses ${JSON.stringify(statuses.reduce<Record<number, number>>((m, s) => ((m[s] = (m[s] ?? 0) + 1), m), {}))}`);
    return { statuses, checkouts };
  }

  /** The payer picks "paid" on each checkout (the simulator's real webhook then reaches the process that made it). */
  async function payAll(checkouts: string[]) {
    for (const [n, checkout] of checkouts.entries()) {
      const res = await post(n, new URL(checkout).pathname, { choice: 'paid' });
      expect(res.status).toBe(303);
    }
  }

  it('SEC-16 ten checkouts of a one-use code at once: one starts, nine are refused before payment; paying everything uses the code once', async () => {
    await db()
      .update(users)
      .set({ signupDate: new Date(Date.now() - 30 * 24 * 3600_000), paidUser: false })
      .where(eq(users.id, memberId));
    await db().insert(discountCodes).values({ code: 'TWOPROC50', percent: 50, siteId: 1 });
    const { statuses, checkouts } = await tenStarts('ideal', { issuer: 'INGBNL2A', code: 'TWOPROC50' }, 'code');
    expect(statuses.filter((s) => s === 303)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    await payAll(checkouts);
    const paid = await db()
      .select()
      .from(payments)
      .where(and(eq(payments.userId, memberId), eq(payments.discountCode, 'TWOPROC50'), eq(payments.status, 'paid')));
    expect(paid).toHaveLength(1);
    expect(paid[0]!.discountCents).toBe(Math.round(pkg.priceCents / 2));
  }, 60_000);

  it('SEC-16 ten checkouts with the time bonus at once: one discounted first purchase', async () => {
    await db()
      .update(users)
      .set({ signupDate: new Date(Date.now() - 3600_000), paidUser: false })
      .where(eq(users.id, memberId));
    const { statuses, checkouts } = await tenStarts('ideal', { issuer: 'INGBNL2A' }, 'timebonus');
    expect(statuses.filter((s) => s === 303)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    await payAll(checkouts);
    const paid = await db()
      .select()
      .from(payments)
      .where(and(eq(payments.userId, memberId), inArray(payments.discountCode, ['TIMEBONUS25', 'WELCOME25']), eq(payments.status, 'paid')));
    expect(paid).toHaveLength(1);
  }, 60_000);

  it('SEC-16 ten direct debits at once stay within the limit', async () => {
    await db()
      .update(users)
      .set({ signupDate: new Date(Date.now() - 30 * 24 * 3600_000), paidUser: true })
      .where(eq(users.id, memberId));
    await db()
      .insert(directDebitMandates)
      .values({
        siteId: 1,
        userId: memberId,
        reference: `SEC16-${memberId}`,
        accountHolder: 'Sanne de Vries',
        iban: 'NL91ABNA0417164300',
        street: 'Dam',
        houseNumber: '1',
        zip: '1012JS',
        city: 'Amsterdam',
        mobile: '+31612345678',
        status: 'active',
        confirmedAt: new Date(),
      });
    const { statuses } = await tenStarts('directdebit', {}, 'directdebit');
    const [usage] = await db()
      .select({ cents: sql<number>`coalesce(sum(${payments.amountCents}), 0)::int`, n: sql<number>`count(*)::int` })
      .from(payments)
      .where(and(eq(payments.userId, memberId), eq(payments.method, 'directdebit')));
    console.info(`SEC-16 two processes: ${usage!.n} direct debits worth ${usage!.cents} cents against a limit of ${limitCents}`);
    expect(usage!.cents).toBeLessThanOrEqual(limitCents);
    expect(usage!.n).toBe(3);
    expect(statuses.filter((s) => s === 403)).toHaveLength(7);
  }, 60_000);
});
