/**
 * The chat screen's message list as pure functions (CHT-02, CHT-08, CHT-11): the server's messages, the
 * live stream's and the member's own optimistic sends merged into one list ordered by message id, each
 * message once — a stream echo of an optimistic send replaces it by its client id.
 */
import type { components } from '../shared/api-types';
import { dateTimeFormat } from '../shared/intl-formats';

export type ChatMessageJson = components['schemas']['ChatMessage'];

export type ShownMessage = ChatMessageJson & {
  /** `sending` and `failed` only for the member's own optimistic sends, which have no id yet (id 0). */
  state: 'stored' | 'sending' | 'failed';
  /** Why a failed send failed (an API error code or 'network'). */
  failure?: string;
};

/** Stored messages by id, pending ones after them in the order they were written. */
export function sortMessages(list: ShownMessage[]): ShownMessage[] {
  const stored = list.filter((m) => m.state === 'stored').sort((a, b) => a.id - b.id);
  const pending = list.filter((m) => m.state !== 'stored');
  return [...stored, ...pending];
}

/** Adds stored messages (from the server, the stream or a send's answer): each once, by id or client id. */
export function mergeStored(list: ShownMessage[], incoming: readonly ChatMessageJson[]): ShownMessage[] {
  let next = list;
  for (const message of incoming) {
    if (next.some((m) => m.state === 'stored' && m.id === message.id)) continue;
    const own = next.findIndex((m) => m.state !== 'stored' && m.client_id === message.client_id && m.sender === message.sender);
    const shown: ShownMessage = { ...message, state: 'stored' };
    next = own >= 0 ? next.map((m, i) => (i === own ? shown : m)) : [...next, shown];
  }
  return sortMessages(next);
}

/** Adds the member's own message as it is being sent. */
export function addPending(list: ShownMessage[], message: Omit<ChatMessageJson, 'id' | 'credits' | 'created_at' | 'safety_notice'> & { created_at: string }): ShownMessage[] {
  return sortMessages([...list, { ...message, id: 0, credits: 0, safety_notice: false, state: 'sending' }]);
}

/** Marks a pending send failed (or sending again), by client id. */
export function setPendingState(list: ShownMessage[], clientId: string, state: 'sending' | 'failed', failure?: string): ShownMessage[] {
  return list.map((m) => (m.state !== 'stored' && m.client_id === clientId ? { ...m, state, ...(failure ? { failure } : {}) } : m));
}

/** Drops a pending send (its refusal is shown instead). */
export function dropPending(list: ShownMessage[], clientId: string): ShownMessage[] {
  return list.filter((m) => !(m.state !== 'stored' && m.client_id === clientId));
}

/** The member's newest stored message the partner has seen, if any ('seen' goes under it). */
export function lastSeenOwn(list: readonly ShownMessage[], me: number, seenThrough: number | null): number | null {
  if (seenThrough === null) return null;
  let found: number | null = null;
  for (const m of list) if (m.state === 'stored' && m.sender === me && m.id <= seenThrough) found = m.id;
  return found;
}

/** A fresh client id for a send (the idempotency key, CHT-11). */
export function newClientId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;
}

/** Messages of one sender closer together than this share a group (one time, tighter spacing). */
export const GROUP_GAP_MS = 5 * 60_000;

const QUARTER_HOUR_MS = 15 * 60_000;
/** Since 1980 every time zone's offset, and so every local midnight, falls on a quarter hour of UTC. */
const QUARTER_HOURS_FROM = Date.UTC(1980, 0, 1);
const DAYS_KEPT_PER_ZONE = 4096;
/** Per time zone: its formatter and the days of the quarter hours already asked (a chat asks the same ones on every render). */
const dayKeys = new Map<string, { format: Intl.DateTimeFormat; days: Map<number, string> }>();

/**
 * The calendar day of a moment in the site's time zone, as `YYYY-MM-DD` (en-CA writes it so). A day is
 * the same through a quarter hour of UTC, so each quarter hour is formatted once (a chat page asks for
 * every message's day and the chat list's; formatting is most of what that costs).
 */
export function dayKey(at: Date, timeZone: string): string {
  let zone = dayKeys.get(timeZone);
  if (!zone) {
    zone = { format: dateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }), days: new Map() };
    dayKeys.set(timeZone, zone);
  }
  const time = at.getTime();
  if (!(time >= QUARTER_HOURS_FROM)) return zone.format.format(at);
  const quarter = Math.floor(time / QUARTER_HOUR_MS);
  let day = zone.days.get(quarter);
  if (day === undefined) {
    day = zone.format.format(at);
    if (zone.days.size >= DAYS_KEPT_PER_ZONE) zone.days.clear();
    zone.days.set(quarter, day);
  }
  return day;
}

/** The day before a `YYYY-MM-DD` day (calendar arithmetic, no time zone involved). */
function previousDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
}

export type TimelineItem =
  | {
      type: 'day';
      /** `YYYY-MM-DD` in the site's time zone. */
      day: string;
      /** Today and yesterday by name ("Vandaag", "Gisteren"), older days by their date. */
      label: 'today' | 'yesterday' | 'date';
      /** A moment of that day (the first message's), for formatting the date. */
      at: string;
    }
  | {
      type: 'message';
      message: ShownMessage;
      /** First of its group (the group's spacing starts here). */
      first: boolean;
      /** Last of its group: the group's time and delivery mark go under it. */
      last: boolean;
    };

/**
 * The chat's list as it is shown (CHT-02): a day separator before the first message of each day (in the
 * site's time zone), and consecutive messages of one sender within {@link GROUP_GAP_MS} of each other on
 * one day as a group. A message still being sent or failed counts as written now.
 */
export function chatTimeline(list: readonly ShownMessage[], timeZone: string, now: Date): TimelineItem[] {
  const today = dayKey(now, timeZone);
  const yesterday = previousDay(today);
  const items: TimelineItem[] = [];
  let lastDay = '';
  let previous: { sender: number; at: number; index: number } | null = null;
  for (const message of list) {
    const time = message.state === 'stored' ? new Date(message.created_at) : now;
    const at = Number.isNaN(time.getTime()) ? now : time;
    const day = dayKey(at, timeZone);
    if (day !== lastDay) {
      items.push({ type: 'day', day, label: day === today ? 'today' : day === yesterday ? 'yesterday' : 'date', at: at.toISOString() });
      lastDay = day;
      previous = null;
    }
    const joins = previous !== null && previous.sender === message.sender && at.getTime() - previous.at <= GROUP_GAP_MS;
    if (joins && previous) {
      const before = items[previous.index];
      if (before?.type === 'message') items[previous.index] = { ...before, last: false };
    }
    items.push({ type: 'message', message, first: !joins, last: true });
    previous = { sender: message.sender, at: at.getTime(), index: items.length - 1 };
  }
  return items;
}

/** Messages of the partner's that arrived after the given id (the 'new messages' count while scrolled up). */
export function arrivedAfter(list: readonly ShownMessage[], me: number, lastSeenId: number): number {
  return list.filter((m) => m.state === 'stored' && m.sender !== me && m.id > lastSeenId).length;
}
