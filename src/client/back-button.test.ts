import { describe, expect, it, vi } from 'vitest';
import { bindBackButton, type BackButtonElement } from './back-button';

function button(eligible: boolean) {
  const listeners: Array<() => void> = [];
  const el: BackButtonElement & { click(): void } = {
    hidden: true,
    getAttribute: (name) => (name === 'data-back-button' ? (eligible ? 'eligible' : 'no') : null),
    addEventListener: (_t, l) => void listeners.push(l),
    removeEventListener: () => {},
    click: () => listeners.forEach((l) => l()),
  };
  return el;
}
const win = (standalone: boolean, length: number) => ({
  matchMedia: () => ({ matches: standalone }),
  history: { length, back: vi.fn() },
  navigator: {},
});

describe('back button', () => {
  it('NAV-04 shows in the installed app on an eligible page with history, and goes back', () => {
    const el = button(true);
    const w = win(true, 3);
    bindBackButton(el, w);
    expect(el.hidden).toBe(false);
    el.click();
    expect(w.history.back).toHaveBeenCalledOnce();
  });

  it('NAV-04 stays hidden in a browser tab, without history, or on other pages', () => {
    for (const [el, w] of [
      [button(true), win(false, 3)],
      [button(true), win(true, 1)],
      [button(false), win(true, 3)],
    ] as const) {
      bindBackButton(el, w);
      expect(el.hidden).toBe(true);
    }
  });
});
