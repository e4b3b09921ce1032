/**
 * A member's live stream (CHT-08, CHT-10): Server-Sent Events at /api/events.php carrying messages,
 * reads ('seen'), typing, removals, likes, matches and the counters.
 *
 * - Events come from the bus (ids only) and every message is read from the database before it is sent,
 *   so what a stream shows is what is stored, in this process or any other.
 * - Every event has an `id:`: the newest message id this stream has delivered (its position). After a
 *   reconnect the browser sends it back as Last-Event-ID and the stream first sends, from the database,
 *   the member's messages after it, plus those of the last RESYNC_OVERLAP_MS before it (a message that
 *   committed after a newer one could otherwise fall between); the client keeps each message once by id.
 * - A heartbeat comment keeps proxies from closing an idle stream; the stream ends when the client goes
 *   away or the process drains (then with a retry hint).
 */
import { and, eq, gt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { blocks, conversationMembers, messages, users } from '../../db/schema';
import type { EventBus } from '../realtime/bus';
import type { Clock } from '../clock';
import type { StreamHub } from '../realtime/streams';
import type { Logger } from '../logger';
import { countMember } from './counts';
import { listenForMember, type MemberEvent } from '../realtime/member-router';
import type { ChatMember } from '../chat/conversations';
import type { ChatMessage } from '../chat/send';

export const HEARTBEAT_MS = 25_000;
export const RESYNC_OVERLAP_MS = 30_000;
/** How many messages a resync sends at most; a client further behind reloads its screens instead. */
export const RESYNC_LIMIT = 500;
/** The reconnection delay the stream asks for (ms). */
export const RETRY_MS = 2_000;

/**
 * A message as the API and the live stream carry it, for `viewerId`: `safety_notice` (SAFE-02) is true
 * only for the recipient of a flagged message; the sender is never told their message was flagged.
 */
export function messageJson(m: ChatMessage, viewerId: number) {
  return {
    id: m.id,
    conversation: m.conversationId,
    sender: m.senderId,
    recipient: m.recipientId,
    kind: m.kind,
    body: m.body,
    attachment: m.attachment,
    client_id: m.clientId,
    credits: m.credits,
    safety_notice: m.safetyFlagged && m.recipientId === viewerId,
    created_at: m.createdAt.toISOString(),
  };
}

/** The member's messages that `which` selects, in conversations they see (not removed by them, no block), oldest first. */
async function messagesFor(db: Db, member: ChatMember, which: SQL, limit: number): Promise<ChatMessage[]> {
  const rows = await db
    .select({ message: messages })
    .from(messages)
    .innerJoin(conversationMembers, and(eq(conversationMembers.conversationId, messages.conversationId), eq(conversationMembers.userId, member.userId)))
    .where(
      and(
        or(eq(messages.senderId, member.userId), eq(messages.recipientId, member.userId)),
        which,
        gt(messages.id, conversationMembers.clearedThrough),
        sql`not exists (select 1 from ${blocks} where (${blocks.blockerId} = ${conversationMembers.userId} and ${blocks.blockedId} = ${conversationMembers.otherId}) or (${blocks.blockerId} = ${conversationMembers.otherId} and ${blocks.blockedId} = ${conversationMembers.userId}))`,
      ),
    )
    .orderBy(messages.id)
    .limit(limit);
  return rows.map((r) => r.message as ChatMessage);
}

/** One message if the member may see it (theirs, not removed by them, no block). */
async function visibleMessage(db: Db, member: ChatMember, messageId: number): Promise<ChatMessage | null> {
  const [found] = await messagesFor(db, member, eq(messages.id, messageId), 1);
  return found ?? null;
}

async function sendsSignals(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ on: users.chatSignals }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.on ?? false;
}

export interface StreamOptions {
  app: { db: Db; bus: EventBus; clock: Clock; streams: StreamHub; log: Logger };
  member: ChatMember;
  /** The Last-Event-ID the browser sent (a message id), or null for a first connection. */
  lastEventId: number | null;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  heartbeatMs?: number;
}

/** Parses a Last-Event-ID header (a message id) — anything else counts as none. */
export function parseLastEventId(value: string | null): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/** Where a stream's text goes: the node response (src/server/chat/events-http.ts) or a ReadableStream. */
export interface StreamSink {
  write(text: string): void;
  /** The stream is over (the client left, the process drains or a write failed). */
  end(): void;
}

/** One heartbeat timer for all of a process's streams, not one per stream (decision 047). */
const heartbeats = new Map<number, { beats: Set<() => void>; timer: ReturnType<typeof setInterval> }>();
function onHeartbeat(ms: number, beat: () => void): () => void {
  let group = heartbeats.get(ms);
  if (!group) {
    const beats = new Set<() => void>();
    const timer = setInterval(() => {
      for (const b of [...beats]) b();
    }, ms);
    timer.unref?.();
    heartbeats.set(ms, (group = { beats, timer }));
  }
  const { beats } = group;
  beats.add(beat);
  return () => {
    beats.delete(beat);
    const current = heartbeats.get(ms);
    if (beats.size === 0 && current?.beats === beats) {
      clearInterval(current.timer);
      heartbeats.delete(ms);
    }
  };
}

