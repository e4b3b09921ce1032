import { describe, expect, it } from 'vitest';
import { INVITE_EVERY, MIN_SWIPE_PX, decide, initialDeck, keepSwiping, swipeDecision } from './deck';

describe('tinderswipe deck', () => {
  it('LND-01 a drag past a quarter of the card is a like (right) or a skip (left); a short drag snaps back', () => {
    expect(swipeDecision(100, 320)).toBe('like');
    expect(swipeDecision(-100, 320)).toBe('nope');
    expect(swipeDecision(79, 320)).toBeNull();
    expect(swipeDecision(-79, 320)).toBeNull();
    expect(swipeDecision(0, 320)).toBeNull();
  });

  it('LND-01 a narrow card still needs a deliberate drag', () => {
    expect(swipeDecision(MIN_SWIPE_PX - 1, 100)).toBeNull();
    expect(swipeDecision(MIN_SWIPE_PX, 100)).toBe('like');
  });

  it('LND-01 the deck invites to sign up after a few swipes, and again after a few more', () => {
    let state = initialDeck;
    for (let i = 0; i < INVITE_EVERY; i++) {
      expect(state.inviting).toBe(false);
      state = decide(state, i % 2 ? 'nope' : 'like', 10);
    }
    expect(state).toMatchObject({ inviting: true, index: INVITE_EVERY, likes: 2 });
    expect(decide(state, 'like', 10)).toBe(state);
    state = keepSwiping(state, 10);
    expect(state.inviting).toBe(false);
    for (let i = 0; i < INVITE_EVERY; i++) state = decide(state, 'like', 10);
    expect(state.inviting).toBe(true);
  });

  it('LND-01 the last card ends in the invitation, and there is nothing to go back to', () => {
    let state = decide(initialDeck, 'like', 1);
    expect(state.inviting).toBe(true);
    state = keepSwiping(state, 1);
    expect(state.inviting).toBe(true);
  });
});
