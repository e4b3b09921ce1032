/** Navigation badge rules (NAV-01, NAV-02). Pure, so the server render and the islands agree. */

/** Unread messages / new likes: nothing at 0, the number up to 99, then '99+'. */
export function countBadge(n: number): string | null {
  if (!Number.isFinite(n) || n <= 0) return null;
  return n > 99 ? '99+' : String(Math.floor(n));
}

export type CreditBadge = { text: string; variant: 'warning' | 'danger' } | null;

/** Paid users see their balance when it is 10 or less: warning above 0, danger at 0. */
export function creditBadge(user: { paid_user: boolean; credits: number }): CreditBadge {
  if (!user.paid_user || user.credits > 10) return null;
  return { text: String(Math.max(0, user.credits)), variant: user.credits > 0 ? 'warning' : 'danger' };
}

/** Where the credits entry leads (NAV-02): paid users repeat their order; others get premium by buying credits. */
export function creditsEntry(user: { paid_user: boolean }): { href: string; kind: 'credits' | 'premium' } {
  return user.paid_user ? { href: '/credits/repeat-order', kind: 'credits' } : { href: '/credits', kind: 'premium' };
}
