/**
 * Beacons about the page's life: the page-hidden beacon (CLI-06) and page-bounce logging (CLI-05).
 * Both use `navigator.sendBeacon`, which survives the page being closed; a missing or failing
 * `sendBeacon` is ignored.
 */
import type { paths } from '../shared/api-types';
import type { PageBounceBody, PageHiddenBody } from '../shared/api/page-events';
import { internalLinkTarget, isPageLoadingSubmit, type PageLocation } from './loading-bar';

export const PAGE_HIDDEN_URL = '/api/page-hidden.php' satisfies keyof paths;
export const PAGE_BOUNCE_URL = '/api/page-bounce.php' satisfies keyof paths;
/** The query parameter that turns bounce logging on (SPEC §4). */
export const BOUNCE_QUERY_PARAMETER = 'lb';
/** sessionStorage key set once this tab navigated inside the site or logged its bounce. */
export const BOUNCE_DONE_KEY = 'page-bounce-done';

export interface BeaconNavigator {
  sendBeacon?: (url: string, data?: BodyInit | null) => boolean;
}

interface EventSource {
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
}

function sendJsonBeacon(navigator: BeaconNavigator, ...[url, body]: [typeof PAGE_HIDDEN_URL, PageHiddenBody] | [typeof PAGE_BOUNCE_URL, PageBounceBody]): void {
  try {
    navigator.sendBeacon?.(url, new Blob([JSON.stringify(body)], { type: 'application/json' }));
  } catch {
    // Beacons are best effort.
  }
}

/**
 * CLI-06: each time the document becomes hidden, sends `POST /api/page-hidden.php` with the body `{}`
 * as a beacon. Returns the uninstall function.
 */
export function installPageHiddenBeacon(env: { document: EventSource & { readonly visibilityState: DocumentVisibilityState }; navigator: BeaconNavigator }): () => void {
  const { document, navigator } = env;
  const onVisibilityChange = () => {
    if (document.visibilityState === 'hidden') sendJsonBeacon(navigator, PAGE_HIDDEN_URL, {});
  };
  document.addEventListener('visibilitychange', onVisibilityChange);
  return () => document.removeEventListener('visibilitychange', onVisibilityChange);
}

export interface BounceLoggingEnv {
  location: PageLocation;
  /** Where link clicks and form submissions are seen (bubble phase, after page code). */
  document: EventSource;
  /** Where `pagehide` fires. */
  window: EventSource;
  navigator: BeaconNavigator;
  now: () => number;
  /** `sessionStorage`: remembers for the tab that the visitor went on into the site, or was logged. */
  storage: Pick<Storage, 'getItem' | 'setItem'>;
}

/**
 * CLI-05: only when the landing URL has the query parameter `lb`. Records the landing time; when the
 * visitor leaves the page (`pagehide`) without having followed a same-origin link or submitted a
 * form, sends once `POST /api/page-bounce.php {path, duration_ms}` as a beacon. A tab that already
 * navigated inside the site (or already logged) is not logged again. Returns the uninstall function
 * (a no-op when inactive).
 */
export function installBounceLogging(env: BounceLoggingEnv): () => void {
  const { location, document, window: win, navigator, now, storage } = env;
  if (!new URL(location.href).searchParams.has(BOUNCE_QUERY_PARAMETER)) return () => undefined;
  const isDone = () => {
    try {
      return storage.getItem(BOUNCE_DONE_KEY) !== null;
    } catch {
      return false;
    }
  };
  const markDone = () => {
    try {
      storage.setItem(BOUNCE_DONE_KEY, '1');
    } catch {
      // Without storage the in-memory flag still covers this page.
    }
  };
  if (isDone()) return () => undefined;

  const landedAt = now();
  let finished = false;

  const onClick = (event: Event) => {
    if (!finished && internalLinkTarget(event, location, { allowNewTab: true })) {
      finished = true;
      markDone();
    }
  };
  const onSubmit = (event: Event) => {
    if (!finished && isPageLoadingSubmit(event)) {
      finished = true;
      markDone();
    }
  };
  const onPageHide = () => {
    if (finished) return;
    finished = true;
    markDone();
    sendJsonBeacon(navigator, PAGE_BOUNCE_URL, { path: location.pathname, duration_ms: Math.max(0, Math.round(now() - landedAt)) });
  };

  document.addEventListener('click', onClick);
  document.addEventListener('submit', onSubmit);
  win.addEventListener('pagehide', onPageHide);
  return () => {
    document.removeEventListener('click', onClick);
    document.removeEventListener('submit', onSubmit);
    win.removeEventListener('pagehide', onPageHide);
  };
}
