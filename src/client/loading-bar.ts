/**
 * NAV-07: while a page loads a loading bar runs. It appears only when loading takes longer than 200 ms,
 * creeps towards 90 % over a nominal 5,000 ms, and on completion fills to 100 % and hides 500 ms later
 * (SPEC §4, §9). The CSS (`.loading-bar` in app.scss) animates `width` over `--loading-duration`.
 */
import type { Clock } from './refresh';

export const LOADING_BAR_THROTTLE_MS = 200;
export const LOADING_BAR_DURATION_MS = 5_000;
export const LOADING_BAR_HIDE_DELAY_MS = 500;
/** How fast the bar fills the rest once loading is done. */
export const LOADING_BAR_FINISH_MS = 200;
/** Where the bar stops while loading goes on. */
export const LOADING_BAR_CREEP_PERCENT = 90;

/** The few things the bar needs of its element; an `HTMLElement` fits, tests pass a fake. */
export interface LoadingBarElement {
  hidden: boolean;
  style: { setProperty(name: string, value: string): void };
  setAttribute(name: string, value: string): void;
  /** Read to make the browser apply the start width before the transition (absent in fakes). */
  readonly offsetWidth?: number;
}

export interface LoadingBar {
  /** Loading started; harmless when already running. */
  start(): void;
  /** Loading finished; harmless when not running. */
  done(): void;
  /** Whether the bar is visible now. */
  readonly visible: boolean;
}

/** Creates the bar over `element` (initially hidden) with injectable timers. */
export function createLoadingBar(element: LoadingBarElement, timers: Clock): LoadingBar {
  let running = false;
  let visible = false;
  let showTimer: unknown;
  let hideTimer: unknown;

  const setProgress = (percent: number, durationMs: number) => {
    element.style.setProperty('--loading-duration', `${durationMs}ms`);
    element.style.setProperty('width', `${percent}%`);
    element.setAttribute('aria-valuenow', String(percent));
  };

  const show = () => {
    showTimer = undefined;
    visible = true;
    element.hidden = false;
    setProgress(0, 0);
    void element.offsetWidth; // apply 0 % now, so the next width change is animated
    setProgress(LOADING_BAR_CREEP_PERCENT, LOADING_BAR_DURATION_MS);
  };

  const hide = () => {
    hideTimer = undefined;
    visible = false;
    element.hidden = true;
    setProgress(0, 0);
  };

  return {
    start() {
      if (running) return;
      running = true;
      if (hideTimer !== undefined) {
        // Still showing the end of the previous load: restart at once instead of blinking.
        timers.clearTimeout(hideTimer);
        hideTimer = undefined;
        show();
        return;
      }
      showTimer = timers.setTimeout(show, LOADING_BAR_THROTTLE_MS);
    },
    done() {
      if (!running) return;
      running = false;
      if (showTimer !== undefined) {
        timers.clearTimeout(showTimer);
        showTimer = undefined;
      }
      if (!visible) return;
      setProgress(100, LOADING_BAR_FINISH_MS);
      hideTimer = timers.setTimeout(hide, LOADING_BAR_HIDE_DELAY_MS);
    },
    get visible() {
      return visible;
    },
  };
}

/** The part of `Location` used to tell same-origin navigations. */
export type PageLocation = Pick<Location, 'href' | 'origin' | 'pathname' | 'search'>;

interface AnchorLike {
  href: unknown;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
}

interface ClickLike {
  defaultPrevented: boolean;
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  target: unknown;
}

function closestAnchor(target: unknown): AnchorLike | null {
  const closest = (target as { closest?: unknown } | null)?.closest;
  if (typeof closest !== 'function') return null;
  return (closest.call(target, 'a[href]') as AnchorLike | null) ?? null;
}

/**
 * The same-origin page a click on a link goes to, or null when the click does not leave the page in
 * this tab for another page of the site: a modified or non-primary click, a handled (prevented) click,
 * `download`, another origin or scheme, a hash-only link. With `allowNewTab`, links that open in
 * another tab (`target="_blank"`) count too.
 */
export function internalLinkTarget(event: Event, location: PageLocation, { allowNewTab = false } = {}): URL | null {
  const click = event as unknown as ClickLike;
  if (click.defaultPrevented || click.button !== 0) return null;
  if (click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return null;
  const anchor = closestAnchor(click.target);
  if (!anchor || typeof anchor.href !== 'string' || anchor.hasAttribute('download')) return null;
  const target = anchor.getAttribute('target');
  if (!allowNewTab && target && target !== '_self') return null;
  if (anchor.getAttribute('href')?.startsWith('#')) return null;
  let url: URL;
  try {
    url = new URL(anchor.href, location.href);
  } catch {
    return null;
  }
  if (url.origin !== location.origin) return null;
  if (url.pathname === location.pathname && url.search === location.search && url.hash !== '') return null;
  return url;
}

/** True for a form submission that loads a page in this tab (not prevented, not `target="_blank"`). */
export function isPageLoadingSubmit(event: Event): boolean {
  if (event.defaultPrevented) return false;
  const form = event.target as { getAttribute?: (name: string) => string | null } | null;
  const target = form?.getAttribute?.('target');
  return !target || target === '_self';
}

/** The window parts the navigation binding listens to. */
export interface NavigationWindow {
  location: PageLocation;
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
}

/**
 * Runs `bar` for page loads: starts on same-origin link clicks (primary button, no modifier keys, not
 * `target=_blank`, not `download`, not hash-only) and on form submissions; finishes on `pageshow`
 * (a return from the back-forward cache shows the old page, which must not keep a running bar).
 * Listens on the window in the bubble phase so clicks that page code handled (prevented) are skipped.
 * Returns the unbind function.
 */
export function bindLoadingBarToNavigation(win: NavigationWindow, bar: LoadingBar): () => void {
  const onClick = (event: Event) => {
    if (internalLinkTarget(event, win.location)) bar.start();
  };
  const onSubmit = (event: Event) => {
    if (isPageLoadingSubmit(event)) bar.start();
  };
  const onPageShow = () => bar.done();
  win.addEventListener('click', onClick);
  win.addEventListener('submit', onSubmit);
  win.addEventListener('pageshow', onPageShow);
  return () => {
    win.removeEventListener('click', onClick);
    win.removeEventListener('submit', onSubmit);
    win.removeEventListener('pageshow', onPageShow);
  };
}
