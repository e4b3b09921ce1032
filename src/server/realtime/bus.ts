/**
 * The event bus (ARCHITECTURE: real time): how one part of the app tells the others, in this process
 * and in every other process serving the same database, that something changed. Payloads carry ids
 * only (a site id, a conversation id, a member id), never content: a receiver reads what it needs from
 * the database, so a missed or repeated event can never show stale or foreign data.
 *
 * Two implementations: `InProcessBus` (PGlite: one process owns the database) and `PostgresBus`
 * (`DATABASE_URL`: many processes, one LISTEN connection each; docs/decisions/016-settings-cache-and-invalidation.md).
 */
import { randomUUID } from 'node:crypto';
import postgres, { type Sql } from 'postgres';

/** Every event the bus carries, by topic; each payload holds ids only. */
export interface BusEvents {
  /** A site's settings, company info or hosts changed: caches of that site must be dropped. */
  'site.changed': { siteId: number };
  /** Content shown to visitors of a site changed (landers, teasers, token pages): cached pages of that site must go. */
  'site.content_changed': { siteId: number };
  /** A member liked another (LIK-01); a like given twice is published once. */
  'member.liked': { likeId: number; likerId: number; likedId: number; siteId: number };
  /** A member took a like back. */
  'member.unliked': { likerId: number; likedId: number; siteId: number };
  /** A like made two members like each other: a match; `by` made the like that completed it (UX-01). */
  'member.matched': { memberIds: [number, number]; by: number; siteId: number };
  /** A member blocked another (BLK-01): both vanish from each other's lists. */
  'member.blocked': { blockerId: number; blockedId: number };
  'member.unblocked': { blockerId: number; blockedId: number };
  /** A message was stored (CHT-08): streams of both members read it by id. */
  'chat.message': { messageId: number; conversationId: number; senderId: number; recipientId: number; siteId: number };
  /** A member read a conversation through `messageId` (CHT-03, CHT-10): counters and 'seen' follow. */
  'chat.read': { conversationId: number; readerId: number; otherId: number; messageId: number };
  /** A member is typing in a conversation (CHT-10); not stored, lost when missed. */
  'chat.typing': { conversationId: number; typistId: number; otherId: number };
  /** A member removed conversations from their list (CHT-06). */
  'chat.removed': { userId: number; conversationIds: number[] };
}

export type BusTopic = keyof BusEvents;
export type BusHandler<T extends BusTopic> = (payload: BusEvents[T]) => void | Promise<void>;

export interface EventBus {
  /** Sends an event to every subscriber of its topic, in this process and the others. */
  publish<T extends BusTopic>(topic: T, payload: BusEvents[T]): Promise<void>;
  /** Calls `handler` for every event of `topic` (including this process's own); returns the unsubscribe. */
  subscribe<T extends BusTopic>(topic: T, handler: BusHandler<T>): () => void;
  /**
   * Calls `handler` when events may have been missed (the listening connection was lost and is back):
   * whoever caches must then drop everything. Never called by the in-process bus.
   */
  onResync(handler: () => void): () => void;
  close(): Promise<void>;
}

type AnyHandler = (payload: unknown) => void | Promise<void>;

/**
 * Delivery to this process's subscribers, shared by both implementations: each handler runs on its own,
 * and a handler that throws is logged by `onError` without stopping the others.
 */
export class LocalSubscribers {
  private readonly handlers = new Map<string, Set<AnyHandler>>();

  constructor(private readonly onError: (err: unknown, topic: string) => void) {}

  add(topic: string, handler: AnyHandler): () => void {
    let set = this.handlers.get(topic);
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  async deliver(topic: string, payload: unknown): Promise<void> {
    const set = this.handlers.get(topic);
    if (!set) return;
    await Promise.all(
      [...set].map(async (handler) => {
        try {
          await handler(payload);
        } catch (err) {
          this.onError(err, topic);
        }
      }),
    );
  }

  clear(): void {
    this.handlers.clear();
  }
}

/** The bus of a single process (PGlite): an event reaches this process's subscribers, and only them. */
export class InProcessBus implements EventBus {
  private readonly subscribers: LocalSubscribers;

  constructor(onError: (err: unknown, topic: string) => void = () => {}) {
    this.subscribers = new LocalSubscribers(onError);
  }

  async publish<T extends BusTopic>(topic: T, payload: BusEvents[T]): Promise<void> {
    await this.subscribers.deliver(topic, payload);
  }

  subscribe<T extends BusTopic>(topic: T, handler: BusHandler<T>): () => void {
    return this.subscribers.add(topic, handler as AnyHandler);
  }

  onResync(): () => void {
    return () => {};
  }

