/**
 * SEC-15: two members writing to each other at the same moment never fail, and neither do a member and
 * the operator answering them as a fictional profile, on PostgreSQL across server processes.
 *
 * Two built server processes (dist/server/main.mjs) on one fresh PostgreSQL database. Member A is logged
 * in on process one, member B on process two; with no conversation between them yet, each sends 60
 * messages to the other, 4 in flight, both directions at once (so both may start the conversation at the
 * same moment). Then a member on process one writes 60 messages to a fictional profile while the
 * operator, logged in on process two, takes the conversation and answers 60 times, 4 in flight, through
 * the console's form (take, answer; a form answered `not_locked` because another of the operator's
 * answers just let the conversation go is taken and posted again with the same client id).
 *
 * What must hold: no answer ≥ 500 (every other status is printed); every acknowledged message is stored
 * exactly once under its client id; for every member the ledger's sum is the balance and every charge is
 * one stored message's price (and the reverse). The send latencies (p50/p99) are printed.
 *
 * PostgreSQL only (PGlite has one connection: its transactions never overlap); when PostgreSQL does not
 * answer at TEST_POSTGRES_URL the suite fails and says so.
 */
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client';
import { conversations, creditLedger, messages, users } from '../../src/db/schema';
import { DEMO_ACCOUNTS } from '../../src/demo/seed';
import { messageReference } from '../../src/server/chat/send';
import { grant } from '../../src/server/credits/ledger';
import { totpCode } from '../../src/server/staff/accounts';
import { DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET } from '../../src/demo/staff';
import { percentile } from '../../src/server/staff/operator';
import { call, startBuiltServer, stopBuiltServer, type Answer, type BuiltServer } from '../setup/built-server';
import { createTestDatabase, postgresAvailable, TEST_POSTGRES_URL, type TestDatabase } from '../setup/databases';
import { inFlight } from '../setup/kit';

const SENDS = 60;
const IN_FLIGHT = 4;

interface Sent {
  clientId: string;
  status: number;
  ms: number;
  /** The stored message's id when the answer acknowledged it. */
  messageId?: number;
}

/** `send(0)` … `send(count - 1)`, `width` in flight; each with how long it took (status 0: the connection broke). */
function timedInFlight(count: number, width: number, send: (i: number) => Promise<Omit<Sent, 'ms'>>): Promise<Sent[]> {
  return inFlight(count, width, async (i) => {
    const started = performance.now();
    const result = await send(i).catch((err: Error) => ({ clientId: `#${i} ${err.message}`, status: 0 }));
    return { ...result, ms: performance.now() - started };
  });
}

/** Prints sends, statuses and latencies; answers the statuses that are not the expected one. */
function report(label: string, sent: Sent[], ok: number): string[] {
  const statuses = new Map<number, number>();
  for (const s of sent) statuses.set(s.status, (statuses.get(s.status) ?? 0) + 1);
  const ms = sent.map((s) => s.ms).sort((a, b) => a - b);
  console.log(
    `SEC-15 ${label}: ${sent.length} sends, statuses ${[...statuses].map(([s, n]) => `${s}×${n}`).join(' ')}, ` +
      `p50 ${percentile(ms, 0.5)!.toFixed(1)} ms, p99 ${percentile(ms, 0.99)!.toFixed(1)} ms, max ${ms[ms.length - 1]!.toFixed(1)} ms`,
  );
  return sent.filter((s) => s.status !== ok).map((s) => `${s.clientId}: ${s.status}`);
}

