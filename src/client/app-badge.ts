/**
 * CLI-09: the installed app's badge shows unread messages + new likes. Badging is optional in browsers;
 * a missing API or any failure is ignored (SPEC §8).
 */
import type { ReadableAtom } from 'nanostores';

/** The Badging API part of `navigator`; both methods may be missing. */
export interface BadgeNavigator {
  setAppBadge?: (contents?: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
}

/** Shows `n` on the app badge (clears it at 0). Never throws or rejects. */
export function showAppBadge(nav: BadgeNavigator, n: number): void {
  try {
    const pending = n > 0 ? nav.setAppBadge?.(n) : nav.clearAppBadge ? nav.clearAppBadge() : nav.setAppBadge?.(0);
    Promise.resolve(pending).catch(() => undefined);
  } catch {
    // Not allowed here (no installed app, permissions policy, …): nothing to do.
  }
}

/** Keeps the app badge equal to `$count`. Returns the unbind function. */
export function bindAppBadge(nav: BadgeNavigator, $count: ReadableAtom<number>): () => void {
  return $count.subscribe((n) => showAppBadge(nav, n));
}
