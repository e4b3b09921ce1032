/**
 * The credit ledger (CRD-09) against real databases: a property test over any sequence of grants and
 * spends with repeated references, and concurrent spends on PostgreSQL (a pool of 20 connections) and
 * on PGlite.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../tests/setup/kit';
import { createTestDatabase, everyDatabaseKind, type TestDatabase } from '../../../tests/setup/databases';
import { openDatabase, type Database, type Db } from '../../db/client';
import { creditLedger, sites, users } from '../../db/schema';
import { seedDemo } from '../../demo/seed';
import { LocalPhotoStore } from '../photos/store';
import { balance, entryFor, grant, LedgerReferenceConflictError, MemberNotFoundError, spend, type LedgerEntry } from './ledger';

interface Fixture {
  database: Database;
  db: Db;
  siteId: number;
  close(): Promise<void>;
}

/** A fresh migrated database with the demo sites (no generated members) on `kind`. */
async function fixture(kind: 'pglite' | 'postgres', poolSize?: number): Promise<Fixture> {
  const test: TestDatabase = await createTestDatabase(kind);
  const database = await openDatabase(test.url, poolSize === undefined ? {} : { poolSize });
  const dir = await mkdtemp(join(tmpdir(), 'ledger-'));
  await seedDemo({ db: database.db, photos: new LocalPhotoStore(dir), clock: new FakeClock(), profilesPerSite: 0 });
  const [site] = await database.db.select({ id: sites.id }).from(sites).limit(1);
  return {
    database,
    db: database.db,
    siteId: site!.id,
    close: async () => {
      await database.close();
      await test.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

let serial = 0;
/** A new member with no credits (the insert sets nothing but the default 0). */
async function newMember(f: Fixture): Promise<number> {
  serial++;
  const [row] = await f.db
    .insert(users)
    .values({ siteId: f.siteId, email: `ledger-${serial}-${Math.random().toString(36).slice(2)}@example.com`, language: 'nl', status: 'active' })
    .returning({ id: users.id });
  return row!.id;
}

async function ledgerRows(db: Db, memberId: number) {
  return db.select().from(creditLedger).where(eq(creditLedger.userId, memberId)).orderBy(creditLedger.id);
}

describe('credit ledger on PGlite', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture('pglite');
  });
  afterAll(() => f?.close());

  it('CRD-09 any sequence of grants and spends with repeated references: balance = ledger sum, never negative, each reference once', async () => {
    // Each reference names one movement; the sequence replays references in any order, any number of times.
    const movement = fc.record({ op: fc.constantFrom('grant' as const, 'spend' as const), member: fc.nat({ max: 2 }), amount: fc.integer({ min: 1, max: 60 }) });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(movement, { minLength: 1, maxLength: 8 }), fc.array(fc.nat({ max: 7 }), { minLength: 1, maxLength: 30 }), async (movements, sequence) => {
        run++;
        const members = [await newMember(f), await newMember(f), await newMember(f)];
        const model = [0, 0, 0];
        const first = new Map<number, LedgerEntry>();
        for (const pick of sequence) {
          const index = pick % movements.length;
          const m = movements[index]!;
          const input = { memberId: members[m.member]!, amount: m.amount, reason: m.op === 'grant' ? 'purchase' : 'message', reference: `prop:${run}:${index}` };
          const result = m.op === 'grant' ? await grant(f.db, input) : await spend(f.db, input);
          const earlier = first.get(index);
          if (earlier) {
            // Applied before: the same answer again, nothing moves.
            expect(result).toEqual({ ok: true, entry: earlier, replayed: true });
          } else if (m.op === 'spend' && model[m.member]! < m.amount) {
            expect(result).toEqual({ ok: false, reason: 'insufficient_credits', balance: model[m.member] });
          } else {
            model[m.member] = model[m.member]! + (m.op === 'grant' ? m.amount : -m.amount);
            expect(result).toMatchObject({ ok: true, replayed: false, entry: { balanceAfter: model[m.member] } });
            if (result.ok) first.set(index, result.entry);
          }
        }
        for (const [i, memberId] of members.entries()) {
          const rows = await ledgerRows(f.db, memberId);
          const sum = rows.reduce((total, r) => total + r.delta, 0);
          expect(await balance(f.db, memberId)).toBe(sum);
          expect(sum).toBe(model[i]);
          // Never negative at any point: every row's running balance, replayed in order.
          let running = 0;
          for (const r of rows) {
            running += r.delta;
            expect(r.balanceAfter).toBe(running);
            expect(running).toBeGreaterThanOrEqual(0);
          }
        }
        const refs = (
          await f.db
            .select({ reference: creditLedger.reference })
            .from(creditLedger)
            .where(sql`${creditLedger.reference} like ${`prop:${run}:%`}`)
        ).map((r) => r.reference);
        expect(refs.length).toBe(new Set(refs).size);
        expect(refs.length).toBe(first.size);
      }),
      { numRuns: 60 },
    );
  });

  it('CRD-09 amounts are positive integers and a reference cannot be reused for another movement', async () => {
    const memberId = await newMember(f);
    for (const amount of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
      await expect(grant(f.db, { memberId, amount, reason: 'purchase', reference: `bad:${amount}` })).rejects.toThrow(RangeError);
      await expect(spend(f.db, { memberId, amount, reason: 'message', reference: `bad:${amount}` })).rejects.toThrow(RangeError);
    }
    await expect(grant(f.db, { memberId, amount: 5, reason: 'purchase', reference: '' })).rejects.toThrow(RangeError);
    await grant(f.db, { memberId, amount: 10, reason: 'purchase', reference: `payment:${memberId}` });
    await expect(grant(f.db, { memberId, amount: 11, reason: 'purchase', reference: `payment:${memberId}` })).rejects.toThrow(LedgerReferenceConflictError);
    await expect(spend(f.db, { memberId, amount: 10, reason: 'purchase', reference: `payment:${memberId}` })).rejects.toThrow(LedgerReferenceConflictError);
    await expect(grant(f.db, { memberId: 99_999_999, amount: 1, reason: 'purchase', reference: 'nobody' })).rejects.toThrow(MemberNotFoundError);
    await expect(spend(f.db, { memberId: 99_999_999, amount: 1, reason: 'message', reference: 'nobody' })).rejects.toThrow(MemberNotFoundError);
    expect(await balance(f.db, memberId)).toBe(10);
    expect(await ledgerRows(f.db, memberId)).toHaveLength(1);
  });

  it('CRD-09 a spend inside the caller’s transaction moves with it: rolled back together, kept together', async () => {
    const memberId = await newMember(f);
    await grant(f.db, { memberId, amount: 3, reason: 'purchase', reference: `tx-grant:${memberId}` });
    await expect(
      f.db.transaction(async (tx) => {
        expect(await spend(tx, { memberId, amount: 2, reason: 'message', reference: `tx-a:${memberId}` })).toMatchObject({ ok: true });
        throw new Error('the message insert failed');
      }),
    ).rejects.toThrow('the message insert failed');
    expect(await balance(f.db, memberId)).toBe(3);
    expect(await entryFor(f.db, `tx-a:${memberId}`)).toBeNull();

    await f.db.transaction(async (tx) => {
      const first = await spend(tx, { memberId, amount: 2, reason: 'message', reference: `tx-b:${memberId}` });
      // A retry inside the same transaction is answered from the ledger; a refused spend leaves the transaction usable.
      expect(await spend(tx, { memberId, amount: 2, reason: 'message', reference: `tx-b:${memberId}` })).toEqual({ ...first, replayed: true });
      expect(await spend(tx, { memberId, amount: 5, reason: 'message', reference: `tx-c:${memberId}` })).toEqual({ ok: false, reason: 'insufficient_credits', balance: 1 });
      await tx.update(users).set({ language: 'de' }).where(eq(users.id, memberId));
    });
    expect(await balance(f.db, memberId)).toBe(1);
    expect((await ledgerRows(f.db, memberId)).map((r) => r.delta)).toEqual([3, -2]);
  });
});

