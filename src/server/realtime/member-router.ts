/**
 * The bus events a member's live stream shows, routed by member id (CHT-08; docs/decisions/044).
 *
 * A process holding 10,000 streams must not ask all 10,000 whether an event concerns them: the router
 * subscribes to each topic ONCE per bus, reads from the payload which members the event concerns, and
 * calls only their streams' listeners (a map lookup per member). A stream registers one listener under
 * its member id instead of one bus subscription per topic.
 */
import type { BusEvents, EventBus } from './bus';

/** The topics a live stream shows, and which members each event concerns. */
const MEMBERS_OF = {
  'chat.message': (e: BusEvents['chat.message']) => [e.senderId, e.recipientId],
  'chat.read': (e: BusEvents['chat.read']) => [e.readerId, e.otherId],
  'chat.typing': (e: BusEvents['chat.typing']) => [e.otherId],
  'chat.removed': (e: BusEvents['chat.removed']) => [e.userId],
  'member.liked': (e: BusEvents['member.liked']) => [e.likedId],
  'member.matched': (e: BusEvents['member.matched']) => e.memberIds,
  'member.blocked': (e: BusEvents['member.blocked']) => [e.blockerId, e.blockedId],
} as const;

export type MemberTopic = keyof typeof MEMBERS_OF;
/** One event for a member's stream: its topic and payload. */
export type MemberEvent = { [T in MemberTopic]: { topic: T; payload: BusEvents[T] } }[MemberTopic];
export type MemberListener = (event: MemberEvent) => void;

class MemberRouter {
  private readonly listeners = new Map<number, Set<MemberListener>>();

  constructor(bus: EventBus) {
    for (const topic of Object.keys(MEMBERS_OF) as MemberTopic[]) {
      bus.subscribe(topic, (payload) => this.route({ topic, payload } as MemberEvent));
    }
  }

  add(memberId: number, listener: MemberListener): () => void {
    let set = this.listeners.get(memberId);
    if (!set) this.listeners.set(memberId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(memberId) === set) this.listeners.delete(memberId);
    };
  }

  private route(event: MemberEvent): void {
    const members = (MEMBERS_OF[event.topic] as (payload: MemberEvent['payload']) => number[])(event.payload);
    members.forEach((memberId, i) => {
      // A member named twice (never in practice) hears the event once.
      if (members.indexOf(memberId) !== i) return;
      const set = this.listeners.get(memberId);
      if (set) for (const listener of [...set]) call(listener, event);
    });
    if (failure !== undefined) {
      const err = failure;
      failure = undefined;
      throw err; // the bus logs it; the other listeners have run
    }
  }
}

let failure: unknown;
function call(listener: MemberListener, event: MemberEvent): void {
  try {
    listener(event);
  } catch (err) {
    failure ??= err;
  }
}

const routers = new WeakMap<EventBus, MemberRouter>();

/** Calls `listener` with every event of `bus` that concerns `memberId` (see MEMBERS_OF); returns the removal. */
export function listenForMember(bus: EventBus, memberId: number, listener: MemberListener): () => void {
  let router = routers.get(bus);
  if (!router) routers.set(bus, (router = new MemberRouter(bus)));
  return router.add(memberId, listener);
}
