/**
 * CHT-08 and CHT-05 when a server process dies (issue 10, "Speed and faults"): the built server on
 * PostgreSQL gets a burst of sends (client ids, all at once) and is killed with SIGKILL in the middle of
 * it — no draining, transactions cut wherever they were. Restarted on the same database:
 *
 * - every send that got a success answer is stored, exactly once; no client id is stored twice;
 * - every credit-ledger charge of the sender belongs to exactly one message and every charged message
 *   has exactly one charge, of its price; the balance is the ledger's sum (send.ts books message and
 *   charge in one transaction);
 * - retrying every send of the burst (same client ids) on the restarted process doubles nothing: each
 *   lands once, an earlier success answers its first message again.
 *
 * Deterministic: the kill happens when the burst's 25th success answer arrives (the sender's sends are
 * decided one after another under its row lock, so most of the burst is still waiting then), and every
 * wait is for an event (a line, an exit, an answer), never for time.
 */
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client';
import { creditLedger, messages, users } from '../../src/db/schema';
import { DEMO_ACCOUNTS } from '../../src/demo/seed';
import { grant } from '../../src/server/credits/ledger';
import { messageReference } from '../../src/server/chat/send';
import { call as request, startBuiltServer, stopBuiltServer, type Answer, type BuiltServer } from '../setup/built-server';
import { createTestDatabase, type TestDatabase } from '../setup/databases';

const BURST = 100;
const KILL_AFTER = 25;

/** A JSON request to the API as the member of `session` (none: a visitor). */
const call = (server: BuiltServer, method: string, path: string, body: unknown, session?: string): Promise<Answer> =>
  request(server, method, path, { json: body, ...(session ? { cookies: { session } } : {}) });

