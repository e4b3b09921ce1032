/**
 * NAV-04: the installed app has no browser back button, so profile, likes, credits and credit-payment
 * pages show one — only in standalone display mode, and only when there is history to go back to.
 */
export interface BackButtonElement {
  hidden: boolean;
  getAttribute(name: string): string | null;
  addEventListener(type: 'click', listener: () => void): void;
  removeEventListener(type: 'click', listener: () => void): void;
}

export interface BackButtonWindow {
  matchMedia(query: string): { matches: boolean };
  history: { length: number; back(): void };
  navigator: { standalone?: boolean };
}

/** Shows and wires the back button when the page allows it; returns the undo function. */
export function bindBackButton(button: BackButtonElement | null, win: BackButtonWindow): () => void {
  if (!button || button.getAttribute('data-back-button') !== 'eligible') return () => {};
  const standalone = win.matchMedia('(display-mode: standalone)').matches || win.navigator.standalone === true;
  if (!standalone || win.history.length <= 1) return () => {};
  const back = () => win.history.back();
  button.hidden = false;
  button.addEventListener('click', back);
  return () => {
    button.hidden = true;
    button.removeEventListener('click', back);
  };
}
