/**
 * The boot of every page with the Default or Chat layout (ClientBoot.astro hands it the
 * page's state): user store, loading bar (NAV-07), chunk reload guard (CLI-03), page-hidden beacon
 * (CLI-06), bounce logging (CLI-05), connectivity (CLI-07), title count (NAV-06), app badge (CLI-09),
 * the navigation badges and the credits balance bound to their stores (NAV-01, NAV-02) and, for a
 * signed-in member, the periodic refresh (CLI-08); the <details> menus close by Escape and outside.
 * No React here: this runs on every page.
 */
import { $attentionCount, $counters, $online, setNewLikes, setUnreadMessages } from '../stores/counters';
import { loadChats } from '../stores/chats';
import { $credits, initCredits } from '../stores/credits';
import { loadLikes } from '../stores/likes';
import { computed } from 'nanostores';
import { isPushSubscribed, setPushSubscribed } from '../stores/refresh';
import { $language, $user, loadUser, type User } from '../stores/user';
import { isLanguage } from '../shared/languages';
import { isAuthenticationRequired } from '../client/api';
import { bindAppBadge, type BadgeNavigator } from '../client/app-badge';
import { bindBackButton, type BackButtonElement, type BackButtonWindow } from '../client/back-button';
import { installChunkReloadGuard } from '../client/chunk-reload';
import { bindOfflineBanner, trackConnectivity, type ConnectivityWindow } from '../client/connectivity';
import { bindLoadingBarToNavigation, createLoadingBar, type LoadingBarElement, type NavigationWindow, type PageLocation } from '../client/loading-bar';
import { installBounceLogging, installPageHiddenBeacon, type BeaconNavigator } from '../client/page-events';
import { startPeriodicRefresh, type Clock, type RefreshTask } from '../client/refresh';
import { bindDocumentTitle } from '../client/title';
import { bindMenus, type MenuDocument } from '../client/menus';
import { bindBalance, bindCountBadge, bindCreditBadge, type BadgeElement, type BalanceElement, type CreditBadgeElement } from '../client/nav-badge';

/** What the server puts in `<script type="application/json" id="app-boot">`. */
export interface BootData {
  user: User | null;
  lang: string;
  /** The page title without count, the base for NAV-06. */
  title: string;
  /** Whether this browser has a push subscription (refresh every 300 s instead of 60 s). */
  pushSubscribed?: boolean;
  /** The member's new likes when the page was rendered (NAV-01, NAV-06, CLI-09 before the first reload). */
  newLikes?: number;
  /** The member's unread messages when the page was rendered (NAV-01, NAV-06, CLI-09). */
  unreadMessages?: number;
}

/** The id of the boot data script element. */
export const BOOT_DATA_ID = 'app-boot';
export const LOADING_BAR_ID = 'loading-bar';
export const OFFLINE_BANNER_ID = 'offline-banner';
export const BACK_BUTTON_ID = 'back-button';
export const LIKES_BADGE_ID = 'likes-badge';
export const UNREAD_BADGE_ID = 'unread-badge';
export const CREDITS_BADGE_ID = 'credits-badge';
export const BALANCE_ID = 'credits-balance';

type Listening = {
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
};

/** The browser pieces {@link startClient} uses; {@link browserEnv} gives the real ones, tests pass fakes. */
export interface BootEnv {
  window: NavigationWindow & ConnectivityWindow & Listening;
  document: Listening & {
    title: string;
    readonly visibilityState: DocumentVisibilityState;
    getElementById(id: string): (LoadingBarElement & { hidden: boolean }) | null;
  };
  navigator: BadgeNavigator & BeaconNavigator;
  location: PageLocation;
  /** `sessionStorage`, or null where it is not available. */
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  clock: Clock;
  now: () => number;
  reload: () => void;
}

const refreshTasks: RefreshTask[] = [];

/**
 * Adds a task to the periodic refresh of signed-in members (CLI-08): the chats and likes features
 * register their loaders here. Works before or after {@link startClient}. Returns the unregister function.
 */
export function registerRefreshTask(task: RefreshTask): () => void {
  refreshTasks.push(task);
  return () => {
    const index = refreshTasks.indexOf(task);
    if (index >= 0) refreshTasks.splice(index, 1);
  };
}

export { isPushSubscribed, setPushSubscribed } from '../stores/refresh';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const values = new Map<string, string>();
  return { getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value) };
}

/**
 * Wires the client plumbing for the page described by `data`. Returns the function that undoes it all
 * (the page never needs it; tests do).
 */