describe.each(await everyDatabaseKind())('credit ledger concurrency on %s', (kind) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture(kind, 20);
  });
  afterAll(() => f?.close());

  it('CRD-09 1,000 concurrent spends of 1 credit against 100 leave exactly 100 ledger rows and balance 0, never negative', async () => {
    const memberId = await newMember(f);
    await grant(f.db, { memberId, amount: 100, reason: 'purchase', reference: `payment:conc-${memberId}` });
    const results = await Promise.all(Array.from({ length: 1000 }, (_, i) => spend(f.db, { memberId, amount: 1, reason: 'message', reference: `message:${memberId}-${i}` })));
    expect(results.filter((r) => r.ok)).toHaveLength(100);
    expect(results.filter((r) => !r.ok)).toHaveLength(900);
    expect(await balance(f.db, memberId)).toBe(0);
    const spends = (await ledgerRows(f.db, memberId)).filter((r) => r.delta < 0);
    expect(spends).toHaveLength(100);
    // Each spend saw its own balance: 99, 98, … 0, every one at least 0.
    expect(spends.map((r) => r.balanceAfter).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('CRD-09 the same references retried concurrently are applied once each and answer the same entry', async () => {
    const memberId = await newMember(f);
    await grant(f.db, { memberId, amount: 100, reason: 'purchase', reference: `payment:retry-${memberId}` });
    // 50 spends, each sent 4 times at once (a client retrying, two webhooks racing).
    const calls = Array.from({ length: 200 }, (_, i) => i % 50);
    const results = await Promise.all(calls.map((k) => spend(f.db, { memberId, amount: 1, reason: 'message', reference: `message:retry-${memberId}-${k}` })));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.filter((r) => r.ok && !r.replayed)).toHaveLength(50);
    for (let k = 0; k < 50; k++) {
      const ids = new Set(results.filter((_, i) => calls[i] === k).map((r) => (r.ok ? r.entry.id : -1)));
      expect(ids.size).toBe(1);
    }
    expect(await balance(f.db, memberId)).toBe(50);
    expect((await ledgerRows(f.db, memberId)).filter((r) => r.delta < 0)).toHaveLength(50);
    // Grants race the same way: a payment webhook delivered twice at once credits once.
    const twice = await Promise.all([1, 2, 3].map(() => grant(f.db, { memberId, amount: 30, reason: 'purchase', reference: `payment:dup-${memberId}` })));
    expect(twice.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await balance(f.db, memberId)).toBe(80);
  });
});

describe('credit ledger is the only writer', () => {
  it('CRD-09 no code outside ledger.ts inserts ledger rows or sets users.credits', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.(ts|tsx|astro)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && !path.endsWith(join('credits', 'ledger.ts'))) {
          const text = readFileSync(path, 'utf8');
          if (/insert\(\s*creditLedger\s*\)|update\(\s*creditLedger\s*\)|\.set\(\{[^}]*\bcredits\s*:|update\s+users\s+set\s+credits/i.test(text)) offenders.push(path);
        }
      }
    };
    for (const root of ['src', 'scripts', 'server']) walk(root);
    expect(offenders).toEqual([]);
  });
});