describe('chat sends when the server process is killed mid-burst (PostgreSQL)', () => {
  let database: TestDatabase;
  let db: Database;
  let server: BuiltServer;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    server = await startBuiltServer(database.url);
    db = await openDatabase(database.url, { migrate: false, poolSize: 2 });
  }, 120_000);

  afterAll(async () => {
    await stopBuiltServer(server);
    await db?.close();
    await database?.drop();
  });

  it('CHT-08 CHT-05 a SIGKILL in the middle of a burst of sends loses no answered message, doubles none, and every charge matches one message; retries after the restart double nothing', async () => {
    const login = await call(server, 'POST', '/api/user.php', { email: DEMO_ACCOUNTS.premium.email, password: DEMO_ACCOUNTS.premium.password });
    const to = await call(server, 'POST', '/api/user.php', { email: DEMO_ACCOUNTS.free.email, password: DEMO_ACCOUNTS.free.password });
    expect(login.status).toBe(200);
    expect(to.status).toBe(200);
    const senderId: number = login.json.id;
    const recipientId: number = to.json.id;
    // Enough credits for the whole burst twice over, through the ledger like a purchase.
    await grant(db.db, { memberId: senderId, amount: 10 * BURST, reason: 'test', reference: `test:faults:${senderId}` });
    const [before] = await db.db.select({ credits: users.credits }).from(users).where(eq(users.id, senderId));

    // The burst: all sends at once, each on its own connection; the 25th success answer kills the process.
    const ids = Array.from({ length: BURST }, (_, i) => `fault-burst-${String(i).padStart(3, '0')}`);
    const bodyOf = (i: number) => `bericht ${i}`;
    let successes = 0;
    const answers = await Promise.all(
      ids.map((clientId, i) =>
        call(server, 'POST', '/api/chat.php', { to: recipientId, client_id: clientId, body: bodyOf(i) }, login.cookies.session).then(
          (answer) => {
            if (answer.status === 201 || answer.status === 200) {
              successes++;
              if (successes === KILL_AFTER) server.child.kill('SIGKILL');
            }
            return answer;
          },
          (err: Error) => ({ status: 0, json: { error: err.message } }) as Answer,
        ),
      ),
    );
    expect(await server.exited).toBe('SIGKILL');
    const succeeded = answers.flatMap((a, i) => (a.status === 201 || a.status === 200 ? [{ clientId: ids[i]!, id: a.json.message.id as number, i }] : []));
    const failed = answers.flatMap((a, i) => (a.status === 201 || a.status === 200 ? [] : [{ clientId: ids[i]!, i, status: a.status }]));
    expect(succeeded.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(failed.length).toBeGreaterThan(0);
    // A send that did not get through failed with the broken connection, not with a refusal.
    expect(failed.every((f) => f.status === 0)).toBe(true);

    server = await startBuiltServer(database.url);

    // What the database holds after the crash.
    const check = async () => {
      const stored = await db.db
        .select({ id: messages.id, clientId: messages.clientId, body: messages.body, credits: messages.credits })
        .from(messages)
        .where(and(eq(messages.senderId, senderId), like(messages.clientId, 'fault-burst-%')));
      const charges = await db.db
        .select({ reference: creditLedger.reference, delta: creditLedger.delta })
        .from(creditLedger)
        .where(and(eq(creditLedger.userId, senderId), like(creditLedger.reference, `message:${senderId}:%`)));
      const [user] = await db.db.select({ credits: users.credits }).from(users).where(eq(users.id, senderId));
      const [sum] = await db.db
        .select({ total: sql<number>`coalesce(sum(${creditLedger.delta}), 0)`.mapWith(Number) })
        .from(creditLedger)
        .where(eq(creditLedger.userId, senderId));
      // No client id twice; every charge is one message's and every charged message has one charge of its price.
      expect(new Set(stored.map((m) => m.clientId)).size).toBe(stored.length);
      expect(new Set(charges.map((c) => c.reference)).size).toBe(charges.length);
      const chargeOf = new Map(charges.map((c) => [c.reference, c.delta]));
      for (const m of stored) expect(chargeOf.get(messageReference(senderId, m.clientId))).toBe(-m.credits);
      const referenced = new Set(stored.map((m) => messageReference(senderId, m.clientId)));
      for (const c of charges) expect(referenced.has(c.reference)).toBe(true);
      expect(stored.every((m) => m.credits > 0)).toBe(true);
      // The balance is the ledger's sum, and what the burst's stored messages cost.
      expect(user!.credits).toBe(sum!.total);
      expect(user!.credits).toBe(before!.credits - stored.reduce((s, m) => s + m.credits, 0));
      return stored;
    };

    const afterCrash = await check();
    const byClientId = new Map(afterCrash.map((m) => [m.clientId, m]));
    // Every answered send is there, once, as answered.
    for (const s of succeeded) {
      expect(byClientId.get(s.clientId)?.id).toBe(s.id);
      expect(byClientId.get(s.clientId)?.body).toBe(bodyOf(s.i));
    }
    // Some of the unanswered sends may have committed before the kill, the rest left nothing behind.
    expect(afterCrash.length).toBeGreaterThanOrEqual(succeeded.length);
    expect(afterCrash.length).toBeLessThan(BURST);

    // The client retries what failed, with the same client ids, on the restarted process (at once, too).
    const retries = await Promise.all(failed.map((f) => call(server, 'POST', '/api/chat.php', { to: recipientId, client_id: f.clientId, body: bodyOf(f.i) }, login.cookies.session)));
    for (const [k, r] of retries.entries()) {
      const committedBefore = byClientId.get(failed[k]!.clientId);
      // One that had committed before the kill answers its first message again (200), the others are sent now (201).
      expect(r.status).toBe(committedBefore ? 200 : 201);
      if (committedBefore) expect(r.json.message.id).toBe(committedBefore.id);
    }
    // A retry of an answered send answers the same message again.
    const again = await call(server, 'POST', '/api/chat.php', { to: recipientId, client_id: succeeded[0]!.clientId, body: bodyOf(succeeded[0]!.i) }, login.cookies.session);
    expect(again.status).toBe(200);
    expect(again.json.message.id).toBe(succeeded[0]!.id);

    const afterRetry = await check();
    expect(afterRetry).toHaveLength(BURST);
    expect(new Set(afterRetry.map((m) => m.clientId))).toEqual(new Set(ids));
  }, 120_000);
});