  async close(): Promise<void> {
    this.subscribers.clear();
  }
}

/** The one PostgreSQL channel every event travels on (the topic is in the payload). */
export const BUS_CHANNEL = 'app_events';
/** NOTIFY payloads must stay under 8000 bytes; ours are ids, far below this. */
const MAX_PAYLOAD_BYTES = 7900;

interface Wire {
  /** Topic. */
  t: string;
  /** Payload (ids only). */
  p: unknown;
  /** The bus (process) that published it: its own echo is skipped, it delivered locally already. */
  o: string;
}

/**
 * The bus of many processes on one PostgreSQL (LISTEN/NOTIFY). Each process keeps ONE listening
 * connection (postgres.js `sql.listen` holds a dedicated connection outside the pool and listens again
 * after a reconnect). `publish` delivers to this process's subscribers at once and sends `pg_notify`
 * through the pool; every other process receives it on its listening connection. The publisher's own
 * echo comes back too and is skipped by its origin id: each event reaches each subscriber exactly once.
 *
 * Publish after the change is committed (outside the transaction that made it): a receiver reads the
 * database when the event arrives and must find the new state.
 */
/** The application name of a listening connection of its own (DATABASE_LISTEN_URL), as pg_stat_activity shows it. */
export const LISTENER_NAME = 'dating-bus-listener';

export class PostgresBus implements EventBus {
  private readonly subscribers: LocalSubscribers;
  private readonly resync = new Set<() => void>();
  /** This bus's id in the events it sends. */
  readonly origin = randomUUID();
  private unlisten: (() => Promise<void>) | null = null;
  private listens = 0;
  private closed = false;
  /** The client of the listening connection when it is not the pool's (`listenUrl`); the bus ends it. */
  private ownListener: Sql | null = null;

  private constructor(
    private readonly sql: Sql,
    private readonly onError: (err: unknown, topic: string) => void,
  ) {
    this.subscribers = new LocalSubscribers(onError);
  }

  /**
   * Opens the listening connection; resolves once LISTEN is in place (events from then on arrive).
   * `listenUrl` (DATABASE_LISTEN_URL) points the listening connection at PostgreSQL itself when the pool
   * goes through a transaction-pooling PgBouncer, which cannot keep a LISTEN: NOTIFY still goes through
   * the pool (it is delivered at commit, which transaction pooling keeps).
   */
  static async start(sql: Sql, onError: (err: unknown, topic: string) => void = () => {}, options: { listenUrl?: string | undefined } = {}): Promise<PostgresBus> {
    const bus = new PostgresBus(sql, onError);
    const listener = options.listenUrl ? postgres(options.listenUrl, { max: 1, onnotice: () => {}, connection: { application_name: LISTENER_NAME } }) : sql;
    if (listener !== sql) bus.ownListener = listener;
    const meta = await listener.listen(
      BUS_CHANNEL,
      (raw) => bus.receive(raw),
      () => bus.listening(),
    );
    bus.unlisten = meta.unlisten;
    return bus;
  }

  async publish<T extends BusTopic>(topic: T, payload: BusEvents[T]): Promise<void> {
    if (this.closed) return;
    const wire = JSON.stringify({ t: topic, p: payload, o: this.origin } satisfies Wire);
    if (Buffer.byteLength(wire) > MAX_PAYLOAD_BYTES) throw new Error(`bus: payload of ${topic} too large (events carry ids only)`);
    await Promise.all([this.subscribers.deliver(topic, payload), this.sql.notify(BUS_CHANNEL, wire)]);
  }

  subscribe<T extends BusTopic>(topic: T, handler: BusHandler<T>): () => void {
    return this.subscribers.add(topic, handler as AnyHandler);
  }

  onResync(handler: () => void): () => void {
    this.resync.add(handler);
    return () => {
      this.resync.delete(handler);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscribers.clear();
    this.resync.clear();
    const unlisten = this.unlisten;
    this.unlisten = null;
    // The listening connection itself ends with the pool (sql.end), which closes after the bus; one of
    // the bus's own (listenUrl) ends here.
    if (unlisten) await unlisten().catch((err: unknown) => this.onError(err, 'bus.close'));
    const own = this.ownListener;
    this.ownListener = null;
    if (own) await own.end({ timeout: 5 }).catch((err: unknown) => this.onError(err, 'bus.close'));
  }

  /** Called by postgres.js each time LISTEN is in place: at start, and again after a reconnect. */
  private listening(): void {
    this.listens++;
    if (this.listens === 1 || this.closed) return;
    // Between losing the connection and listening again, events may have gone by unseen.
    for (const handler of this.resync) {
      try {
        handler();
      } catch (err) {
        this.onError(err, 'bus.resync');
      }
    }
  }

  private receive(raw: string): void {
    if (this.closed) return;
    let wire: Wire;
    try {
      wire = JSON.parse(raw) as Wire;
    } catch (err) {
      this.onError(err, 'bus.parse');
      return;
    }
    if (typeof wire?.t !== 'string' || wire.o === this.origin) return;
    void this.subscribers.deliver(wire.t, wire.p);
  }
}