describe('SEC-15 chat in both directions at once across two server processes (PostgreSQL)', () => {
  let database: TestDatabase;
  let db: Database;
  let one: BuiltServer;
  let two: BuiltServer;

  beforeAll(async () => {
    if (!(await postgresAvailable())) throw new Error(`SEC-15 needs PostgreSQL at ${TEST_POSTGRES_URL} (TEST_POSTGRES_URL): it did not answer`);
    database = await createTestDatabase('postgres');
    // Both start on the empty database at once (migrations and the seed take turns); 8 profiles per site
    // make one of them fictional.
    [one, two] = await Promise.all([startBuiltServer(database.url, { SEED_PROFILES_PER_SITE: '8' }), startBuiltServer(database.url, { SEED_PROFILES_PER_SITE: '8' })]);
    db = await openDatabase(database.url, { migrate: false, poolSize: 2 });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stopBuiltServer(one), stopBuiltServer(two)]);
    await db?.close();
    await database?.drop();
  });

  async function loginMember(server: BuiltServer, email: string, password: string): Promise<{ id: number; session: string }> {
    const answer = await call(server, 'POST', '/api/user.php', { json: { email, password } });
    expect(answer.status).toBe(200);
    // Credits for every send twice over, through the ledger like a purchase.
    await grant(db.db, { memberId: answer.json.id, amount: 10_000, reason: 'test', reference: `test:sec-15:${answer.json.id}` });
    return { id: answer.json.id, session: answer.cookies.session! };
  }

  const memberSend = (server: BuiltServer, from: { session: string }, to: number, clientId: string, body: string) =>
    call(server, 'POST', '/api/chat.php', { json: { to, client_id: clientId, body }, cookies: { session: from.session } }).then((a: Answer) => ({
      clientId,
      status: a.status,
      messageId: a.json?.message?.id as number | undefined,
    }));

  /** Each acknowledged message is stored once, as acknowledged; nothing else of these client ids is stored. */
  async function storedOnce(senderId: number, sent: Sent[], prefix: string) {
    const stored = await db.db
      .select({ id: messages.id, clientId: messages.clientId })
      .from(messages)
      .where(and(eq(messages.senderId, senderId), like(messages.clientId, `${prefix}%`)));
    expect(new Set(stored.map((m) => m.clientId)).size).toBe(stored.length);
    const byClientId = new Map(stored.map((m) => [m.clientId, m.id]));
    for (const s of sent.filter((x) => x.messageId !== undefined)) expect(byClientId.get(s.clientId), s.clientId).toBe(s.messageId);
    return stored;
  }

  /** The member's balance is the ledger's sum; every message charge is one stored message's price, and the reverse. */
  async function ledgerHolds(memberId: number) {
    const [user] = await db.db.select({ credits: users.credits }).from(users).where(eq(users.id, memberId));
    const [sum] = await db.db
      .select({ total: sql<number>`coalesce(sum(${creditLedger.delta}), 0)`.mapWith(Number) })
      .from(creditLedger)
      .where(eq(creditLedger.userId, memberId));
    expect(user!.credits).toBe(sum!.total);
    const charges = await db.db
      .select({ reference: creditLedger.reference, delta: creditLedger.delta })
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, memberId), like(creditLedger.reference, `message:${memberId}:%`)));
    const sentBy = await db.db.select({ clientId: messages.clientId, credits: messages.credits }).from(messages).where(eq(messages.senderId, memberId));
    const priceOf = new Map(sentBy.filter((m) => m.credits > 0).map((m) => [messageReference(memberId, m.clientId), m.credits]));
    expect(new Map(charges.map((c) => [c.reference, -c.delta]))).toEqual(priceOf);
  }

  it('SEC-15 two members who never wrote before each send 60 messages to the other, 4 in flight, through different processes: no 5xx, each stored once, charges match', async () => {
    const a = await loginMember(one, DEMO_ACCOUNTS.premium.email, DEMO_ACCOUNTS.premium.password);
    const b = await loginMember(two, DEMO_ACCOUNTS.free.email, DEMO_ACCOUNTS.free.password);
    expect(
      await db.db
        .select({ id: conversations.id })
        .from(conversations)
        .where(and(eq(conversations.memberLow, Math.min(a.id, b.id)), eq(conversations.memberHigh, Math.max(a.id, b.id)))),
    ).toEqual([]);

    const [fromA, fromB] = await Promise.all([
      timedInFlight(SENDS, IN_FLIGHT, (i) => memberSend(one, a, b.id, `sec15-a-${String(i).padStart(3, '0')}`, `van A ${i}`)),
      timedInFlight(SENDS, IN_FLIGHT, (i) => memberSend(two, b, a.id, `sec15-b-${String(i).padStart(3, '0')}`, `van B ${i}`)),
    ]);
    const unexpected = [...report('member A → B (process one)', fromA, 201), ...report('member B → A (process two)', fromB, 201), ...report('two-way, both directions', [...fromA, ...fromB], 201)];
    expect([...fromA, ...fromB].filter((s) => s.status >= 500)).toEqual([]);
    expect(unexpected).toEqual([]);

    expect(await storedOnce(a.id, fromA, 'sec15-a-')).toHaveLength(SENDS);
    expect(await storedOnce(b.id, fromB, 'sec15-b-')).toHaveLength(SENDS);
    await ledgerHolds(a.id);
    await ledgerHolds(b.id);
    // One conversation, with every message of both.
    const pair = await db.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.memberLow, Math.min(a.id, b.id)), eq(conversations.memberHigh, Math.max(a.id, b.id))));
    expect(pair).toHaveLength(1);
    const inPair = await db.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(messages)
      .where(eq(messages.conversationId, pair[0]!.id));
    expect(inPair[0]!.n).toBe(2 * SENDS);
  }, 180_000);

  it('SEC-15 a member writes 60 messages to a fictional profile while the operator on the other process answers 60 times, 4 in flight each: no 5xx, each stored once, charges match', async () => {
    const member = await loginMember(one, DEMO_ACCOUNTS.premium.email, DEMO_ACCOUNTS.premium.password);
    const [fictional] = await db.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'fictional'), eq(users.siteId, 1), eq(users.status, 'active')))
      .limit(1);
    expect(fictional).toBeDefined();
    const staffLogin = await call(two, 'POST', '/admin/login', { form: { email: 'operator@demo.test', password: DEMO_STAFF_PASSWORD, code: totpCode(DEMO_TOTP_SECRET, new Date()) } });
    expect(staffLogin.status).toBe(303);
    const operator = { staff_session: staffLogin.cookies.staff_session! };

    // The member's first message opens the conversation the operator answers in.
    let opened!: (id: number) => void;
    const conversation = new Promise<number>((resolve) => (opened = resolve));
    const memberSide = timedInFlight(SENDS, IN_FLIGHT, async (i) => {
      const sent = await memberSend(one, member, fictional!.id, `sec15-m-${String(i).padStart(3, '0')}`, `aan het profiel ${i}`);
      if (sent.status === 201) {
        const [row] = await db.db.select({ id: messages.conversationId }).from(messages).where(eq(messages.id, sent.messageId!));
        opened(row!.id);
      }
      return sent;
    });
    // (Should none of them get through, the operator's posts find no conversation and say so.)
    void memberSide.then(() => opened(0));
    const id = await conversation;
    /** Every form post of the operator, for the statuses. */
    const posts: Sent[] = [];
    const post = async (form: Record<string, string>) => {
      const started = performance.now();
      const answer = await call(two, 'POST', `/admin/operator/${id}`, { form, cookies: operator });
      posts.push({ clientId: `${form.action} ${form.client_id ?? ''}`, status: answer.status, ms: performance.now() - started });
      return answer;
    };
    const operatorSide = timedInFlight(SENDS, IN_FLIGHT, async (i) => {
      const clientId = `sec15-o-${String(i).padStart(3, '0')}`;
      for (let attempt = 1; ; attempt++) {
        const take = await post({ action: 'take' });
        if (take.status !== 303) return { clientId, status: take.status };
        const reply = await post({ action: 'reply', text: `antwoord ${i}`, client_id: clientId });
        // Another of the operator's answers let the conversation go between the take and this one: again.
        if (reply.status === 409 && attempt < 20) continue;
        return { clientId, status: reply.status };
      }
    });
    const [fromMember, fromOperator] = await Promise.all([memberSide, operatorSide]);
    const unexpected = [
      ...report('member → fictional profile (process one)', fromMember, 201),
      ...report('operator answers as the profile (process two, take + answer)', fromOperator, 303),
      ...report('operator form posts', posts, 303),
    ];
    expect([...fromMember, ...fromOperator, ...posts].filter((s) => s.status >= 500)).toEqual([]);
    expect(unexpected.filter((u) => !/: 409$/.test(u) || !u.startsWith('reply'))).toEqual([]);
    expect(fromOperator.every((s) => s.status === 303)).toBe(true);

    expect(await storedOnce(member.id, fromMember, 'sec15-m-')).toHaveLength(SENDS);
    const answers = await db.db
      .select({ clientId: messages.clientId, credits: messages.credits })
      .from(messages)
      .where(
        and(
          eq(messages.senderId, fictional!.id),
          inArray(
            messages.clientId,
            fromOperator.map((s) => s.clientId),
          ),
        ),
      );
    expect(answers.map((m) => m.clientId).sort()).toEqual(fromOperator.map((s) => s.clientId).sort());
    expect(answers.every((m) => m.credits === 0)).toBe(true);
    await ledgerHolds(member.id);
  }, 180_000);
});
