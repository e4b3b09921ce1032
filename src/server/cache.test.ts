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
});
