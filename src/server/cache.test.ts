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
});
