import { beforeEach, describe, expect, it } from 'vitest';
import { $attentionCount, $counters, setNewLikes, setUnreadMessages } from './counters';

beforeEach(() => $counters.set({ unreadMessages: 0, newLikes: 0 }));

describe('counters', () => {
  it('NAV-06 the attention count is unread messages plus new likes', () => {
    setUnreadMessages(3);
    setNewLikes(2);
    expect($attentionCount.get()).toBe(5);
    setUnreadMessages(0);
    expect($attentionCount.get()).toBe(2);
  });

  it('CLI-09 invalid or negative counts count as 0', () => {
    setUnreadMessages(-4);
    setNewLikes(Number.NaN);
    expect($attentionCount.get()).toBe(0);
  });
});
