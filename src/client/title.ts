/**
 * NAV-06: the document title is prefixed with `(n)`, n = unread messages + new likes, when n > 0.
 */
import type { ReadableAtom } from 'nanostores';

const COUNT_PREFIX = /^\(\d+\)\s+/;

/** `(n) Title` when n > 0, else `Title`. A count prefix already on `baseTitle` is replaced, never doubled. */
export function titleWithCount(baseTitle: string, n: number): string {
  const base = baseTitle.replace(COUNT_PREFIX, '');
  return n > 0 ? `(${n}) ${base}` : base;
}

/**
 * Keeps `doc.title` prefixed with the count of `$count`. The base title is the page's title at bind
 * time (or `baseTitle`); if other code sets a new title later, that becomes the base. Returns the unbind
 * function.
 */
export function bindDocumentTitle(doc: { title: string }, $count: ReadableAtom<number>, baseTitle?: string): () => void {
  let base = (baseTitle ?? doc.title).replace(COUNT_PREFIX, '');
  let written: string | undefined;
  return $count.subscribe((n) => {
    if (written !== undefined && doc.title !== written) base = doc.title.replace(COUNT_PREFIX, '');
    written = titleWithCount(base, n);
    doc.title = written;
  });
}
