/**
 * CLI-03: after a failed chunk load (typically a deploy replaced the hashed files the open page still
 * refers to) the page reloads, at most once per 60 s (SPEC §4, §8, §9).
 */

export const CHUNK_RELOAD_KEY = 'chunk-reload-at';
export const CHUNK_RELOAD_GUARD_MS = 60_000;

/** Messages browsers and bundlers use when a script chunk or its CSS could not be loaded. */
const CHUNK_ERROR_PATTERNS = [
  /failed to fetch dynamically imported module/i, // Chromium
  /error loading dynamically imported module/i, // Firefox
  /importing a module script failed/i, // Safari
  /unable to preload css/i, // Vite
  /loading (css )?chunk [\w-]+ failed/i,
  /ChunkLoadError/,
];

/** True when `message` says a code chunk failed to load. */
export function isChunkLoadErrorMessage(message: unknown): boolean {
  return typeof message === 'string' && CHUNK_ERROR_PATTERNS.some((pattern) => pattern.test(message));
}

function messageOf(value: unknown): unknown {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    const { message, name } = value as { message?: unknown; name?: unknown };
    return typeof message === 'string' ? `${typeof name === 'string' ? `${name}: ` : ''}${message}` : undefined;
  }
  return undefined;
}

export interface ChunkReloadGuardEnv {
  window: {
    addEventListener(type: string, listener: (event: Event) => void): void;
    removeEventListener(type: string, listener: (event: Event) => void): void;
  };
  /** Where the time of the last reload is kept across reloads: `sessionStorage`. */
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  now: () => number;
  reload: () => void;
}

/**
 * Listens for `vite:preloadError` (always a chunk failure) and for `unhandledrejection` / `error`
 * events whose message is a chunk failure. Such a failure reloads the page, unless the previous reload
 * of this tab (time in sessionStorage `chunk-reload-at`) is less than 60 s ago: then the error is left
 * to surface, so a chunk that is really gone cannot cause a reload loop. A handled event gets
 * `preventDefault()`. When the storage does not work, nothing is reloaded (the guard could not hold).
 * Returns the uninstall function.
 */
export function installChunkReloadGuard(env: ChunkReloadGuardEnv): () => void {
  const { window: win, storage, now, reload } = env;

  const reloadOnce = (): boolean => {
    try {
      const last = Number(storage.getItem(CHUNK_RELOAD_KEY));
      const at = now();
      if (Number.isFinite(last) && last > 0 && at >= last && at - last < CHUNK_RELOAD_GUARD_MS) return false;
      storage.setItem(CHUNK_RELOAD_KEY, String(at));
    } catch {
      return false;
    }
    reload();
    return true;
  };

  const onPreloadError = (event: Event) => {
    if (reloadOnce()) event.preventDefault();
  };
  const onRejection = (event: Event) => {
    if (isChunkLoadErrorMessage(messageOf((event as PromiseRejectionEvent).reason)) && reloadOnce()) event.preventDefault();
  };
  const onError = (event: Event) => {
    const { message, error } = event as ErrorEvent;
    if ((isChunkLoadErrorMessage(message) || isChunkLoadErrorMessage(messageOf(error))) && reloadOnce()) event.preventDefault();
  };

  win.addEventListener('vite:preloadError', onPreloadError);
  win.addEventListener('unhandledrejection', onRejection);
  win.addEventListener('error', onError);
  return () => {
    win.removeEventListener('vite:preloadError', onPreloadError);
    win.removeEventListener('unhandledrejection', onRejection);
    win.removeEventListener('error', onError);
  };
}
