/**
 * Push in a real browser: the push service worker registers and the push alert shows when push is
 * available (PUSH-01, ALR-02), takes its place among the banners by priority on a phone (ALR-01, ALR-02,
 * ACT-02, LAY-01) and stays small there in long languages (ALR-02, LAY-01).
 */
import { expect, test } from '@playwright/test';
import { FULL_BROWSER } from './full-browser';
import { newMember } from './new-member';

// Push is offered only where the browser can do it: the full browser, not the headless shell.
test.use(FULL_BROWSER);

test('PUSH-01 ALR-02 a member’s browser registers the push service worker and is offered push where it is available', async ({ page, context }) => {
  await context.grantPermissions(['notifications']);
  await newMember(page, context);
  await page.goto('/members');
  const scriptURL = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? null);
  expect(scriptURL).toMatch(/\/sw\.js$/);
  const push = page.locator('[data-alert="push"]');
  await expect(push).toBeVisible();
  await expect(push.getByRole('button', { name: 'Turn on' })).toBeVisible();
  // Dismissed, it stays hidden after a reload.
  await push.getByRole('button', { name: 'Dismiss this notice' }).click();
  await expect(push).toBeHidden();
  await page.reload();
  await expect(page.locator('[data-alert="push"]')).toHaveCount(0);
});

test('ALR-01 ALR-02 ACT-02 LAY-01 on a 360 px phone one banner shows at a time, by priority; "n more" opens the others; dismissing one brings the next', async ({ page, context }) => {
  await context.grantPermissions(['notifications']);
  await page.setViewportSize({ width: 360, height: 740 });
  await newMember(page, context);
  await page.goto('/members');
  const banners = page.locator('[data-alerts] > :is([data-activation-alert], [data-time-bonus], [data-alert])');
  const visible = () =>
    banners.evaluateAll((all) =>
      all.filter((b) => b.getClientRects().length > 0).map((b) => (b as HTMLElement).dataset.alert ?? ('activationAlert' in (b as HTMLElement).dataset ? 'activation' : 'time_bonus')),
    );
  // An unconfirmed member without a photo, signed up just now: the activation reminder outranks the time
  // bonus, push and photo.
  await expect(page.locator('[data-alert="push"]')).not.toHaveAttribute('hidden');
  await expect.poll(visible).toEqual(['activation']);
  const more = page.locator('[data-banner-more]');
  await expect(more).toHaveText('3 more notices');
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await more.click();
  // The others, in their order of priority.
  await expect.poll(visible).toEqual(['activation', 'time_bonus', 'push', 'enrich']);
  await expect(more).toBeHidden();
  // Dismissed, the push alert leaves the queue; a fresh page is one banner again, the rest behind "n more".
  await page.locator('[data-alert="push"]').getByRole('button', { name: 'Dismiss this notice' }).click();
  await expect.poll(visible).toEqual(['activation', 'time_bonus', 'enrich']);
  await page.reload();
  await expect.poll(visible).toEqual(['activation']);
  await expect(more).toHaveText('2 more notices');
  // From 768 px the banners stack and there is no "more" control.
  await page.setViewportSize({ width: 1024, height: 800 });
  await expect.poll(visible).toEqual(['activation', 'time_bonus', 'enrich']);
  await expect(more).toBeHidden();
});

test.describe('on a phone', () => {
  const PHONE = { width: 360, height: 740 };
  test.use({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

  test('ALR-02 LAY-01 the push banner on a phone stays below 15 % of the screen, in English, German and Finnish', async ({ page, context }) => {
    await context.grantPermissions(['notifications']);
    await newMember(page, context);
    for (const lang of ['en', 'de', 'fi']) {
      await context.addCookies([{ name: 'lang', value: lang, url: test.info().project.use.baseURL! }]);
      await page.goto('/members');
      const push = page.locator('[data-alert="push"]');
      // On a phone one banner shows at a time (the activation reminder comes first): "n more" opens the rest.
      await page.locator('[data-banner-more]').click();
      await expect(push, lang).toBeVisible();
      const height = (await push.boundingBox())!.height;
      expect(height, `${lang}: push banner ${height} px of ${PHONE.height}`).toBeLessThan(PHONE.height * 0.15);
      // Its action and its close button stay usable: on the screen, at least 24 px tall (WCAG 2.5.8).
      for (const control of [push.locator('[data-push-enable]'), push.getByRole('button', { name: /./ }).last()]) {
        const r = (await control.boundingBox())!;
        expect(r.x + r.width, lang).toBeLessThanOrEqual(PHONE.width);
        expect(r.height, lang).toBeGreaterThanOrEqual(24);
      }
    }
  });
});
