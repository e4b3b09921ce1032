/**
 * NAV-01: keeps a navigation link's count badge (new likes) equal to a store: the text capped at 99+,
 * hidden at 0. The server renders the first value; `data-labels` holds the label's templates per plural
 * category of the page's language (`{"one": "{count} new like", "other": "{count} new likes"}`, UX-05).
 */
import type { ReadableAtom } from 'nanostores';
import { countBadge } from '../shared/badges';

export interface BadgeElement {
  hidden: boolean;
  textContent: string | null;
  dataset: { labels?: string };
  setAttribute(name: string, value: string): void;
}

/** Shows `n` on `badge`, with its label in the plural form `lang` uses for `n`. */
export function showCountBadge(badge: BadgeElement, n: number, lang: string): void {
  const text = countBadge(n);
  badge.hidden = text === null;
  badge.textContent = text ?? '';
  // The server gives a template for every plural category of the page's language.
  const labels = badge.dataset.labels;
  if (labels) badge.setAttribute('aria-label', (JSON.parse(labels) as Record<string, string>)[new Intl.PluralRules(lang).select(n)]!.replace('{count}', String(n)));
}

/** Binds `badge` to `$count`; returns the unbind function. */
export function bindCountBadge(badge: BadgeElement, $count: ReadableAtom<number>, lang: string): () => void {
  return $count.subscribe((n) => showCountBadge(badge, n, lang));
}
