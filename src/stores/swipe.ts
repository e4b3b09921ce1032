/**
 * The swipe game's deck (`$swipe`, GAME-02): the cards, the one shown, today's likes left, the ids
 * skipped (carried on by the no-JS form and the 'more' link), the server's 'come back tomorrow' text once
 * the likes are used up, and what the last choice did. {@link chooseCard} sends `POST /api/swipe.php`; a
 * like that makes a match opens the 'It's a match!' modal at once (UX-01), as a live match does.
 * The SwipeGame island starts it with {@link initSwipe} once hydrated (until then, and on the server, it
 * renders {@link swipeState} of its props).
 */
import { atom } from 'nanostores';
import { api, failureReason, isAuthenticationRequired } from '../client/api';
import { dispatchLiveEvent } from '../client/live';
import type { SwipeCard, SwipeDecision } from '../shared/swipe-card';

export type { SwipeCard, SwipeDecision } from '../shared/swipe-card';

/** What the last choice did (the screen reader hears it). */
export type SwipeOutcome = { type: 'match' | 'liked' | 'skipped'; name: string } | { type: 'limit' } | { type: 'error' } | null;

export interface SwipeState {
  cards: SwipeCard[];
  /** The card shown (past the end: the deck is empty). */
  index: number;
  likesLeft: number;
  /** Today's likes are used up; `limitText` is the server's text for it (null: it gave none). */
  limited: boolean;
  limitText: string | null;
  /** Ids skipped so far, the newest {@link MAX_SKIPPED}. */
  skipped: number[];
  busy: boolean;
  outcome: SwipeOutcome;
}

export interface SwipeStart {
  cards: SwipeCard[];
  likesLeft: number;
  skipped: number[];
  /** The server's 'come back tomorrow' text when today's likes are used up, else null. */
  limitText: string | null;
}

/** The most skipped ids carried on (the 'more' link's length). */
export const MAX_SKIPPED = 40;

/** The deck once the island started it, else null. */
export const $swipe = atom<SwipeState | null>(null);

/** The deck as the server rendered it. */
export function swipeState(start: SwipeStart): SwipeState {
  return { cards: start.cards, index: 0, likesLeft: start.likesLeft, limited: start.limitText !== null, limitText: start.limitText, skipped: start.skipped, busy: false, outcome: null };
}

/** Starts the store with what the server rendered (in the browser, once the island hydrated). */
export function initSwipe(start: SwipeStart): void {
  $swipe.set(swipeState(start));
}

function update(change: (state: SwipeState) => Partial<SwipeState>): void {
  const state = $swipe.get();
  if (state) $swipe.set({ ...state, ...change(state) });
}

/**
 * Likes or skips the card shown; the next one follows. Nothing while a choice is being sent or with no
 * card left: then it answers false.
 */
export async function chooseCard(decision: SwipeDecision): Promise<boolean> {
  const state = $swipe.get();
  const card = state?.cards[state.index];
  if (!state || !card || state.busy) return false;
  update(() => ({ busy: true }));
  try {
    const { data, error, response } = await api.POST('/api/swipe.php', { body: { id: card.id, like: decision === 'like' } });
    if (data) {
      // UX-01: the match modal opens on the spot, as for a match arriving live (src/boot/like-modals.ts).
      if (data.match) dispatchLiveEvent({ type: 'match', data: { member: card.id } });
      update((s) => ({
        likesLeft: data.likes_left,
        outcome: { type: data.match ? 'match' : decision === 'like' ? 'liked' : 'skipped', name: card.name },
        skipped: decision === 'nope' ? [...s.skipped, card.id].slice(-MAX_SKIPPED) : s.skipped,
        index: s.index + 1,
      }));
    } else if (response.status === 429 && failureReason(error) === 'swipe_limit_reached') {
      update(() => ({ limited: true, limitText: (error as { message?: string }).message ?? null, outcome: { type: 'limit' } }));
    } else if (response.status === 404) {
      // Gone meanwhile (blocked, invisible, deleted): on to the next card.
      update((s) => ({ index: s.index + 1 }));
    } else {
      update(() => ({ outcome: { type: 'error' } }));
    }
  } catch (err) {
    if (!isAuthenticationRequired(err)) update(() => ({ outcome: { type: 'error' } }));
  } finally {
    update(() => ({ busy: false }));
  }
  return true;
}
