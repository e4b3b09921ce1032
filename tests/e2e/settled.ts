import type { Page } from '@playwright/test';

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
