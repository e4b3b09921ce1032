import { atom } from 'nanostores';
import { describe, expect, it } from 'vitest';
import { bindOfflineBanner, trackConnectivity } from './connectivity';

function fakeWindow(onLine: boolean) {
  const target = new EventTarget();
  return {
    navigator: { onLine },
    addEventListener: (type: string, listener: (event: Event) => void) => target.addEventListener(type, listener),
    removeEventListener: (type: string, listener: (event: Event) => void) => target.removeEventListener(type, listener),
    go(onLine: boolean) {
      this.navigator.onLine = onLine;
      target.dispatchEvent(new Event(onLine ? 'online' : 'offline'));
    },
  };
}

describe('connectivity', () => {
  it('CLI-07 tracks online/offline and shows the offline banner only while offline', () => {
    const win = fakeWindow(true);
    const $online = atom(false);
    const banner = { hidden: false };
    trackConnectivity(win, $online);
    bindOfflineBanner(banner, $online);
    expect($online.get()).toBe(true);
    expect(banner.hidden).toBe(true);

    win.go(false);
    expect($online.get()).toBe(false);
    expect(banner.hidden).toBe(false);

    win.go(true);
    expect($online.get()).toBe(true);
    expect(banner.hidden).toBe(true);
  });

  it('CLI-07 starts offline when the browser is offline at load', () => {
    const $online = atom(true);
    const banner = { hidden: true };
    trackConnectivity(fakeWindow(false), $online);
    bindOfflineBanner(banner, $online);
    expect(banner.hidden).toBe(false);
  });

  it('CLI-07 stops following events after unbinding', () => {
    const win = fakeWindow(true);
    const $online = atom(true);
    const stop = trackConnectivity(win, $online);
    stop();
    win.go(false);
    expect($online.get()).toBe(true);
  });
});
