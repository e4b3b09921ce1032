/**
 * The chat service (issue 10): sending with its charge in one transaction, idempotent client ids, the free
 * member's two conversations, unconfirmed and blocked members, reading, removing, and the concurrency
 * that must never double-spend. Concurrency runs on PostgreSQL as well as PGlite.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, everyDatabaseKind, type TestDatabase } from '../../../tests/setup/databases';
import { FakeClock, inFlight } from '../../../tests/setup/kit';
import { openDatabase, type Database, type Db } from '../../db/client';
import { blocks, conversationMembers, conversations, creditLedger, creditPackages, messages, profiles, sites, users } from '../../db/schema';
import { seedDemo } from '../../demo/seed';
import { balance, grant } from '../credits/ledger';
import { LocalPhotoStore } from '../photos/store';
import { InProcessBus, type BusEvents } from '../realtime/bus';
import { conversationFor, conversationWith, HISTORY_PAGE, history, listChats, markRead, needsRead, removeChats, unreadTotal } from './conversations';
import { FIRST_PAGE, loadChatScreen } from './chat-screen';
import { cachedPackages } from '../credits/packages';
import { TtlCache } from '../cache';
import { conversationLimitReached, sendMessage, type ChatDeps, type ChatPrices, type SendInput, type SendResult } from './send';

const PRICES: ChatPrices = { message_credits: 1, photo_credits: 3, gift_credits: 5, message_length: 200 };

interface Fixture {
  database: Database;
  db: Db;
  siteId: number;
  deps: ChatDeps;
  events: Array<{ topic: string; payload: unknown }>;
  notified: Array<{ memberId: number; type: string }>;
  close(): Promise<void>;
}

async function fixture(kind: 'pglite' | 'postgres'): Promise<Fixture> {
  const test: TestDatabase = await createTestDatabase(kind);
  const database = await openDatabase(test.url, kind === 'postgres' ? { poolSize: 20 } : {});
  const dir = await mkdtemp(join(tmpdir(), 'chat-'));
  const clock = new FakeClock();
  await seedDemo({ db: database.db, photos: new LocalPhotoStore(dir), clock, profilesPerSite: 0 });
  const [site] = await database.db.select({ id: sites.id }).from(sites).limit(1);
  const bus = new InProcessBus();
  const events: Fixture['events'] = [];
  for (const topic of ['chat.message', 'chat.read', 'chat.removed'] as const) bus.subscribe(topic, (payload: BusEvents[typeof topic]) => void events.push({ topic, payload }));
  const notified: Fixture['notified'] = [];
  return {
    database,
    db: database.db,
    siteId: site!.id,
    deps: { db: database.db, bus, clock, notify: async (memberId, event) => void notified.push({ memberId, type: event.type }) },
    events,
    notified,
    close: async () => {
      await database.close();
      await test.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

let serial = 0;
async function member(
  f: Fixture,
  options: { credits?: number; paid?: boolean; status?: 'active' | 'not_confirmed'; invisible?: boolean } = {},
): Promise<{ id: number; sender: { siteId: number; userId: number; paidUser: boolean } }> {
  serial++;
  const [row] = await f.db
    .insert(users)
    .values({
      siteId: f.siteId,
      email: `chat-${serial}-${Math.random().toString(36).slice(2)}@example.com`,
      language: 'nl',
      status: options.status ?? 'active',
      paidUser: options.paid ?? false,
      invisible: options.invisible ?? false,
    })
    .returning({ id: users.id });
  const id = row!.id;
  await f.db.insert(profiles).values({ userId: id, siteId: f.siteId, name: `Lid ${serial}`, gender: 'female', sexuality: 'hetero', birthDate: '1990-01-01', country: 'NL' });
  if (options.credits) await grant(f.db, { memberId: id, amount: options.credits, reason: 'test', reference: `test:${id}` });
  return { id, sender: { siteId: f.siteId, userId: id, paidUser: options.paid ?? false } };
}

const text = (to: number, body: string, clientId: string = crypto.randomUUID()): SendInput => ({ to, clientId, kind: 'text', body });

describe('chat on PGlite', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture('pglite');
  });
  afterAll(() => f?.close());

  it('CHT-05 GFT-01 a message, a photo and a gift cost their credits, each with its ledger row in the same transaction', async () => {
    const a = await member(f, { credits: 20 });
    const b = await member(f);
    const sent = await sendMessage(f.deps, a.sender, PRICES, text(b.id, 'Hoi!'));
    expect(sent).toMatchObject({ type: 'sent', replayed: false, started: true, balance: 19 });
    const gift = await sendMessage(f.deps, a.sender, PRICES, { to: b.id, clientId: crypto.randomUUID(), kind: 'gift', body: '', attachment: 'rose' });
    expect(gift).toMatchObject({ type: 'sent', balance: 14 });
    expect(await balance(f.db, a.id)).toBe(14);
    const rows = await f.db.select().from(creditLedger).where(eq(creditLedger.userId, a.id));
    expect(rows.map((r) => r.delta).sort()).toEqual([-1, -5, 20].sort());
    const stored = await f.db.select().from(messages).where(eq(messages.senderId, a.id));
    expect(stored.map((m) => m.credits).sort()).toEqual([1, 5]);
    expect(f.events.filter((e) => e.topic === 'chat.message' && (e.payload as { senderId: number }).senderId === a.id)).toHaveLength(2);
    expect(f.notified.filter((n) => n.memberId === b.id).map((n) => n.type)).toEqual(['new_conversation', 'new_message']);
  });

  it('CHT-05 with too few credits nothing is written: no message, no conversation, no ledger row', async () => {
    const a = await member(f);
    const b = await member(f);
    const refused = await sendMessage(f.deps, a.sender, PRICES, text(b.id, 'Hallo'));
    expect(refused).toEqual({ type: 'refused', reason: 'insufficient_credits', balance: 0, cost: 1 });
    expect(await f.db.select().from(messages).where(eq(messages.senderId, a.id))).toEqual([]);
    expect(await conversationWith(f.db, { siteId: f.siteId, userId: a.id }, b.id)).toBeNull();
    // The same client id works once credits arrive: the refused send used nothing up.
    const clientId = crypto.randomUUID();
    expect((await sendMessage(f.deps, a.sender, PRICES, text(b.id, 'Hallo', clientId))).type).toBe('refused');
    await grant(f.db, { memberId: a.id, amount: 2, reason: 'test', reference: `test:late:${a.id}` });
    expect(await sendMessage(f.deps, a.sender, PRICES, text(b.id, 'Hallo', clientId))).toMatchObject({ type: 'sent', balance: 1 });
  });

  it('CHT-11 a retried send with the same client id is stored and charged once and answers the same message', async () => {
    const a = await member(f, { credits: 10 });
    const b = await member(f);
    const input = text(b.id, 'Zin in koffie?');
    const first = await sendMessage(f.deps, a.sender, PRICES, input);
    const again = await sendMessage(f.deps, a.sender, PRICES, input);
    expect(first.type === 'sent' && again.type === 'sent' && again.replayed && again.message.id === first.message.id).toBe(true);
    expect(await balance(f.db, a.id)).toBe(9);
    // The same id for another text is the client's mistake: refused, nothing written.
    expect(await sendMessage(f.deps, a.sender, PRICES, { ...input, body: 'Iets anders' })).toEqual({ type: 'refused', reason: 'client_id_reused' });
    expect(await f.db.select().from(messages).where(eq(messages.senderId, a.id))).toHaveLength(1);
  });

  it('CHT-05 oversize, empty, control characters and bad client ids are refused before anything is read or written', async () => {
    const a = await member(f, { credits: 10 });
    const b = await member(f);
    expect(await sendMessage(f.deps, a.sender, PRICES, text(b.id, 'x'.repeat(201)))).toEqual({ type: 'refused', reason: 'message_too_long' });
    expect(await sendMessage(f.deps, a.sender, PRICES, text(b.id, '😀'.repeat(200)))).toMatchObject({ type: 'sent' });
    expect(await sendMessage(f.deps, a.sender, PRICES, text(b.id, '   \n '))).toEqual({ type: 'refused', reason: 'message_empty' });
    expect(await sendMessage(f.deps, a.sender, PRICES, text(b.id, 'a\u0000b'))).toEqual({ type: 'refused', reason: 'invalid_message' });
    expect(await sendMessage(f.deps, a.sender, PRICES, text(b.id, 'hoi', 'short'))).toEqual({ type: 'refused', reason: 'invalid_client_id' });
    expect(await sendMessage(f.deps, a.sender, PRICES, text(a.id, 'hoi'))).toEqual({ type: 'refused', reason: 'self_not_allowed' });
    expect(await sendMessage(f.deps, a.sender, PRICES, text(999_999, 'hoi'))).toEqual({ type: 'refused', reason: 'member_not_found' });
    expect(await balance(f.db, a.id)).toBe(9);
  });

  it('CHT-04 a free member starts at most 2 conversations; replying in one is not starting; premium starts more', async () => {
    const free = await member(f, { credits: 20 });
    const [x, y, z] = [await member(f, { credits: 5 }), await member(f), await member(f)];
    expect((await sendMessage(f.deps, free.sender, PRICES, text(x.id, '1'))).type).toBe('sent');
    expect(await conversationLimitReached(f.db, free.sender, y.id)).toBe(false);
    expect((await sendMessage(f.deps, free.sender, PRICES, text(y.id, '2'))).type).toBe('sent');
    // The chat screen knows before a send (the notice above a disabled composer): z is out of reach, x and y are not.
    expect(await conversationLimitReached(f.db, free.sender, z.id)).toBe(true);
    expect(await conversationLimitReached(f.db, free.sender, x.id)).toBe(false);
    expect(await sendMessage(f.deps, free.sender, PRICES, text(z.id, '3'))).toEqual({ type: 'refused', reason: 'conversation_limit' });
    expect((await sendMessage(f.deps, free.sender, PRICES, text(x.id, 'nog een'))).type).toBe('sent');
    // Someone else starting a conversation with the free member does not count against them.
    expect((await sendMessage(f.deps, x.sender, PRICES, text(free.id, 'terug'))).type).toBe('sent');
    const premium = await member(f, { credits: 20, paid: true });
    expect(await conversationLimitReached(f.db, premium.sender, z.id)).toBe(false);
    for (const other of [x, y, z]) expect((await sendMessage(f.deps, premium.sender, PRICES, text(other.id, 'hoi'))).type).toBe('sent');
  });

  it('CHT-09 BLK-01 an unconfirmed member cannot be replied to; blocked either way is not found; an invisible member cannot be found to start with', async () => {
    const a = await member(f, { credits: 20, paid: true });
    const unconfirmed = await member(f, { status: 'not_confirmed', credits: 5 });
    // The unconfirmed member may write; the answer waits until they confirm.
    expect((await sendMessage(f.deps, unconfirmed.sender, PRICES, text(a.id, 'hoi'))).type).toBe('sent');
    expect(await sendMessage(f.deps, a.sender, PRICES, text(unconfirmed.id, 'hoi terug'))).toEqual({ type: 'refused', reason: 'recipient_unconfirmed' });
    await f.db.update(users).set({ status: 'active' }).where(eq(users.id, unconfirmed.id));
    expect((await sendMessage(f.deps, a.sender, PRICES, text(unconfirmed.id, 'hoi terug'))).type).toBe('sent');

    const b = await member(f, { credits: 5 });
    expect((await sendMessage(f.deps, a.sender, PRICES, text(b.id, 'hoi'))).type).toBe('sent');
    await f.db.insert(blocks).values({ blockerId: b.id, blockedId: a.id });
    expect(await sendMessage(f.deps, a.sender, PRICES, text(b.id, 'nog?'))).toEqual({ type: 'refused', reason: 'member_not_found' });
    expect(await sendMessage(f.deps, b.sender, PRICES, text(a.id, 'nog?'))).toEqual({ type: 'refused', reason: 'member_not_found' });
    const conversation = (
      await f.db
        .select({ id: messages.conversationId })
        .from(messages)
        .where(and(eq(messages.senderId, a.id), eq(messages.recipientId, b.id)))
    )[0]!.id;
    expect(await conversationFor(f.db, { siteId: f.siteId, userId: a.id }, conversation)).toBeNull();
    expect((await listChats(f.db, { siteId: f.siteId, userId: b.id })).map((c) => c.id)).not.toContain(conversation);

    const invisible = await member(f, { invisible: true });
    expect(await sendMessage(f.deps, a.sender, PRICES, text(invisible.id, 'hoi'))).toEqual({ type: 'refused', reason: 'member_not_found' });
    // An invisible member who writes first can be answered.
    await grant(f.db, { memberId: invisible.id, amount: 1, reason: 'test', reference: `test:inv:${invisible.id}` });
    expect((await sendMessage(f.deps, invisible.sender, PRICES, text(a.id, 'hoi'))).type).toBe('sent');
    expect((await sendMessage(f.deps, a.sender, PRICES, text(invisible.id, 'hoi'))).type).toBe('sent');
  });

  it('CHT-01 CHT-03 CHT-06 the list, unread counts, reading, paging back and removing for the remover only', async () => {
    const a = await member(f, { credits: 100, paid: true });
    const b = await member(f, { credits: 100 });
    const me = { siteId: f.siteId, userId: b.id };
    for (let i = 1; i <= 35; i++) expect((await sendMessage(f.deps, a.sender, PRICES, text(b.id, `bericht ${i}`))).type).toBe('sent');
    const [chat] = await listChats(f.db, me);
    expect(chat).toMatchObject({ unread: 35, partner: { id: a.id }, lastMessage: { body: 'bericht 35', senderId: a.id } });
    expect(await unreadTotal(f.db, me)).toBe(35);

    const view = (await conversationFor(f.db, me, chat!.id))!;
    const newest = await history(f.db, view);
    expect(newest.messages.map((m) => m.body)).toEqual(Array.from({ length: 30 }, (_, i) => `bericht ${i + 6}`));
    expect(newest.more).toBe(true);
    const older = await history(f.db, view, { before: newest.messages[0]!.id });
    expect(older.messages.map((m) => m.body)).toEqual(['bericht 1', 'bericht 2', 'bericht 3', 'bericht 4', 'bericht 5']);
    expect(older.more).toBe(false);

    expect((await markRead(f.deps, me, view)).changed).toBe(true);
    expect(await unreadTotal(f.db, me)).toBe(0);
    expect((await markRead(f.deps, me, view)).changed).toBe(false);
    // A's view shows 'seen' through the last message; with B's signals off it shows nothing.
    const aView = (await conversationFor(f.db, { siteId: f.siteId, userId: a.id }, chat!.id))!;
    expect(aView.seenThrough).toBe(newest.messages.at(-1)!.id);
    await f.db.update(users).set({ chatSignals: false }).where(eq(users.id, b.id));
    expect((await conversationFor(f.db, { siteId: f.siteId, userId: a.id }, chat!.id))!.seenThrough).toBeNull();

    // Removing: gone from B's list, A keeps everything; a new message brings it back with only the new one.
    expect(await removeChats(f.deps, me, { conversationId: chat!.id })).toEqual([chat!.id]);
    expect(await listChats(f.db, me)).toEqual([]);
    expect(await removeChats(f.deps, me, { conversationId: chat!.id })).toEqual([]);
    expect((await history(f.db, aView)).messages).toHaveLength(30);
    expect((await sendMessage(f.deps, a.sender, PRICES, text(b.id, 'ben je er nog?'))).type).toBe('sent');
    const back = (await conversationFor(f.db, me, chat!.id))!;
    expect((await history(f.db, back)).messages.map((m) => m.body)).toEqual(['ben je er nog?']);
    // Removing by profile removes that profile's conversations.
    expect(await removeChats(f.deps, me, { profileId: a.id })).toEqual([chat!.id]);
    // Another member's conversation id is nobody's business.
    const stranger = await member(f);
    expect(await conversationFor(f.db, { siteId: f.siteId, userId: stranger.id }, chat!.id)).toBeNull();
    expect(await removeChats(f.deps, { siteId: f.siteId, userId: stranger.id }, { conversationId: chat!.id })).toEqual([]);
  });
});

describe.each(await databaseKinds())('opening a conversation on %s', (kind) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture(kind);
  });
  afterAll(() => f?.close());

  it('CHT-03 opening reads it once: a conversation already read is opened without a write or a new count, a message newer than the read mark is read', async () => {
    const a = await member(f, { credits: 100, paid: true });
    const b = await member(f, { credits: 100 });
    const me = { siteId: f.siteId, userId: b.id, paidUser: false };
    const deps = { ...f.deps, cache: new TtlCache(new FakeClock()) };
    for (let i = 1; i <= 3; i++) expect((await sendMessage(f.deps, a.sender, PRICES, text(b.id, `bericht ${i}`))).type).toBe('sent');
    const [chat] = await listChats(f.db, me);
    const reads = () => f.events.filter((e) => e.topic === 'chat.read' && (e.payload as { readerId: number }).readerId === b.id).length;

    const first = await loadChatScreen(deps, me, { conversationId: chat!.id });
    expect(first).toMatchObject({ type: 'ok', read: true, view: { unread: 0 } });
    expect(await unreadTotal(f.db, me)).toBe(0);
    expect(reads()).toBe(1);
    const readMark = async () =>
      (
        await f.db
          .select({ through: conversationMembers.lastReadMessageId })
          .from(conversationMembers)
          .where(and(eq(conversationMembers.conversationId, chat!.id), eq(conversationMembers.userId, b.id)))
      )[0]!.through;
    const newest = (await history(f.db, (await conversationFor(f.db, me, chat!.id))!)).messages.at(-1)!.id;
    expect(await readMark()).toBe(newest);

    // Opened again: nothing to read, so no update, no 'read' event, and the page keeps the counts it has.
    const again = await loadChatScreen(deps, me, { conversationId: chat!.id });
    expect(again).toMatchObject({ type: 'ok', read: false });
    expect(reads()).toBe(1);

    // The read mark behind the newest message with no unread count (a message shown but not counted): opening reads through it.
    await f.db
      .update(conversationMembers)
      .set({ lastReadMessageId: newest - 1 })
      .where(and(eq(conversationMembers.conversationId, chat!.id), eq(conversationMembers.userId, b.id)));
    expect(await loadChatScreen(deps, me, { conversationId: chat!.id })).toMatchObject({ type: 'ok', read: true });
    expect(await readMark()).toBe(newest);
    expect(reads()).toBe(2);

    // A new message: unread again, and opening reads it.
    expect((await sendMessage(f.deps, a.sender, PRICES, text(b.id, 'nog een'))).type).toBe('sent');
    expect(await unreadTotal(f.db, me)).toBe(1);
    expect(await loadChatScreen(deps, me, { conversationId: chat!.id })).toMatchObject({ type: 'ok', read: true });
    expect(await unreadTotal(f.db, me)).toBe(0);
  });

  it('CHT-02 the newest page of a long conversation is read from the index in order, not by sorting all of its messages', async () => {
    const a = await member(f, { credits: 10, paid: true });
    const b = await member(f);
    expect((await sendMessage(f.deps, a.sender, PRICES, text(b.id, 'eerste'))).type).toBe('sent');
    const me = { siteId: f.siteId, userId: b.id };
    const [chat] = await listChats(f.db, me);
    await f.db.execute(
      sql`insert into messages (conversation_id, sender_id, recipient_id, body, client_id) select ${chat!.id}, ${a.id}, ${b.id}, 'bericht ' || g, 'bulk-' || ${chat!.id} || '-' || g from generate_series(1, 3000) g`,
    );
    // Newer messages in another conversation: the long one's are no longer the table's newest.
    const c = await member(f, { credits: 10, paid: true });
    expect((await sendMessage(f.deps, c.sender, PRICES, text(a.id, 'later'))).type).toBe('sent');
    const [other] = await listChats(f.db, { siteId: f.siteId, userId: a.id });
    await f.db.execute(
      sql`insert into messages (conversation_id, sender_id, recipient_id, body, client_id) select ${other!.id}, ${c.id}, ${a.id}, 'later ' || g, 'bulk-' || ${other!.id} || '-' || g from generate_series(1, 3000) g`,
    );
    await f.db.execute(sql`analyze messages`);
    const view = (await conversationFor(f.db, me, chat!.id))!;
    // The rows this transaction read from the messages table (PostgreSQL's own counters for it).
    const read = await f.db.transaction(async (tx) => {
      const page = await history(tx as unknown as Db, view);
      expect(page.messages.map((m) => m.body).slice(-2)).toEqual(['bericht 2999', 'bericht 3000']);
      expect(page.more).toBe(true);
      const result = (await tx.execute(sql`select coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) as n from pg_stat_xact_user_tables where relname = 'messages'`)) as unknown;
      const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
      return Number((rows[0] as { n: number | string }).n);
    });
    expect(read).toBeGreaterThan(0);
    // About a page, not the 3,001 messages a sort would read nor the 3,000 newer ones a walk down the table's ids would.
    expect(read).toBeLessThan(HISTORY_PAGE * 3);
    // The screen renders its first page only; older messages load as the member scrolls up.
    const screen = await loadChatScreen({ ...f.deps, cache: new TtlCache(new FakeClock()) }, { ...me, paidUser: false }, { conversationId: chat!.id });
    if (screen.type !== 'ok') throw new Error('the conversation is not found');
    expect(screen.messages).toHaveLength(FIRST_PAGE);
    expect(screen.messages.at(-1)?.body).toBe('bericht 3000');
    expect(screen.more).toBe(true);
  });

  it('CHT-03 needsRead: unread messages, or a message newer than the read mark that the view knew of or the page shows', () => {
    expect(needsRead({ unread: 0, lastReadMessageId: 10, lastMessageId: 10 })).toBe(false);
    expect(needsRead({ unread: 0, lastReadMessageId: 10, lastMessageId: 10 }, 10)).toBe(false);
    expect(needsRead({ unread: 2, lastReadMessageId: 10, lastMessageId: 10 })).toBe(true);
    expect(needsRead({ unread: 0, lastReadMessageId: 9, lastMessageId: 10 })).toBe(true);
    // Arrived between reading the view and reading the page: shown, so read.
    expect(needsRead({ unread: 0, lastReadMessageId: 10, lastMessageId: 10 }, 11)).toBe(true);
  });

  it("CHT-05 the chat offers the site's packages from a per-site cache that a site change drops", async () => {
    const cache = new TtlCache(new FakeClock());
    const deps = { db: f.db, cache };
    const before = await cachedPackages(deps, f.siteId);
    expect(before.length).toBeGreaterThan(0);
    await f.db.update(creditPackages).set({ active: false }).where(eq(creditPackages.id, before[0]!.id));
    expect(await cachedPackages(deps, f.siteId)).toEqual(before);
    cache.deleteSite(f.siteId);
    const after = await cachedPackages(deps, f.siteId);
    expect(after.map((p) => p.id)).toEqual(before.slice(1).map((p) => p.id));
    await f.db.update(creditPackages).set({ active: true }).where(eq(creditPackages.id, before[0]!.id));
  });
});

describe.each(await everyDatabaseKind())('chat concurrency on %s', (kind) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture(kind);
  });
  afterAll(() => f?.close());

  it('CHT-05 CRD-09 20 concurrent sends with credits for 5 leave exactly 5 messages and balance 0', async () => {
    const a = await member(f, { credits: 5, paid: true });
    const b = await member(f);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => sendMessage(f.deps, a.sender, PRICES, text(b.id, `snel ${i}`))));
    expect(results.filter((r) => r.type === 'sent')).toHaveLength(5);
    expect(results.filter((r) => r.type === 'refused' && r.reason === 'insufficient_credits')).toHaveLength(15);
    expect(await balance(f.db, a.id)).toBe(0);
    expect(await f.db.select().from(messages).where(eq(messages.senderId, a.id))).toHaveLength(5);
    const charges = (await f.db.select().from(creditLedger).where(eq(creditLedger.userId, a.id))).filter((r) => r.delta < 0);
    expect(charges).toHaveLength(5);
  });

  it('CHT-11 the same send retried 10 times at once is stored and charged once', async () => {
    const a = await member(f, { credits: 5, paid: true });
    const b = await member(f);
    const input = text(b.id, 'dubbel?');
    const results = await Promise.all(Array.from({ length: 10 }, () => sendMessage(f.deps, a.sender, PRICES, input)));
    expect(results.every((r) => r.type === 'sent')).toBe(true);
    expect(new Set(results.map((r) => (r.type === 'sent' ? r.message.id : 0))).size).toBe(1);
    expect(await balance(f.db, a.id)).toBe(4);
    expect(await f.db.select().from(messages).where(eq(messages.senderId, a.id))).toHaveLength(1);
  });

  it('CHT-04 a free member starting 6 conversations at once still starts only 2', async () => {
    const free = await member(f, { credits: 50 });
    const others = await Promise.all(Array.from({ length: 6 }, () => member(f)));
    const results = await Promise.all(others.map((o) => sendMessage(f.deps, free.sender, PRICES, text(o.id, 'hoi'))));
    expect(results.filter((r) => r.type === 'sent')).toHaveLength(2);
    expect(results.filter((r) => r.type === 'refused' && r.reason === 'conversation_limit')).toHaveLength(4);
  });

  it('SEC-15 two members writing to each other at once (30 messages each, 4 in flight each) never fail: every message sent, charged once, one conversation', async () => {
    const a = await member(f, { credits: 30, paid: true });
    const b = await member(f, { credits: 30 });
    const [fromA, fromB] = await Promise.all([
      inFlight(30, 4, (i) => sendMessage(f.deps, a.sender, PRICES, text(b.id, `van A ${i}`))),
      inFlight(30, 4, (i) => sendMessage(f.deps, b.sender, PRICES, text(a.id, `van B ${i}`))),
    ]);
    expect([...fromA, ...fromB].filter((r) => r.type !== 'sent')).toEqual([]);
    expect([...fromA, ...fromB].filter((r) => r.type === 'sent' && r.started)).toHaveLength(1);
    expect(await balance(f.db, a.id)).toBe(0);
    expect(await balance(f.db, b.id)).toBe(0);
    const chat = await conversationWith(f.db, { siteId: f.siteId, userId: a.id }, b.id);
    expect(await f.db.select({ id: messages.id }).from(messages).where(eq(messages.conversationId, chat!.id))).toHaveLength(60);
    // Both sides' rows point at the conversation's last message.
    const [conversation] = await f.db.select({ last: conversations.lastMessageId }).from(conversations).where(eq(conversations.id, chat!.id));
    const sides = await f.db.select({ last: conversationMembers.lastMessageId }).from(conversationMembers).where(eq(conversationMembers.conversationId, chat!.id));
    expect(sides.map((s) => s.last)).toEqual([conversation!.last, conversation!.last]);
  });

  it('SEC-15 two members sending each other their first message at the same moment: both sent, one conversation, started once', async () => {
    const a = await member(f, { credits: 5, paid: true });
    const b = await member(f, { credits: 5 });
    const both = () => Promise.all([sendMessage(f.deps, a.sender, PRICES, text(b.id, 'Hoi B!')), sendMessage(f.deps, b.sender, PRICES, text(a.id, 'Hoi A!'))]);
    let sends: Promise<SendResult[]>;
    if (kind === 'postgres') {
      // Both sends must find no conversation before either has one: the conversation's insert checks its
      // site's row (a key-share lock), held here until both wait (one at that check, the other behind the
      // first one's new row in the pair's unique index); let go, the first inserts and the other meets it.
      let holding!: Promise<SendResult[]>;
      let waiting: string[] = [];
      await f.db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from ${sites} where ${sites.id} = ${f.siteId} for update`);
        holding = both();
        holding.catch(() => {}); // awaited below, after the lock is let go
        waiting = await lockWaiters(f.db, 2);
      });
      sends = holding;
      // Both got as far as starting the conversation (neither waited for the other before reading it).
      expect(waiting.map((q) => q.slice(0, 27))).toEqual(['insert into "conversations"', 'insert into "conversations"']);
    } else {
      // PGlite has one connection: the two transactions take turns, the second finds the first's conversation.
      sends = both();
    }
    const results = await sends;
    expect(results.map((r) => r.type)).toEqual(['sent', 'sent']);
    expect(results.filter((r) => r.type === 'sent' && r.started)).toHaveLength(1);
    const pair = await f.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.memberLow, Math.min(a.id, b.id)), eq(conversations.memberHigh, Math.max(a.id, b.id))));
    expect(pair).toHaveLength(1);
    expect(results.map((r) => (r.type === 'sent' ? r.message.conversationId : 0))).toEqual([pair[0]!.id, pair[0]!.id]);
    expect(await f.db.select({ userId: conversationMembers.userId }).from(conversationMembers).where(eq(conversationMembers.conversationId, pair[0]!.id))).toHaveLength(2);
    expect([await balance(f.db, a.id), await balance(f.db, b.id)]).toEqual([4, 4]);
  });
});

/**
 * Resolves with the statements of this database's sessions once `count` of them wait for a lock (PostgreSQL).
 * pg_stat_activity copies each session's statement text once per read but reads its wait live, so a
 * session that has just moved on from its last statement to a lock wait can show the last one's text.
 * The statements are therefore taken from the read after the one that first saw the waits: by then the
 * waiting sessions have reported the statements they wait in, and they wait until the test lets go.
 */
async function lockWaiters(db: Db, count: number): Promise<string[]> {
  const waiting = async () => (await db.execute(sql`select query from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)) as unknown as Array<{ query: string }>;
  let seen = false;
  for (;;) {
    const rows = await waiting();
    if (rows.length >= count) {
      if (seen) return rows.map((r) => r.query).sort();
      seen = true;
    }
  }
}
