import { describe, expect, it } from 'vitest';
import { enteredAt, MODAL_DELAY_MS, modalDelay } from './time-bonus';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), items };
}

describe('time bonus modal timing (TB-02)', () => {
  it('TB-02 the modal opens 40 s after entering the members area, at once when that has passed', () => {
    expect(MODAL_DELAY_MS).toBe(40_000);
    expect(modalDelay(1_000_000, 1_000_000)).toBe(40_000);
    expect(modalDelay(1_000_000, 1_025_000)).toBe(15_000);
    expect(modalDelay(1_000_000, 1_040_000)).toBe(0);
    expect(modalDelay(1_000_000, 2_000_000)).toBe(0);
  });

  it('TB-02 the entry time is kept for the tab: the next members page counts on from it', () => {
    const storage = memoryStorage();
    expect(enteredAt(storage, 'time-bonus-entered:7', 5_000)).toBe(5_000);
    expect(storage.items.get('time-bonus-entered:7')).toBe('5000');
    expect(enteredAt(storage, 'time-bonus-entered:7', 30_000)).toBe(5_000);
    // Another member in the same tab starts their own 40 s.
    expect(enteredAt(storage, 'time-bonus-entered:8', 30_000)).toBe(30_000);
  });

  it('TB-02 a stored value that is no time (or in the future) starts again; no storage counts from this page', () => {
    expect(enteredAt(memoryStorage({ k: 'abc' }), 'k', 9_000)).toBe(9_000);
    expect(enteredAt(memoryStorage({ k: '99999' }), 'k', 9_000)).toBe(9_000);
    expect(enteredAt(null, 'k', 9_000)).toBe(9_000);
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(enteredAt(refusing, 'k', 9_000)).toBe(9_000);
  });
});
