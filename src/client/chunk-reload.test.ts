import { describe, expect, it, vi } from 'vitest';
import { CHUNK_RELOAD_KEY, installChunkReloadGuard, isChunkLoadErrorMessage } from './chunk-reload';

function memoryStorage() {
  const values = new Map<string, string>();
  return { getItem: (key: string) => values.get(key) ?? null, setItem: (key: string, value: string) => void values.set(key, value), values };
}

function event(type: string, fields: Record<string, unknown> = {}): Event {
  const e = new Event(type, { cancelable: true });
  for (const [key, value] of Object.entries(fields)) Object.defineProperty(e, key, { value });
  return e;
}

/** One page load: a fresh window with the guard installed over the tab's storage. */
function pageLoad(storage: ReturnType<typeof memoryStorage>, now: () => number) {
  const window = new EventTarget();
  const reload = vi.fn();
  installChunkReloadGuard({ window, storage, now, reload });
  return { window, reload };
}

describe('chunk reload guard', () => {
  it('CLI-03 reloads once on a failed chunk load, not again within 60 s, and again after 60 s', () => {
    const storage = memoryStorage();
    let time = 1_000_000;
    const now = () => time;

    const first = pageLoad(storage, now);
    const failure = event('vite:preloadError', { payload: new Error('x') });
    first.window.dispatchEvent(failure);
    expect(first.reload).toHaveBeenCalledTimes(1);
    expect(failure.defaultPrevented).toBe(true);
    expect(storage.values.get(CHUNK_RELOAD_KEY)).toBe('1000000');

    time += 59_999;
    const second = pageLoad(storage, now);
    const again = event('vite:preloadError');
    second.window.dispatchEvent(again);
    expect(second.reload).not.toHaveBeenCalled();
    expect(again.defaultPrevented).toBe(false);

    time += 1;
    second.window.dispatchEvent(event('vite:preloadError'));
    expect(second.reload).toHaveBeenCalledTimes(1);
  });

  it('CLI-03 handles unhandled rejections and errors from failed dynamic imports', () => {
    const storage = memoryStorage();
    let time = 0;
    const rejection = pageLoad(storage, () => time);
    const e = event('unhandledrejection', { reason: new TypeError('Failed to fetch dynamically imported module: https://site.test/_astro/Chat.abc123.js') });
    rejection.window.dispatchEvent(e);
    expect(rejection.reload).toHaveBeenCalledTimes(1);
    expect(e.defaultPrevented).toBe(true);

    time += 60_000;
    const error = pageLoad(storage, () => time);
    error.window.dispatchEvent(event('error', { message: 'TypeError: Importing a module script failed.' }));
    expect(error.reload).toHaveBeenCalledTimes(1);
  });

  it('CLI-03 leaves other errors alone', () => {
    const { window, reload } = pageLoad(memoryStorage(), () => 0);
    const rejection = event('unhandledrejection', { reason: new Error('Cannot read properties of undefined') });
    window.dispatchEvent(rejection);
    window.dispatchEvent(event('error', { message: 'ReferenceError: x is not defined', error: new ReferenceError('x is not defined') }));
    expect(reload).not.toHaveBeenCalled();
    expect(rejection.defaultPrevented).toBe(false);
  });

  it('CLI-03 does not reload when the storage cannot keep the guard (no reload loop)', () => {
    const storage = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => undefined,
    };
    const window = new EventTarget();
    const reload = vi.fn();
    installChunkReloadGuard({ window, storage, now: () => 0, reload });
    window.dispatchEvent(event('vite:preloadError'));
    expect(reload).not.toHaveBeenCalled();
  });

  it('CLI-03 recognises the chunk failure messages of the main browsers', () => {
    expect(isChunkLoadErrorMessage('Failed to fetch dynamically imported module: /a.js')).toBe(true);
    expect(isChunkLoadErrorMessage('error loading dynamically imported module: /a.js')).toBe(true);
    expect(isChunkLoadErrorMessage('Importing a module script failed.')).toBe(true);
    expect(isChunkLoadErrorMessage('Unable to preload CSS for /_astro/a.css')).toBe(true);
    expect(isChunkLoadErrorMessage('Failed to fetch')).toBe(false);
  });
});
