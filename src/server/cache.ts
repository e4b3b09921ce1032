/**
 * A small per-process memo with a time to live, for answers many visitors share (a site's landing
 * teaser, lists that change slowly, shared search pages). Concurrent misses share one computation, and
 * an expired value is refreshed by one caller while the others are answered with it.
 *
 * Keys of a site's data are `<kind>:<siteId>` or `<kind>:<siteId>:<more>` ('teaser:1',
 * 'landers:2:regions:NL'): `deleteSite` drops them all when the bus says the site or its content
 * changed ('site.changed', 'site.content_changed'; wired in createAppContext).
 */
import type { Clock } from './clock';

interface Entry {
  expires: number;
  value: Promise<unknown>;
  /** The value once loaded (served while a newer one loads). */
  loaded?: { value: unknown };
  /** Whether a refresh of this entry is under way. */
  refreshing?: boolean;
}

export class TtlCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 1000,
  ) {}

  /**
   * The cached value for `key`, or the result of `load` kept for `ttlMs`; concurrent misses share one
   * load, and a failed first load is not kept. Once a value has loaded, an expired one is not waited for
   * by everyone: the first call after expiry loads anew (`load` gets the value it replaces) and gets the
   * new value, and the calls that come while it loads are answered with the old one at once. The new value
   * replaces the old only if the entry was not dropped meanwhile (`delete`, `deleteSite`, `clear`): after
   * a drop the next call loads afresh and everyone waits for it. A failed refresh answers its caller with
   * the old value and leaves it, and the next call tries again.
   */
  get<T>(key: string, ttlMs: number, load: (previous: T | undefined) => Promise<T>): Promise<T> {
    const now = this.clock.now().getTime();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value as Promise<T>;
    if (hit?.loaded) {
      if (hit.refreshing) return hit.value as Promise<T>;
      hit.refreshing = true;
      const old = hit.loaded.value as T;
      return started(() => load(old)).then(
        (value) => {
          if (this.entries.get(key) === hit) this.entries.set(key, { expires: this.clock.now().getTime() + ttlMs, value: Promise.resolve(value), loaded: { value } });
          return value;
        },
        () => {
          hit.refreshing = false;
          return old;
        },
      );
    }
    const value = started(() => load(undefined));
    const entry: Entry = { expires: now + ttlMs, value };
    this.entries.set(key, entry);
    value.then(
      (v) => (entry.loaded = { value: v }),
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  /** Drops `key` and the keys under it (`key:…`); 'teaser:1' leaves 'teaser:12' alone. */
  delete(key: string): void {
    const under = key.endsWith(':') ? key : `${key}:`;
    for (const k of this.entries.keys()) if (k === key || k.startsWith(under)) this.entries.delete(k);
  }

  /** Drops every entry of one site: the keys whose second part is its id. */
  deleteSite(siteId: number): void {
    const id = String(siteId);
    for (const key of this.entries.keys()) if (key.split(':', 2)[1] === id) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** The promise `load` returns; one that throws before returning fails like one that rejects. */
function started<T>(load: () => Promise<T>): Promise<T> {
  try {
    return load();
  } catch (err) {
    return Promise.reject(err);
  }
}
