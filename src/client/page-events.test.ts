import { describe, expect, it } from 'vitest';
import { BOUNCE_DONE_KEY, installBounceLogging, installPageHiddenBeacon } from './page-events';

function fakeTarget() {
  const listeners = new Map<string, ((event: Event) => void)[]>();
  return {
    addEventListener: (type: string, listener: (event: Event) => void) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
    removeEventListener: (type: string, listener: (event: Event) => void) =>
      listeners.set(
        type,
        (listeners.get(type) ?? []).filter((l) => l !== listener),
      ),
    fire(type: string, event: object = {}) {
      for (const listener of listeners.get(type) ?? []) listener(event as Event);
    },
  };
}

function beaconRecorder() {
  const sent: { url: string; data: Blob }[] = [];
  return { sent, navigator: { sendBeacon: (url: string, data?: BodyInit | null) => (sent.push({ url, data: data as Blob }), true) } };
}

describe('page-hidden beacon', () => {
  it('CLI-06 sends an empty JSON body to /api/page-hidden.php when the page becomes hidden', async () => {
    const document = Object.assign(fakeTarget(), { visibilityState: 'visible' as DocumentVisibilityState });
    const { sent, navigator } = beaconRecorder();
    installPageHiddenBeacon({ document, navigator });

    document.fire('visibilitychange');
    expect(sent).toEqual([]);

    document.visibilityState = 'hidden';
    document.fire('visibilitychange');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe('/api/page-hidden.php');
    expect(sent[0]?.data.type).toBe('application/json');
    expect(await sent[0]?.data.text()).toBe('{}');
  });

  it('CLI-06 survives a browser without or with a failing sendBeacon', () => {
    const document = Object.assign(fakeTarget(), { visibilityState: 'hidden' as DocumentVisibilityState });
    installPageHiddenBeacon({ document, navigator: {} });
    installPageHiddenBeacon({
      document,
      navigator: {
        sendBeacon: () => {
          throw new TypeError('blocked');
        },
      },
    });
    expect(() => document.fire('visibilitychange')).not.toThrow();
  });
});

describe('bounce logging', () => {
  function setup(href: string, storage = new Map<string, string>()) {
    const url = new URL(href);
    const document = fakeTarget();
    const window = fakeTarget();
    const { sent, navigator } = beaconRecorder();
    let time = 10_000;
    const env = {
      location: { href: url.href, origin: url.origin, pathname: url.pathname, search: url.search },
      document,
      window,
      navigator,
      now: () => time,
      storage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v) },
    };
    installBounceLogging(env);
    return { document, window, sent, storage, advance: (ms: number) => (time += ms) };
  }

  const linkClick = (href: string) => ({
    defaultPrevented: false,
    button: 0,
    metaKey: false,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    target: { closest: () => ({ href, getAttribute: (n: string) => (n === 'href' ? href : null), hasAttribute: () => false }) },
  });

  it('CLI-05 with lb, leaving without navigating inside the site logs the bounce once with path and duration', async () => {
    const page = setup('http://site.test/landers/video/eng?lb=1');
    page.advance(4_321);
    page.window.fire('pagehide');
    page.window.fire('pagehide');
    expect(page.sent).toHaveLength(1);
    expect(page.sent[0]?.url).toBe('/api/page-bounce.php');
    expect(page.sent[0]?.data.type).toBe('application/json');
    expect(JSON.parse(await page.sent[0]!.data.text())).toEqual({ path: '/landers/video/eng', duration_ms: 4_321 });
  });

  it('CLI-05 without lb nothing is logged', () => {
    const page = setup('http://site.test/landers/video/eng?x=1');
    page.window.fire('pagehide');
    expect(page.sent).toEqual([]);
  });

  it('CLI-05 no bounce after an internal navigation (link or form), and not again in this tab', () => {
    const byLink = setup('http://site.test/?lb=1');
    byLink.document.fire('click', linkClick('http://site.test/signup'));
    byLink.window.fire('pagehide');
    expect(byLink.sent).toEqual([]);
    expect(byLink.storage.get(BOUNCE_DONE_KEY)).toBe('1');

    const back = setup('http://site.test/?lb=1', byLink.storage);
    back.window.fire('pagehide');
    expect(back.sent).toEqual([]);

    const byForm = setup('http://site.test/?lb=1');
    byForm.document.fire('submit', { defaultPrevented: false, target: { getAttribute: () => null } });
    byForm.window.fire('pagehide');
    expect(byForm.sent).toEqual([]);
  });

  it('CLI-05 a click to another site is still a bounce', () => {
    const page = setup('http://site.test/?lb=1');
    page.document.fire('click', linkClick('https://elsewhere.test/'));
    page.window.fire('pagehide');
    expect(page.sent).toHaveLength(1);
  });
});
