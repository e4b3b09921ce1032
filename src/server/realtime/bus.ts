/**
 * The event bus (ARCHITECTURE: real time): how one part of the app tells the others, in this process
 * and in every other process serving the same database, that something changed. Payloads carry ids
 * only (a site id, a conversation id, a member id), never content: a receiver reads what it needs from
 * the database, so a missed or repeated event can never show stale or foreign data.
 *
 * Two implementations: `InProcessBus` (PGlite: one process owns the database) and the PostgreSQL
 * LISTEN/NOTIFY bus (`DATABASE_URL`: many processes, one listening connection each).
 */

/** Every event the bus carries, by topic; each payload holds ids only. */
export interface BusEvents {
  /** A site's settings, company info or hosts changed: caches of that site must be dropped. */
  'site.changed': { siteId: number };
  /** Content shown to visitors of a site changed (landers, teasers, token pages): cached pages of that site must go. */
  'site.content_changed': { siteId: number };
}

export type BusTopic = keyof BusEvents;
export type BusHandler<T extends BusTopic> = (payload: BusEvents[T]) => void | Promise<void>;

export interface EventBus {
  /** Sends an event to every subscriber of its topic, in this process and the others. */
  publish<T extends BusTopic>(topic: T, payload: BusEvents[T]): Promise<void>;
  /** Calls `handler` for every event of `topic` (including this process's own); returns the unsubscribe. */
  subscribe<T extends BusTopic>(topic: T, handler: BusHandler<T>): () => void;
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

  async close(): Promise<void> {
    this.subscribers.clear();
  }
}
