/**
 * The swipe deck's rules, apart from React so they are tested directly: when a drag counts as a swipe,
 * and when the deck stops to invite the visitor to sign up.
 */
import type { SwipeDecision } from '../../shared/swipe-card';

export type { SwipeCard, SwipeDecision } from '../../shared/swipe-card';

/** A drag further than this share of the card's width (at least MIN_SWIPE_PX) is a swipe. */
export const SWIPE_SHARE = 0.25;
export const MIN_SWIPE_PX = 60;

/** The decision a horizontal drag of `dx` pixels over a card `width` wide makes, or null (snap back). */
export function swipeDecision(dx: number, width: number): SwipeDecision | null {
  const threshold = Math.max(MIN_SWIPE_PX, width * SWIPE_SHARE);
  if (dx >= threshold) return 'like';
  if (dx <= -threshold) return 'nope';
  return null;
}

/** After this many swipes the deck invites the visitor to sign up. */
export const INVITE_EVERY = 3;

export interface DeckState {
  index: number;
  swipes: number;
  likes: number;
  inviting: boolean;
}

export const initialDeck: DeckState = { index: 0, swipes: 0, likes: 0, inviting: false };

/** The deck after a decision on the current card. */
export function decide(state: DeckState, decision: SwipeDecision, cards: number): DeckState {
  if (state.inviting || state.index >= cards) return state;
  const swipes = state.swipes + 1;
  const index = state.index + 1;
  return {
    index,
    swipes,
    likes: state.likes + (decision === 'like' ? 1 : 0),
    inviting: swipes % INVITE_EVERY === 0 || index >= cards,
  };
}

/** Back to the deck after the invitation, when cards are left. */
export function keepSwiping(state: DeckState, cards: number): DeckState {
  return state.index < cards ? { ...state, inviting: false } : state;
}
