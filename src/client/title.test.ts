import { atom } from 'nanostores';
import { describe, expect, it } from 'vitest';
import { bindDocumentTitle, titleWithCount } from './title';

describe('document title count', () => {
  it('NAV-06 prefixes (n) when n > 0 and leaves the title alone at 0', () => {
    expect(titleWithCount('Leden', 3)).toBe('(3) Leden');
    expect(titleWithCount('Leden', 0)).toBe('Leden');
    expect(titleWithCount('(4) Leden', 2)).toBe('(2) Leden');
  });

  it('NAV-06 keeps document.title in step with the count, without a double prefix', () => {
    const doc = { title: 'Chats - Site' };
    const $count = atom(0);
    const unbind = bindDocumentTitle(doc, $count);
    expect(doc.title).toBe('Chats - Site');
    $count.set(2);
    expect(doc.title).toBe('(2) Chats - Site');
    $count.set(12);
    expect(doc.title).toBe('(12) Chats - Site');
    $count.set(0);
    expect(doc.title).toBe('Chats - Site');
    unbind();
    $count.set(5);
    expect(doc.title).toBe('Chats - Site');
  });

  it('NAV-06 uses the given base title and adopts a title that page code set later', () => {
    const doc = { title: '(9) stale' };
    const $count = atom(1);
    bindDocumentTitle(doc, $count, 'Likes');
    expect(doc.title).toBe('(1) Likes');
    doc.title = 'Profile of Anna';
    $count.set(4);
    expect(doc.title).toBe('(4) Profile of Anna');
  });
});
