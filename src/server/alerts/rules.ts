/**
 * Which warning banners a page shows (ALR-01..04, ACT-02): pure rules over the member, the page's
 * route and the stored dismissals, so they are tested without a browser.
 *
 * Dismissals (users.dismissals, ALR-04) keep the time of the last dismissal per alert. How long a
 * dismissal hides its alert:
 * - `enrich` (profile photo) and `push`: 7 days, then the reminder comes back;
 * - `notifications_disabled`: until the list of disabled notifications changes (the list at dismissal
 *   time is kept next to the time, under `notifications_disabled_list`);
 * - `time_bonus`: for good (the time-bonus modal opens only when it was never dismissed, TB-02).
 */
import { ALERT_KEYS } from '../../shared/api/alert-dismiss';
import type { CurrentUser } from '../members/account';

export type AlertKey = (typeof ALERT_KEYS)[number];

const DAY_MS = 24 * 3600 * 1000;

/** How long a dismissal hides the enrich and push alerts. */
export const DISMISS_FOR_MS = { enrich: 7 * DAY_MS, push: 7 * DAY_MS } as const;

/** Key under which the disabled-notifications list is kept at dismissal time. */
export const NOTIFICATIONS_LIST_KEY = 'notifications_disabled_list';

export type Dismissals = Record<string, string>;

/** The list as stored next to a `notifications_disabled` dismissal: sorted, comma-separated. */
export function notificationsListKey(list: readonly string[]): string {
  return [...list].sort().join(',');
}

function dismissedAt(dismissals: Dismissals, key: AlertKey): number | null {
  const value = dismissals[key];
  if (typeof value !== 'string') return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? time : null;
}

/** Whether `key` is dismissed right now (see the module comment for the durations). */
export function isDismissed(dismissals: Dismissals, key: AlertKey, now: Date, notificationsDisabled: readonly string[] = []): boolean {
  const at = dismissedAt(dismissals, key);
  if (at === null) return false;
  switch (key) {
    case 'enrich':
    case 'push':
      return now.getTime() - at < DISMISS_FOR_MS[key];
    case 'notifications_disabled':
      return dismissals[NOTIFICATIONS_LIST_KEY] === notificationsListKey(notificationsDisabled);
    case 'time_bonus':
      return true;
  }
}

/** Route names the rules know (pages pass theirs to the Default layout). */
export type RouteName = 'profile' | 'settings' | 'notifications' | 'premium' | 'signup' | 'activate-done' | 'directdebit' | (string & {});

/** Where each alert is hidden (SPEC §4). */
export const HIDDEN_ON = {
  enrich: ['profile', 'signup', 'activate-done', 'premium', 'notifications', 'directdebit', 'settings'],
  push: ['signup', 'notifications', 'activate-done', 'directdebit', 'premium'],
  notifications_disabled: ['settings', 'notifications'],
  activation: ['signup', 'settings', 'notifications'],
} as const satisfies Record<string, readonly string[]>;

const PATH_ROUTES: Record<string, RouteName> = {
  '/profile': 'profile',
  '/settings': 'settings',
  '/notifications': 'notifications',
  '/premium': 'premium',
  '/signup': 'signup',
  // The signup steps after the form (SIGN-02) are part of signing up.
  '/complete-signup': 'signup',
  '/activate/done': 'activate-done',
  '/directdebit': 'directdebit',
};

/**
 * The route name of a path, for pages that do not pass one yet; null for any other page (alerts then
 * behave as on a generic page).
 */
export function routeFromPath(pathname: string): RouteName | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return PATH_ROUTES[path] ?? null;
}

export type ActivationReminder = 'none' | 'alert' | 'modal';

export interface AlertPlan {
  /** ALR-01: no main image. */
  photo: boolean;
  /**
   * ALR-02: the push alert may show; the browser decides whether push is available and not yet
   * subscribed or denied, so the server renders it hidden.
   */
  push: boolean;
  /** ALR-03: some notifications are switched off. */
  notificationsDisabled: boolean;
  /**
   * ACT-02: unconfirmed e-mail reminder. `modal` when the page was reached with `api_signup_complete`
   * (a dialog on wider screens; below 768 px the alert shows instead).
   */
  activation: ActivationReminder;
}

export interface AlertInput {
  user: Pick<CurrentUser, 'status' | 'notifications_disabled'> & { profile: Pick<CurrentUser['profile'], 'status' | 'main_image'> };
  route: RouteName | null;
  dismissals: Dismissals;
  now: Date;
  /** The query parameter `api_signup_complete` is set. */
  signupComplete: boolean;
}

const NONE: AlertPlan = { photo: false, push: false, notificationsDisabled: false, activation: 'none' };

const hiddenOn = (list: readonly string[], route: RouteName | null) => route !== null && list.includes(route);

/** The banners for a signed-in member on a page; visitors get none (pass no input). */
export function planAlerts(input: AlertInput | null): AlertPlan {
  if (!input) return NONE;
  const { user, route, dismissals, now } = input;
  const disabled = user.notifications_disabled;
  const activationDue = user.status === 'not_confirmed' && user.profile.status === 'disabled' && disabled.length === 0 && !hiddenOn(HIDDEN_ON.activation, route);
  return {
    photo: user.profile.main_image === null && !hiddenOn(HIDDEN_ON.enrich, route) && !isDismissed(dismissals, 'enrich', now),
    push: !hiddenOn(HIDDEN_ON.push, route) && !isDismissed(dismissals, 'push', now),
    notificationsDisabled: disabled.length > 0 && !hiddenOn(HIDDEN_ON.notifications_disabled, route) && !isDismissed(dismissals, 'notifications_disabled', now, disabled),
    activation: activationDue ? (input.signupComplete ? 'modal' : 'alert') : 'none',
  };
}
