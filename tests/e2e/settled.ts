import type { Page, Request } from '@playwright/test';

/**
 * Waits until the page's main thread has finished what was queued (hydration, effects, what they
 * report): a frame, then an idle period.
 *
 * A page that is not drawn gets no frames, and a busy one may get no idle period for a while, so the
 * frame is awaited only while the page is visible and the idle callback is given a deadline
 * (`timeout`: Chromium calls it then even without idle time). A page whose main thread never comes
 * back (a script in a loop) fails with its address after `limitMs` instead of running the test out:
 * once on CI (2026-11-26) a tab of page-types' three parallel ones waited until the test's three minutes
 * were up, and nothing said which page it was.
 */
export async function settled(page: Page, limitMs = 20_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${page.url()} did not settle within ${limitMs} ms: its main thread never got to a frame and an idle period`)), limitMs);
  });
  const quiet = page.evaluate(
    () =>
      new Promise<void>((done) => {
        const idle = () => requestIdleCallback(() => done(), { timeout: 1_000 });
        if (document.visibilityState === 'visible') requestAnimationFrame(idle);
        else idle();
      }),
  );
  quiet.catch(() => {}); // once `stuck` has failed the test, the evaluate ends with the page
  try {
    await Promise.race([quiet, stuck]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Follows the requests of `page` from now on (but its event streams); `quiet()` resolves once none has
 * been in flight for 500 ms, as Playwright's `networkidle` does, but fails after `limitMs` naming the page and the
 * requests still open, instead of waiting out the test (once in three runs on 2026-11-27 a tab of
 * page-types waited its three minutes for `networkidle`, and nothing said which page or request).
 */
export function watchRequests(page: Page): { quiet(limitMs?: number): Promise<void> } {
  const open = new Set<Request>();
  let changed: () => void = () => {};
  const change = () => changed();
  page.on('request', (request) => {
    // A member page's live stream (/api/events.php) stays open as long as the page: not start-up work.
    if (request.resourceType() === 'eventsource') return;
    open.add(request);
    change();
  });
  const close = (request: Request) => {
    open.delete(request);
    change();
  };
  page.on('requestfinished', close);
  page.on('requestfailed', close);
  return {
    async quiet(limitMs = 20_000) {
      const deadline = Date.now() + limitMs;
      for (;;) {
        // Quiet: nothing open, and nothing new for 500 ms.
        const quietFor = open.size === 0 ? 500 : deadline - Date.now();
        const outcome = await new Promise<'changed' | 'quiet'>((resolve) => {
          const timer = setTimeout(() => resolve('quiet'), Math.max(0, Math.min(quietFor, deadline - Date.now())));
          changed = () => {
            clearTimeout(timer);
            resolve('changed');
          };
        });
        changed = () => {};
        if (outcome === 'quiet' && open.size === 0) return;
        if (Date.now() >= deadline) {
          throw new Error(`${page.url()}: the network did not go quiet within ${limitMs} ms; still open: ${[...open].map((r) => r.url()).join(', ')}`);
        }
      }
    },
  };
}