/**
 * Starts a member's live stream into `sink`. Returns the function that ends it (the client went away);
 * the stream also ends itself when the process drains (with a retry hint).
 */
export function attachMemberStream(options: Omit<StreamOptions, 'signal'>, sink: StreamSink): () => void {
  const { app, member } = options;
  let position = options.lastEventId ?? 0;
  let closed = false;
  const cleanups: Array<() => void> = [];
  // Events are written in the order their work was queued, whatever their database reads take.
  let queue: Promise<void> = Promise.resolve();

  const write = (text: string) => {
    if (closed) return;
    try {
      sink.write(text);
    } catch {
      finish();
    }
  };
  const send = (event: string, data: unknown) => write(`id: ${position}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const sendMessage = (m: ChatMessage) => {
    position = Math.max(position, m.id);
    send('message', messageJson(m, member.userId));
  };
  const enqueue = (work: () => Promise<void>) => {
    queue = queue.then(work).catch((err: unknown) => app.log.warn({ err }, 'live stream event failed'));
  };
  const counters = async () => {
    const counts = await countMember(app.db, member);
    send('counters', { unread_messages: counts.unread, new_likes: counts.newLikes });
  };

  function onEvent({ topic, payload: e }: MemberEvent): void {
    switch (topic) {
      case 'chat.message':
        enqueue(async () => {
          const m = await visibleMessage(app.db, member, e.messageId);
          if (!m) return;
          sendMessage(m);
          if (e.recipientId === member.userId) await counters();
        });
        return;
      case 'chat.read':
        if (e.readerId === member.userId) enqueue(counters);
        else if (e.otherId === member.userId)
          enqueue(async () => {
            // 'seen' only from a reader who sends receipts (CHT-10).
            if (await sendsSignals(app.db, e.readerId)) send('read', { conversation: e.conversationId, reader: e.readerId, through: e.messageId });
          });
        return;
      case 'chat.typing':
        enqueue(async () => send('typing', { conversation: e.conversationId, member: e.typistId }));
        return;
      case 'chat.removed':
        enqueue(async () => {
          send('removed', { conversations: e.conversationIds });
          await counters();
        });
        return;
      case 'member.liked':
        enqueue(async () => {
          send('like', { from: e.likerId });
          await counters();
        });
        return;
      case 'member.matched':
        // UX-01: the other member sees the match live; the one whose like made it sees it from the like's
        // answer or the page its form returns to (a live claim from the page being left would take it).
        if (e.by !== member.userId) enqueue(async () => send('match', { member: e.memberIds.find((id) => id !== member.userId) }));
        return;
      case 'member.blocked':
        enqueue(counters);
        return;
    }
  }

  function finish(retry = false): void {
    if (closed) return;
    if (retry) write(`retry: ${RETRY_MS}\n: the server is restarting\n\n`);
    closed = true;
    for (const cleanup of cleanups.splice(0)) cleanup();
    try {
      sink.end();
    } catch {
      // Already gone.
    }
  }

  cleanups.push(app.streams.add(() => finish(true)));
  cleanups.push(onHeartbeat(options.heartbeatMs ?? HEARTBEAT_MS, () => write(': heartbeat\n\n')));
  // One listener for every event about this member (the router finds it by member id, so an event
  // costs a process a map lookup, not a call per open stream; docs/decisions/044).
  cleanups.push(listenForMember(app.bus, member.userId, (event) => onEvent(event)));

  // First what was missed (from the database), then where things stand.
  enqueue(async () => {
    write(`retry: ${RETRY_MS}\n\n`);
    if (options.lastEventId !== null) {
      const since = new Date(app.clock.now().getTime() - RESYNC_OVERLAP_MS);
      const missed = await messagesFor(app.db, member, or(gt(messages.id, options.lastEventId), gt(messages.createdAt, since))!, RESYNC_LIMIT);
      for (const m of missed) sendMessage(m);
      if (missed.length === RESYNC_LIMIT) send('resync_incomplete', {});
    } else {
      const [latest] = await app.db
        .select({ id: sql<number>`coalesce(max(${messages.id}), 0)`.mapWith(Number) })
        .from(messages)
        .where(or(eq(messages.senderId, member.userId), eq(messages.recipientId, member.userId)));
      position = latest?.id ?? 0;
    }
    send('ready', { position });
    await counters();
  });
  return () => finish();
}

/** The stream as a web ReadableStream (the Astro route under `astro dev`); aborting `signal` ends it. */
export function openMemberStream(options: StreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let stop: (() => void) | null = null;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      stop = attachMemberStream(options, {
        write: (text) => controller.enqueue(encoder.encode(text)),
        end: () => {
          try {
            controller.close();
          } catch {
            // Already closed by the client.
          }
        },
      });
      options.signal.addEventListener('abort', () => stop?.(), { once: true });
    },
    cancel() {
      stop?.();
    },
  });
}
