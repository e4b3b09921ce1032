import { describe, expect, it, vi } from 'vitest';
import { TtlCache } from './cache';

const clockAt = (t: { ms: number }) => ({ now: () => new Date(t.ms) });

describe('TtlCache', () => {
  it('keeps a value for its TTL and shares one load between concurrent misses', async () => {
    const t = { ms: 0 };
    const cache = new TtlCache(clockAt(t));
    const load = vi.fn(async () => 'v');
    const [a, b] = await Promise.all([cache.get('k', 1000, load), cache.get('k', 1000, load)]);
    expect([a, b]).toEqual(['v', 'v']);
    expect(load).toHaveBeenCalledOnce();
    t.ms = 999;
    await cache.get('k', 1000, load);
    expect(load).toHaveBeenCalledOnce();
    t.ms = 1001;
    await cache.get('k', 1000, load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not keep a failed load', async () => {
    const cache = new TtlCache(clockAt({ ms: 0 }));
    await expect(cache.get('k', 1000, async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', 1000, async () => 'ok')).toBe('ok');
  });

  it('drops entries by prefix', async () => {
    const cache = new TtlCache(clockAt({ ms: 0 }));
    await cache.get('site:1:a', 1000, async () => 1);
    cache.delete('site:1:');
    expect(await cache.get('site:1:a', 1000, async () => 2)).toBe(2);
  });

  it('drops a key and the keys under it, not a longer id (teaser:1 is not teaser:12)', async () => {
    const cache = new TtlCache(clockAt({ ms: 0 }));
    for (const key of ['teaser:1', 'teaser:1:nl', 'teaser:12']) await cache.get(key, 1000, async () => 'old');
    cache.delete('teaser:1');
    expect(await cache.get('teaser:1', 1000, async () => 'new')).toBe('new');
    expect(await cache.get('teaser:1:nl', 1000, async () => 'new')).toBe('new');
    expect(await cache.get('teaser:12', 1000, async () => 'new')).toBe('old');
  });

  it('drops every entry of one site by the id in the key (site.changed, site.content_changed)', async () => {
    const cache = new TtlCache(clockAt({ ms: 0 }));
    for (const key of ['teaser:2', 'landers:2', 'landers:2:regions:NL', 'teaser:1', 'landers:21', 'teaser:12']) await cache.get(key, 1000, async () => 'old');
    cache.deleteSite(2);
    for (const key of ['teaser:2', 'landers:2', 'landers:2:regions:NL']) expect(await cache.get(key, 1000, async () => 'new'), key).toBe('new');
    for (const key of ['teaser:1', 'landers:21', 'teaser:12']) expect(await cache.get(key, 1000, async () => 'new'), key).toBe('old');
    cache.clear();
    expect(await cache.get('teaser:1', 1000, async () => 'new')).toBe('new');
  });

  describe('refreshing', () => {
    /** A load the test finishes by hand. */
    const deferred = <T>() => {
      let resolve!: (v: T) => void;
      let reject!: (e: Error) => void;
      const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
      return { promise, resolve, reject };
    };

    it('after expiry the first call loads anew and gets the new value; calls meanwhile get the old one at once', async () => {
      const t = { ms: 0 };
      const cache = new TtlCache(clockAt(t));
      expect(await cache.get('k', 1000, async () => 'v1')).toBe('v1');
      t.ms = 1500;
      const next = deferred<string>();
      const load = vi.fn((_previous: string | undefined) => next.promise);
      const first = cache.get('k', 1000, load);
      // Requests while the refresh runs: answered with the old value, no second load.
      expect(await cache.get('k', 1000, load)).toBe('v1');
      expect(await cache.get('k', 1000, load)).toBe('v1');
      expect(load).toHaveBeenCalledOnce();
      expect(load).toHaveBeenCalledWith('v1');
      next.resolve('v2');
      expect(await first).toBe('v2');
      expect(await cache.get('k', 1000, load)).toBe('v2');
      expect(load).toHaveBeenCalledOnce();
      // The refreshed value has a TTL of its own.
      t.ms = 2400;
      expect(await cache.get('k', 1000, async () => 'v3')).toBe('v2');
    });

    it('before any value has loaded, every caller waits for the one first load, which gets no previous value', async () => {
      const cache = new TtlCache(clockAt({ ms: 0 }));
      const first = deferred<string>();
      const load = vi.fn(() => first.promise);
      const both = Promise.all([cache.get('k', 1000, load), cache.get('k', 1000, load)]);
      first.resolve('v');
      expect(await both).toEqual(['v', 'v']);
      expect(load).toHaveBeenCalledOnce();
      expect(load).toHaveBeenCalledWith(undefined);
    });

    it('does not keep a refresh that finishes after the entry was dropped: the next call loads afresh', async () => {
      const t = { ms: 0 };
      const cache = new TtlCache(clockAt(t));
      await cache.get('site:1:a', 1000, async () => 'old');
      t.ms = 1500;
      const late = deferred<string>();
      const refreshing = cache.get('site:1:a', 1000, () => late.promise);
      cache.deleteSite(1);
      late.resolve('read before the change');
      expect(await refreshing).toBe('read before the change');
      expect(await cache.get('site:1:a', 1000, async () => 'after the change')).toBe('after the change');
    });

    it('answers the old value when a refresh fails, and the next call tries again', async () => {
      const t = { ms: 0 };
      const cache = new TtlCache(clockAt(t));
      await cache.get('k', 1000, async () => 'old');
      t.ms = 1500;
      expect(await cache.get('k', 1000, async () => Promise.reject(new Error('database down')))).toBe('old');
      // A loader that throws before it returns a promise counts the same.
      expect(
        await cache.get('k', 1000, () => {
          throw new Error('bad key');
        }),
      ).toBe('old');
      expect(await cache.get('k', 1000, async () => 'new')).toBe('new');
      expect(await cache.get('k', 1000, async () => 'newer')).toBe('new');
    });
  });
});