export function startClient(data: BootData, env: BootEnv): () => void {
  const { window: win, document: doc, navigator, location, clock } = env;
  const cleanups: (() => void)[] = [];

  $user.set(data.user);
  $language.set(isLanguage(data.lang) ? data.lang : (data.user?.language ?? null));
  if (data.pushSubscribed !== undefined) setPushSubscribed(data.pushSubscribed);

  if (env.storage) cleanups.push(installChunkReloadGuard({ window: win, storage: env.storage, now: env.now, reload: env.reload }));

  // CLI-02 rejects calls with AuthenticationRequiredError after starting the logout; not an error to report.
  const onRejection = (event: Event) => {
    if (isAuthenticationRequired((event as PromiseRejectionEvent).reason)) event.preventDefault();
  };
  win.addEventListener('unhandledrejection', onRejection);
  cleanups.push(() => win.removeEventListener('unhandledrejection', onRejection));

  const barElement = doc.getElementById(LOADING_BAR_ID);
  if (barElement) cleanups.push(bindLoadingBarToNavigation(win, createLoadingBar(barElement, clock)));

  cleanups.push(installPageHiddenBeacon({ document: doc, navigator }));
  cleanups.push(installBounceLogging({ location, document: doc, window: win, navigator, now: env.now, storage: env.storage ?? memoryStorage() }));

  cleanups.push(trackConnectivity(win, $online));
  const banner = doc.getElementById(OFFLINE_BANNER_ID);
  if (banner) cleanups.push(bindOfflineBanner(banner, $online));

  if ('querySelectorAll' in doc) cleanups.push(bindMenus(doc as unknown as MenuDocument));

  const back = doc.getElementById(BACK_BUTTON_ID) as unknown as BackButtonElement | null;
  if (back && 'matchMedia' in win) cleanups.push(bindBackButton(back, win as unknown as BackButtonWindow));

  setNewLikes(data.newLikes ?? 0);
  setUnreadMessages(data.unreadMessages ?? 0);
  // The badges' labels count by the page's plural rules (UX-05).
  const badgeLang = data.lang || 'en';
  const likesBadge = doc.getElementById(LIKES_BADGE_ID) as unknown as BadgeElement | null;
  if (likesBadge)
    cleanups.push(
      bindCountBadge(
        likesBadge,
        computed($counters, (c) => c.newLikes),
        badgeLang,
      ),
    );
  const unreadBadge = doc.getElementById(UNREAD_BADGE_ID) as unknown as BadgeElement | null;
  if (unreadBadge)
    cleanups.push(
      bindCountBadge(
        unreadBadge,
        computed($counters, (c) => c.unreadMessages),
        badgeLang,
      ),
    );
  // NAV-02: one balance for the badge, the chat and the credits pages; a send in the chat moves it.
  if (data.user) initCredits(data.user.credits);
  const creditsBadge = doc.getElementById(CREDITS_BADGE_ID) as unknown as CreditBadgeElement | null;
  if (creditsBadge) cleanups.push(bindCreditBadge(creditsBadge, $credits, badgeLang));
  const balance = doc.getElementById(BALANCE_ID) as unknown as BalanceElement | null;
  if (balance) cleanups.push(bindBalance(balance, $credits, badgeLang));
  cleanups.push(bindDocumentTitle(doc, $attentionCount, data.title || undefined));
  cleanups.push(bindAppBadge(navigator, $attentionCount));

  if (data.user) {
    cleanups.push(registerRefreshTask(loadUser));
    cleanups.push(registerRefreshTask(loadLikes));
    cleanups.push(registerRefreshTask(loadChats));
    cleanups.push(startPeriodicRefresh({ clock, tasks: refreshTasks, isPushSubscribed }));
  }

  return () => {
    for (const cleanup of cleanups.reverse()) cleanup();
  };
}

function isBootData(value: unknown): value is BootData {
  if (typeof value !== 'object' || value === null) return false;
  const { user, lang, title } = value as Record<string, unknown>;
  return (user === null || (typeof user === 'object' && user !== undefined)) && typeof lang === 'string' && typeof title === 'string';
}

/**
 * Reads the boot data from `#app-boot`. A missing or broken element gives a visitor's data with the
 * document's language and title, so the plumbing still runs.
 */
export function readBootData(doc: Pick<Document, 'getElementById' | 'title'> & { documentElement?: { lang: string } }): BootData {
  const fallback: BootData = { user: null, lang: doc.documentElement?.lang ?? '', title: doc.title };
  const text = doc.getElementById(BOOT_DATA_ID)?.textContent;
  if (!text) return fallback;
  try {
    const parsed: unknown = JSON.parse(text);
    return isBootData(parsed) ? parsed : fallback;
  } catch {
    return fallback;
  }
}

/** The real browser pieces for {@link startClient}. */
export function browserEnv(win: Window): BootEnv {
  let storage: Storage | null = null;
  try {
    storage = win.sessionStorage;
  } catch {
    // Storage blocked (privacy settings): features that need it fall back or stay off.
  }
  return {
    window: win,
    document: win.document,
    navigator: win.navigator,
    location: win.location,
    storage,
    clock: {
      setTimeout: (callback, ms) => win.setTimeout(callback, ms),
      clearTimeout: (handle) => win.clearTimeout(handle as number | undefined),
    },
    now: () => Date.now(),
    reload: () => win.location.reload(),
  };
}
