/**
 * NAV-01: keeps a navigation link's count badge (new likes) equal to a store: the text capped at 99+,
 * hidden at 0; NAV-02: the credits badge equal to the balance. The server renders the first value; `data-labels` holds the label's templates per plural
 * category of the page's language (`{"one": "{count} new like", "other": "{count} new likes"}`, UX-05).
 */
import type { ReadableAtom } from 'nanostores';
import { countBadge, creditBadge } from '../shared/badges';

export interface BadgeElement {
  hidden: boolean;
  textContent: string | null;
  dataset: { labels?: string };
  setAttribute(name: string, value: string): void;
}

/** Sets `badge`'s label to its template for `n` in the plural form `lang` uses. */
function label(badge: BadgeElement, n: number, lang: string): void {
  // The server gives a template for every plural category of the page's language.
  const labels = badge.dataset.labels;
  if (labels) badge.setAttribute('aria-label', (JSON.parse(labels) as Record<string, string>)[new Intl.PluralRules(lang).select(n)]!.replace('{count}', String(n)));
}

/** Shows `n` on `badge`, with its label in the plural form `lang` uses for `n`. */
export function showCountBadge(badge: BadgeElement, n: number, lang: string): void {
  const text = countBadge(n);
  badge.hidden = text === null;
  badge.textContent = text ?? '';
  label(badge, n, lang);
}

export interface CreditBadgeElement extends BadgeElement {
  className: string;
  removeAttribute(name: string): void;
}

/**
 * NAV-02: shows a paid member's balance on the credits badge as the server renders it: at 10 or less,
 * amber above 0 and red at 0 (`creditBadge`); hidden above 10.
 */
export function showCreditBadge(badge: CreditBadgeElement, credits: number, lang: string): void {
  const shown = creditBadge({ paid_user: true, credits });
  badge.hidden = shown === null;
  badge.textContent = shown?.text ?? '';
  badge.className = shown ? `badge rounded-pill bg-${shown.variant}${shown.variant === 'warning' ? ' text-dark' : ''}` : 'badge rounded-pill';
  if (shown) {
    badge.setAttribute('data-badge', 'credits');
    badge.setAttribute('data-variant', shown.variant);
    label(badge, credits, lang);
  } else {
    badge.removeAttribute('data-badge');
    badge.removeAttribute('data-variant');
    badge.removeAttribute('aria-label');
  }
}

/** Binds `badge` to `$count`; returns the unbind function. */
export function bindCountBadge(badge: BadgeElement, $count: ReadableAtom<number>, lang: string): () => void {
  return $count.subscribe((n) => showCountBadge(badge, n, lang));
}

/** Binds the credits badge to `$credits` (nothing while it is unknown); returns the unbind function. */
export function bindCreditBadge(badge: CreditBadgeElement, $credits: ReadableAtom<number | null>, lang: string): () => void {
  return $credits.subscribe((credits) => {
    if (credits !== null) showCreditBadge(badge, credits, lang);
  });
}

export interface BalanceElement {
  textContent: string | null;
  dataset: { labels?: string };
}

/** Says the balance as the credits pages do: the page's text for its plural form, the number formatted for `lang`. */
export function showBalance(element: BalanceElement, credits: number, lang: string): void {
  const labels = element.dataset.labels;
  if (!labels) return;
  const template = (JSON.parse(labels) as Record<string, string>)[new Intl.PluralRules(lang).select(credits)];
  if (template) element.textContent = template.replace('{{credits}}', new Intl.NumberFormat(lang).format(credits));
}

/** Binds a credits page's balance text to `$credits` (nothing while it is unknown); returns the unbind function. */
export function bindBalance(element: BalanceElement, $credits: ReadableAtom<number | null>, lang: string): () => void {
  return $credits.subscribe((credits) => {
    if (credits !== null) showBalance(element, credits, lang);
  });
}
