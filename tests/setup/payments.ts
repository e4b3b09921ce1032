/**
 * The payments world of service tests: the demo's default site with its cheapest package, the simulated
 * provider as the provider's side (its webhooks kept, not sent, so a test delivers them when and as often
 * as it likes), fresh members, starts, and the provider's answers.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { creditPackages, simulatedCheckouts, sites, users, type PaymentStatus } from '../../src/db/schema';
import { providersOf, type PaymentProviders } from '../../src/server/payments/registry';
import { startPayment, type PaymentDeps } from '../../src/server/payments/service';
import { SimulatedProvider, SIMULATED_SIGNATURE_HEADER } from '../../src/server/payments/simulated';
import { withSeededDatabase, type FakeClock } from './kit';

export interface PaymentsWorld {
  db: Db;
  clock: FakeClock;
  sim: SimulatedProvider;
  deps: PaymentDeps;
  siteId: number;
  packageId: number;
  package: typeof creditPackages.$inferSelect;
}

export type TestMember = { id: number; paid_user: boolean; signup_date: string };

/** Payments on `db`: the simulated provider with webhooks kept (not sent), so the test delivers them. */
export async function paymentsWorld(db: Db, clock: FakeClock): Promise<PaymentsWorld> {
  const sim = await SimulatedProvider.create({ db, fetch: (async () => new Response(null, { status: 204 })) as typeof fetch });
  const providers: PaymentProviders = providersOf([sim]);
  const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.isDefault, true)).limit(1);
  const [pkg] = await db
    .select()
    .from(creditPackages)
    .where(and(eq(creditPackages.siteId, site!.id), eq(creditPackages.active, true)))
    .orderBy(creditPackages.priceCents)
    .limit(1);
  return { db, clock, sim, deps: { db, clock, providers }, siteId: site!.id, packageId: pkg!.id, package: pkg! };
}

let serial = 0;

/** A new member of the world's site, signed up `signupAgoMs` ago (10 days: no time bonus, no welcome code). */
export async function newMember(w: PaymentsWorld, signupAgoMs = 10 * 24 * 3600_000): Promise<TestMember> {
  serial++;
  const signup = new Date(w.clock.now().getTime() - signupAgoMs);
  const [row] = await w.db
    .insert(users)
    .values({ siteId: w.siteId, email: `pay-${serial}-${Math.random().toString(36).slice(2)}@example.com`, language: 'nl', status: 'active', signupDate: signup })
    .returning({ id: users.id });
  return { id: row!.id, paid_user: false, signup_date: signup.toISOString() };
}

/** Starts a payment of the world's package by iDEAL (ING) for `member`, with a fresh key unless given. */
export function start(w: PaymentsWorld, member: TestMember, extra: Partial<Parameters<typeof startPayment>[1]> = {}) {
  return startPayment(w.deps, {
    siteId: w.siteId,
    siteName: 'Test',
    member,
    country: 'NL',
    packageId: w.packageId,
    method: 'ideal',
    issuer: 'INGBNL2A',
    idempotencyKey: `key-${Math.random().toString(36).slice(2)}`,
    origin: 'http://localhost:4321',
    ...extra,
  });
}

/** The webhook the simulated provider would send for `id`, signed (or with the given signature). */
export function webhook(w: PaymentsWorld, id: string, signature?: string) {
  const body = JSON.stringify({ id });
  const headers = new Headers({ 'content-type': 'application/json', [SIMULATED_SIGNATURE_HEADER]: signature ?? w.sim.sign(body) });
  return { headers, body, url: new URL('http://localhost/api/payment-webhook.php?provider=simulated') };
}

/** The payer's choice at the provider (the simulated checkout's page), its webhook kept. */
export async function choose(w: PaymentsWorld, id: string, status: PaymentStatus): Promise<void> {
  await w.sim.choose(id, status);
}

/**
 * The provider's side changes its mind, as a real one can (a bank's late confirmation): the checkout's
 * status is set whatever it was. Our side only learns it from the next webhook or status fetch.
 */
export async function providerSays(w: PaymentsWorld, id: string, status: PaymentStatus): Promise<void> {
  await w.db.update(simulatedCheckouts).set({ status }).where(eq(simulatedCheckouts.id, id));
}

/** `work` on the payments world of a fresh seeded database of `kind` (PostgreSQL with a pool of 20): see `withSeededDatabase`. */
export function withPaymentsDatabase<T>(kind: 'pglite' | 'postgres', clock: FakeClock, work: (w: PaymentsWorld) => Promise<T>): Promise<T> {
  return withSeededDatabase(kind, { clock }, async (kit) => work(await paymentsWorld(kit.db, clock)));
}
