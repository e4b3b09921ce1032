/**
 * Warning banners and push in a real browser: the photo alert is dismissed and stays gone (ALR-01,
 * ALR-04), the activation reminder after signup is a modal on desktop and an alert on a smartphone
 * (ACT-02), the push service worker registers and the push alert shows when push is available
 * (PUSH-01, ALR-02) and stays small on a phone in long languages (ALR-02, LAY-01).
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { FULL_BROWSER } from './full-browser';

// Push is offered only where the browser can do it: the full browser, not the headless shell.
test.use(FULL_BROWSER);

/** A fresh member as after signup: unconfirmed, profile hidden, no photo; signed in in this browser. */
async function newMember(page: Page, context: BrowserContext) {
  const base = test.info().project.use.baseURL!;
  await context.addCookies([
    { name: 'lang', value: 'en', url: base },
    { name: 'entry_ok', value: '1', url: base },
  ]);
  const email = `alerts-${randomBytes(5).toString('hex')}@example.com`;
  const res = await page.request.post('/api/signup.php', {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
    data: { email, name: `Ivy${randomBytes(2).toString('hex')}`, password: 'browser passphrase 77', date_of_birth: '1991-07-09', gender: 'female', looking_for: 'male' },
  });
  expect(res.status()).toBe(201);
  return { email };
}

test('ALR-01 ALR-04 a member without a photo sees the photo alert, dismisses it, and it stays gone after a reload', async ({ page, context }) => {
  await newMember(page, context);
  await page.goto('/members');
  const alert = page.locator('[data-alert="enrich"]');
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('Add a profile photo');
  const dismissed = page.waitForResponse((r) => r.url().endsWith('/api/alert-dismiss.php') && r.status() === 200);
  await alert.getByRole('button', { name: 'Dismiss this notice' }).click();
  await dismissed;
  await expect(alert).toBeHidden();
  await page.reload();
  await expect(page.locator('[data-alert="enrich"]')).toHaveCount(0);
  // Not shown on the own profile page either way.
  await page.goto('/profile');
  await expect(page.locator('[data-alert="enrich"]')).toHaveCount(0);
});

test('ACT-02 after signup the activation reminder is a modal on desktop, closable, then the alert shows', async ({ page, context }) => {
  const { email } = await newMember(page, context);
  await page.goto('/members?api_signup_complete=1');
  const dialog = page.locator('dialog[data-activation-modal]');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(email);
  expect(await dialog.evaluate((d) => d.matches(':modal'))).toBe(true);
  await expect(page.locator('[data-activation-alert]')).toBeHidden();
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('[data-activation-alert]')).toBeVisible();
  // The one-off parameter is gone: a reload shows the alert, no modal.
  expect(new URL(page.url()).searchParams.has('api_signup_complete')).toBe(false);
  await page.reload();
  await expect(page.locator('dialog[data-activation-modal]')).toHaveCount(0);
  await expect(page.locator('[data-activation-alert]')).toBeVisible();
});

test('ACT-02 on a 360 px smartphone the activation reminder is an alert, never a modal; "send again" answers in place', async ({ page, context }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const { email } = await newMember(page, context);
  await page.goto('/members?api_signup_complete=1');
  const alert = page.locator('[data-activation-alert]');
  await expect(alert).toBeVisible();
  await expect(alert).toContainText(email);
  await expect(page.locator('dialog[data-activation-modal]')).toBeHidden();
  expect(await page.locator('dialog[data-activation-modal]').evaluate((d) => d.matches(':modal'))).toBe(false);
  // The signup mail was just sent: asking again is refused with a translated message, in place.
  await alert.getByRole('button', { name: 'Send the e-mail again' }).click();
  await expect(alert.locator('[data-activation-status]')).toHaveText('We just sent you an e-mail. You can request a new one in 10 minutes.');
  await expect(page).toHaveURL(/\/members/);
});

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

test('MEM-05 LAY-01 the fictional-profile disclaimer says it once per page, in the site’s own words', async ({ page, context }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await newMember(page, context);
  for (const path of ['/members', '/likes', '/settings']) {
    await page.goto(path);
    const disclaimer = page.locator('aside.disclaimer');
    await expect(disclaimer, path).toHaveCount(1);
    await expect(disclaimer, path).toContainText('adults (18+)');
    // The site's fictional_warning ("… physical contact with these profiles is not possible."), once on the page.
    // (What the page shows as text: a fictional card's badge carries the warning as its title, which is not shown.)
    expect(await page.evaluate(() => document.body.innerText.match(/physical contact/gi)?.length ?? 0), path).toBe(1);
    expect(await disclaimer.evaluate((el) => (el as HTMLElement).innerText.match(/physical contact/gi)?.length ?? 0), path).toBe(1);
  }
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
