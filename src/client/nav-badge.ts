/**
 * NAV-01: keeps a navigation link's count badge (new likes) equal to a store: the text capped at 99+,
 * hidden at 0. The server renders the first value; the label template carries `{count}`.
 */
import type { ReadableAtom } from 'nanostores';
import { countBadge } from '../shared/badges';

export interface BadgeElement {
  hidden: boolean;
  textContent: string | null;
  dataset: { label?: string };
  setAttribute(name: string, value: string): void;
}

export function showCountBadge(badge: BadgeElement, n: number): void {
  const text = countBadge(n);
  badge.hidden = text === null;
  badge.textContent = text ?? '';
  if (badge.dataset.label) badge.setAttribute('aria-label', badge.dataset.label.replace('{count}', String(n)));
}

/** Binds `badge` to `$count`; returns the unbind function. */
export function bindCountBadge(badge: BadgeElement, $count: ReadableAtom<number>): () => void {
  return $count.subscribe((n) => showCountBadge(badge, n));
}
