/**
 * CLI-07: online/offline status is tracked (`$online`) and shown (the offline banner).
 */
import type { ReadableAtom, WritableAtom } from 'nanostores';

export interface ConnectivityWindow {
  navigator: { readonly onLine: boolean };
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
}

/** Sets `$online` from `navigator.onLine` now and on every `online`/`offline` event. Returns the unbind function. */
export function trackConnectivity(win: ConnectivityWindow, $online: WritableAtom<boolean>): () => void {
  const update = () => $online.set(win.navigator.onLine);
  update();
  win.addEventListener('online', update);
  win.addEventListener('offline', update);
  return () => {
    win.removeEventListener('online', update);
    win.removeEventListener('offline', update);
  };
}

/** Shows `element` (removes `hidden`) while offline, hides it while online. Returns the unbind function. */
export function bindOfflineBanner(element: { hidden: boolean }, $online: ReadableAtom<boolean>): () => void {
  return $online.subscribe((online) => {
    element.hidden = online;
  });
}
