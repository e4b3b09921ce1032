import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bindLoadingBarToNavigation, createLoadingBar, type LoadingBar, type NavigationWindow } from './loading-bar';
import type { Clock } from './refresh';

const clock: Clock = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

function fakeElement() {
  const styles = new Map<string, string>();
  const attributes = new Map<string, string>();
  const shownAt: number[] = [];
  let hidden = true;
  return {
    styles,
    attributes,
    shownAt,
    get hidden() {
      return hidden;
    },
    set hidden(value: boolean) {
      if (hidden && !value) shownAt.push(Date.now());
      hidden = value;
    },
    style: { setProperty: (name: string, value: string) => void styles.set(name, value) },
    setAttribute: (name: string, value: string) => void attributes.set(name, value),
  };
}

beforeEach(() => vi.useFakeTimers({ now: 0 }));
afterEach(() => vi.useRealTimers());

describe('loading bar', () => {
  it('NAV-07 is not shown before 200 ms of loading, and shown after, running a 5,000 ms animation towards 90 %', () => {
    const element = fakeElement();
    const bar = createLoadingBar(element, clock);
    bar.start();
    vi.advanceTimersByTime(199);
    expect(element.hidden).toBe(true);
    vi.advanceTimersByTime(1);
    expect(element.hidden).toBe(false);
    expect(element.styles.get('--loading-duration')).toBe('5000ms');
    expect(element.styles.get('width')).toBe('90%');
    expect(element.attributes.get('aria-valuenow')).toBe('90');
  });

  it('NAV-07 never shows when loading finishes within 200 ms', () => {
    const element = fakeElement();
    const bar = createLoadingBar(element, clock);
    bar.start();
    vi.advanceTimersByTime(150);
    bar.done();
    vi.advanceTimersByTime(10_000);
    expect(element.shownAt).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('NAV-07 completes to 100 % on done and hides 500 ms later', () => {
    const element = fakeElement();
    const bar = createLoadingBar(element, clock);
    bar.start();
    vi.advanceTimersByTime(1_000);
    bar.done();
    expect(element.styles.get('width')).toBe('100%');
    expect(element.attributes.get('aria-valuenow')).toBe('100');
    vi.advanceTimersByTime(499);
    expect(element.hidden).toBe(false);
    vi.advanceTimersByTime(1);
    expect(element.hidden).toBe(true);
    expect(element.styles.get('width')).toBe('0%');
  });

  it('NAV-07 a second start while running is harmless', () => {
    const element = fakeElement();
    const bar = createLoadingBar(element, clock);
    bar.start();
    vi.advanceTimersByTime(100);
    bar.start();
    vi.advanceTimersByTime(100);
    expect(element.shownAt).toEqual([200]);
    bar.start();
    expect(vi.getTimerCount()).toBe(0);
    bar.done();
    vi.advanceTimersByTime(500);
    expect(element.hidden).toBe(true);
  });

  it('NAV-07 a new load during the hide delay restarts the bar instead of hiding it', () => {
    const element = fakeElement();
    const bar = createLoadingBar(element, clock);
    bar.start();
    vi.advanceTimersByTime(300);
    bar.done();
    vi.advanceTimersByTime(200);
    bar.start();
    vi.advanceTimersByTime(1_000);
    expect(element.hidden).toBe(false);
    expect(element.styles.get('width')).toBe('90%');
  });
});

describe('loading bar on navigation', () => {
  function fakeWindow() {
    const listeners = new Map<string, ((event: Event) => void)[]>();
    const win: NavigationWindow & { fire(type: string, event: object): void } = {
      location: { href: 'http://site.test/members?page=2', origin: 'http://site.test', pathname: '/members', search: '?page=2' },
      addEventListener: (type, listener) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
      removeEventListener: (type, listener) =>
        listeners.set(
          type,
          (listeners.get(type) ?? []).filter((l) => l !== listener),
        ),
      fire: (type, event) => {
        for (const listener of listeners.get(type) ?? []) listener(event as Event);
      },
    };
    return win;
  }

  function click(href: string, attributes: Record<string, string> = {}, modifiers: Partial<MouseEvent> = {}) {
    const anchor = {
      href: new URL(href, 'http://site.test/members?page=2').href,
      getAttribute: (name: string) => (name === 'href' ? href : (attributes[name] ?? null)),
      hasAttribute: (name: string) => name in attributes,
    };
    return { defaultPrevented: false, button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false, target: { closest: () => anchor }, ...modifiers };
  }

  function bound() {
    const win = fakeWindow();
    const bar: LoadingBar = { start: vi.fn(), done: vi.fn(), visible: false };
    bindLoadingBarToNavigation(win, bar);
    return { win, bar };
  }

  it('NAV-07 starts on a same-origin link click', () => {
    const { win, bar } = bound();
    win.fire('click', click('/chats'));
    win.fire('click', click('/members?page=3'));
    expect(bar.start).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['another origin', click('https://other.test/')],
    ['target=_blank', click('/chats', { target: '_blank' })],
    ['download', click('/pages/terms', { download: '' })],
    ['hash-only', click('#top')],
    ['same page with a hash', click('/members?page=2#results')],
    ['ctrl-click', click('/chats', {}, { ctrlKey: true })],
    ['meta-click', click('/chats', {}, { metaKey: true })],
    ['middle button', click('/chats', {}, { button: 1 })],
    ['a click page code handled', click('/chats', {}, { defaultPrevented: true })],
    ['mailto', click('mailto:support@site.test')],
  ])('NAV-07 does not start for %s', (_name, event) => {
    const { win, bar } = bound();
    win.fire('click', event);
    expect(bar.start).not.toHaveBeenCalled();
  });

  it('NAV-07 starts on a form submit and finishes on pageshow', () => {
    const { win, bar } = bound();
    win.fire('submit', { defaultPrevented: false, target: { getAttribute: () => null } });
    expect(bar.start).toHaveBeenCalledTimes(1);
    win.fire('submit', { defaultPrevented: true, target: { getAttribute: () => null } });
    expect(bar.start).toHaveBeenCalledTimes(1);
    win.fire('pageshow', {});
    expect(bar.done).toHaveBeenCalledTimes(1);
  });
});
