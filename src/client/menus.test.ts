import { describe, expect, it } from 'vitest';
import { bindMenus, OPEN_MENUS, type MenuDocument, type MenuElement } from './menus';

type Listener = (event: Event) => void;

function fakeMenu(name: string) {
  const summary = {
    focused: false,
    focus() {
      this.focused = true;
    },
  };
  const inside = { name: `${name}-item` };
  const menu: MenuElement & { summary: typeof summary; inside: object } = {
    open: true,
    summary,
    inside,
    contains: (node) => node === inside || node === summary,
    querySelector: () => summary,
  };
  return menu;
}

function fakeDocument(menus: ReturnType<typeof fakeMenu>[]) {
  const listeners = new Map<string, Set<Listener>>();
  const doc: MenuDocument & { fire(type: string, event: Partial<KeyboardEvent>): void; count(): number } = {
    addEventListener: (type, l) => void (listeners.get(type) ?? listeners.set(type, new Set()).get(type)!).add(l),
    removeEventListener: (type, l) => void listeners.get(type)?.delete(l),
    querySelectorAll: (selector) => {
      expect(selector).toBe(OPEN_MENUS);
      return menus.filter((m) => m.open);
    },
    fire: (type, event) => listeners.get(type)?.forEach((l) => l(event as Event)),
    count: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
  };
  return doc;
}

describe('menus', () => {
  it('LOOK-01 Escape closes the open menu and gives the focus back to its button', () => {
    const language = fakeMenu('language');
    const doc = fakeDocument([language]);
    bindMenus(doc);
    doc.fire('keydown', { key: 'Enter', target: language.inside as EventTarget });
    expect(language.open).toBe(true);
    doc.fire('keydown', { key: 'Escape', target: language.inside as EventTarget });
    expect(language.open).toBe(false);
    expect(language.summary.focused).toBe(true);
  });

  it('LOOK-01 a click or the focus outside closes a menu; inside it stays open', () => {
    const account = fakeMenu('account');
    const row = fakeMenu('row');
    const doc = fakeDocument([account, row]);
    const unbind = bindMenus(doc);
    doc.fire('click', { target: row.inside as EventTarget });
    expect(row.open).toBe(true);
    expect(account.open).toBe(false);
    doc.fire('focusin', { target: {} as EventTarget });
    expect(row.open).toBe(false);
    expect(account.summary.focused).toBe(false);
    unbind();
    expect(doc.count()).toBe(0);
  });
});
