/**
 * Attention counters and connectivity: unread messages and new likes (filled by the chats and likes
 * features), their sum for the title (NAV-06) and the app badge (CLI-09), and online state (CLI-07).
 */
import { atom, computed, map } from 'nanostores';

export interface Counters {
  unreadMessages: number;
  newLikes: number;
}

/** Unread messages and new likes of the signed-in member. */
export const $counters = map<Counters>({ unreadMessages: 0, newLikes: 0 });

function count(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** Sets the unread message total (negative or invalid values count as 0). */
export function setUnreadMessages(n: number): void {
  $counters.setKey('unreadMessages', count(n));
}

/** Sets the new likes total (negative or invalid values count as 0). */
export function setNewLikes(n: number): void {
  $counters.setKey('newLikes', count(n));
}

/** Unread messages + new likes: the number in the title and on the app badge. */
export const $attentionCount = computed($counters, (c) => c.unreadMessages + c.newLikes);

/** Whether the browser is online (CLI-07); kept up to date by `trackConnectivity`. */
export const $online = atom(true);
