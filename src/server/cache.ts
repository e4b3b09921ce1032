/**
 * A small per-process memo with a time to live, for answers many visitors share (a site's landing
 * teaser, lists that change slowly). Concurrent misses share one computation.
 */
import type { Clock } from './clock';

interface Entry {
  expires: number;
  value: Promise<unknown>;
}

export class TtlCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 1000,
  ) {}

  /** The cached value for `key`, or the result of `load` kept for `ttlMs`. A failed load is not kept. */
  get<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    const now = this.clock.now().getTime();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value as Promise<T>;
    const value = load();
    this.entries.set(key, { expires: now + ttlMs, value });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  delete(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}
