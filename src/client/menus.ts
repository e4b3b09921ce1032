/**
 * The <details> menus (language, account, a conversation's row menu) close the way menus do: Escape
 * closes the open one and gives the focus back to its button, and a click or the focus moving outside
 * closes it. Without JavaScript they open and close by their own button as before.
 */
export interface MenuElement {
  open: boolean;
  contains(node: unknown): boolean;
  querySelector(selector: 'summary'): { focus(): void } | null;
}

export interface MenuDocument {
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
  querySelectorAll(selector: string): Iterable<MenuElement>;
}

/** The open menus. */
export const OPEN_MENUS = 'details.menu[open], details.chat-row-menu[open]';

export function bindMenus(doc: MenuDocument): () => void {
  const onKey = (event: Event) => {
    if ((event as KeyboardEvent).key !== 'Escape') return;
    for (const menu of doc.querySelectorAll(OPEN_MENUS)) {
      const hadFocus = menu.contains(event.target);
      menu.open = false;
      if (hadFocus) menu.querySelector('summary')?.focus();
    }
  };
  const onOutside = (event: Event) => {
    for (const menu of doc.querySelectorAll(OPEN_MENUS)) if (!menu.contains(event.target)) menu.open = false;
  };
  doc.addEventListener('keydown', onKey);
  doc.addEventListener('click', onOutside);
  doc.addEventListener('focusin', onOutside);
  return () => {
    doc.removeEventListener('keydown', onKey);
    doc.removeEventListener('click', onOutside);
    doc.removeEventListener('focusin', onOutside);
  };
}
