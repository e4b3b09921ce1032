/**
 * The signed-in member's credit balance (`$credits`, CRD-01): one home for the number the navigation's
 * credits badge (NAV-02, bound at boot), the chat's composer and the credits pages show. The server
 * renders the first value; a send in the chat that spends credits sets the balance its answer carries,
 * and a reload of the member (CLI-08) sets theirs, so every place follows.
 */
import { atom } from 'nanostores';

/** The balance, or null before anything on the page said it (a visitor's page). */
export const $credits = atom<number | null>(null);

/** The balance as it is now (an answer of the server). */
export function setCredits(credits: number): void {
  if (Number.isFinite(credits)) $credits.set(credits);
}

/**
 * The balance the page was rendered with: taken only when none is known yet, so a value an answer
 * brought meanwhile (a send made before the boot script ran) is not overwritten by an older one.
 */
export function initCredits(credits: number): void {
  if ($credits.get() === null) setCredits(credits);
}
