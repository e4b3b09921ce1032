import { atom } from 'nanostores';
import { describe, expect, it, vi } from 'vitest';
import { bindAppBadge } from './app-badge';

describe('app badge', () => {
  it('CLI-09 shows unread + new likes on the app badge and clears it at 0', () => {
    const nav = { setAppBadge: vi.fn(async () => undefined), clearAppBadge: vi.fn(async () => undefined) };
    const $count = atom(3);
    bindAppBadge(nav, $count);
    expect(nav.setAppBadge).toHaveBeenLastCalledWith(3);
    $count.set(7);
    expect(nav.setAppBadge).toHaveBeenLastCalledWith(7);
    $count.set(0);
    expect(nav.clearAppBadge).toHaveBeenCalledTimes(1);
  });

  it('CLI-09 ignores a setAppBadge that throws or rejects', async () => {
    const throwing = {
      setAppBadge: vi.fn(() => {
        throw new DOMException('no', 'NotAllowedError');
      }),
    };
    // Plain functions: a vi.fn would attach its own handler to the returned promise and hide the rejection.
    const rejected: string[] = [];
    const rejecting = {
      setAppBadge: (n?: number) => (rejected.push(`set ${n}`), Promise.reject(new Error('denied'))),
      clearAppBadge: () => (rejected.push('clear'), Promise.reject(new Error('denied'))),
    };
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const $count = atom(2);
      expect(() => bindAppBadge(throwing, $count)).not.toThrow();
      expect(() => bindAppBadge(rejecting, $count)).not.toThrow();
      expect(() => $count.set(0)).not.toThrow();
      await new Promise((resolve) => setImmediate(resolve));
      expect(throwing.setAppBadge).toHaveBeenCalledWith(2);
      expect(rejected).toEqual(['set 2', 'clear']);
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('CLI-09 does nothing where the Badging API is missing', () => {
    const $count = atom(4);
    expect(() => bindAppBadge({}, $count)).not.toThrow();
    expect(() => $count.set(0)).not.toThrow();
  });
});
