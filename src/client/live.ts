/**
 * The browser's end of the live stream (CHT-08): ONE EventSource per browser, whatever the number of
 * tabs, so HTTP/1.1's six connections per host are never used up. The tabs elect a leader with the Web
 * Locks API (the lock is held while the tab lives and passes to another tab when it closes); the leader
 * opens /api/events.php and forwards every event to the other tabs over a BroadcastChannel. A browser
 * without those opens its own stream. When the stream cannot open at all, the periodic loading (CLI-08)
 * keeps the counters right. EventSource reconnects by itself and sends Last-Event-ID: the server resyncs.
 */

export type LiveEventType = 'message' | 'read' | 'typing' | 'removed' | 'like' | 'match' | 'counters' | 'ready' | 'resync_incomplete';
export const LIVE_EVENT_TYPES: readonly LiveEventType[] = ['message', 'read', 'typing', 'removed', 'like', 'match', 'counters', 'ready', 'resync_incomplete'];

export interface LiveEvent {
  type: LiveEventType;
  data: Record<string, unknown>;
}

type Listener = (event: LiveEvent) => void;

/**
 * Live events reach this tab's code as a DOM event on `window`: the page's scripts and islands are
 * bundled separately, so a listener list inside this module could exist once per bundle.
 */
export const LIVE_DOM_EVENT = 'app:live';

/** Calls `listener` for every live event of this browser (from this tab's stream or the leader's). */
export function onLiveEvent(listener: Listener, target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> = globalThis as unknown as EventTarget): () => void {
  const handler = (e: Event) => {
    try {
      listener((e as CustomEvent<LiveEvent>).detail);
    } catch (err) {
      console.error('live event listener failed', err);
    }
  };
  target.addEventListener(LIVE_DOM_EVENT, handler);
  return () => target.removeEventListener(LIVE_DOM_EVENT, handler);
}

/** Hands an event to this tab's listeners. */
export function dispatchLiveEvent(event: LiveEvent, target: Pick<EventTarget, 'dispatchEvent'> = globalThis as unknown as EventTarget): void {
  target.dispatchEvent(new CustomEvent(LIVE_DOM_EVENT, { detail: event }));
}

export interface LiveWindow {
  EventSource?: typeof EventSource;
  BroadcastChannel?: typeof BroadcastChannel;
  navigator: { locks?: { request(name: string, callback: () => Promise<void>): Promise<unknown> } };
}

export const LIVE_URL = '/api/events.php';
export const LIVE_CHANNEL = 'live-events';
export const LIVE_LOCK = 'live-events-leader';

/** Starts this tab's part of the live stream. Returns the stop function. */
export function startLiveStream(win: LiveWindow): () => void {
  if (!win.EventSource) return () => {};
  const channel = win.BroadcastChannel ? new win.BroadcastChannel(LIVE_CHANNEL) : null;
  let source: EventSource | null = null;
  let stopped = false;
  let releaseLead: (() => void) | null = null;

  if (channel) channel.onmessage = (e: MessageEvent<LiveEvent>) => dispatchLiveEvent(e.data);

  const lead = () => {
    if (stopped || !win.EventSource) return;
    source = new win.EventSource(LIVE_URL);
    for (const type of LIVE_EVENT_TYPES) {
      source.addEventListener(type, (e) => {
        let data: Record<string, unknown>;
        try {
          data = JSON.parse((e as MessageEvent<string>).data) as Record<string, unknown>;
        } catch {
          return;
        }
        const event = { type, data };
        dispatchLiveEvent(event);
        channel?.postMessage(event);
      });
    }
  };

  if (channel && win.navigator.locks) {
    // Resolves (and releases the lock) only when this tab stops leading: on stop, or when the tab goes.
    void win.navigator.locks.request(
      LIVE_LOCK,
      () =>
        new Promise<void>((resolve) => {
          releaseLead = resolve;
          lead();
        }),
    );
  } else {
    lead();
  }

  return () => {
    stopped = true;
    source?.close();
    channel?.close();
    releaseLead?.();
  };
}
