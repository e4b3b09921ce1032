/**
 * The tinderswipe lander before anyone touches it (PERF-02, LND-01): it loads no script until the visitor
 * acts, and the first action (a press of Like, a touch drag) loads the deck and still counts.
 */
import { expect, test, type BrowserContext } from '@playwright/test';
import { FULL_BROWSER } from './full-browser';

// The deck loads its code on the first pointer anywhere on the page, and these tests prove a page nobody
// touches loads none of it. The headless shell sends the page a pointer over its top left corner of its
// own after it lays out (decision 096): the full browser, like a visitor's, does not.
test.use(FULL_BROWSER);

async function speakEnglish(context: BrowserContext) {
  await context.addCookies([{ name: 'lang', value: 'en', url: test.info().project.use.baseURL! }]);
}

test('PERF-02 LND-01 the tinderswipe deck loads no script until the visitor acts, and keeps a like pressed before', async ({ page, context }) => {
  await speakEnglish(context);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/landers/tinderswipe');
  await page.waitForLoadState('load');
  // Nothing asked for the page's scripts yet: no React on a visit that never touches the page.
  await expect(page.locator('[data-swipe-card]')).toBeVisible();
  expect(scripts).toEqual([]);
  await expect(page.locator('[data-swipe][data-swipe-ready="true"]')).toHaveCount(0);
  // The first press of Like loads the deck and still counts once it is ready.
  const card = page.locator('[data-swipe-card]');
  const first = await card.getAttribute('data-swipe-card');
  const firstName = await card.locator('h2').textContent();
  await page.getByRole('button', { name: /^Like / }).click();
  await expect(page.locator('[aria-live="polite"]')).toHaveText(`You liked ${firstName}`);
  await expect(card).not.toHaveAttribute('data-swipe-card', first!);
  expect(scripts.some((path) => path.includes('TinderSwipe'))).toBe(true);
});

test.describe('on a 360 px phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  test('LND-01 PERF-02 the swipe deck works by touch, from the first touch on', async ({ page, context }) => {
    await speakEnglish(context);
    await page.goto('/landers/tinderswipe');
    const card = page.locator('[data-swipe-card]');
    await expect(card).toBeVisible();
    const first = await card.getAttribute('data-swipe-card');
    const box = (await card.boundingBox())!;
    const y = box.y + box.height / 2;
    // A real touch drag (Chromium's touch input, which the page sees as pointer events of type touch),
    // begun before the deck's code is there: the touch loads it (decision 048) and the drag it began is
    // handed over, so the finger that is still down swipes the card.
    await expect(page.locator('[data-swipe][data-swipe-ready="true"]')).toHaveCount(0);
    const cdp = await context.newCDPSession(page);
    const at = (x: number) => [{ x, y, id: 1 }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(box.x + 40) });
    await expect(page.locator('[data-swipe][data-swipe-ready="true"]')).toBeAttached();
    for (const x of [80, 140, 200, 260]) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(box.x + x) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect(card).not.toHaveAttribute('data-swipe-card', first!);
  });
});
