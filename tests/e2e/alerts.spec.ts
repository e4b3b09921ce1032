/**
 * Warning banners in a real browser: the photo alert is dismissed and stays gone (ALR-01, ALR-04), the
 * activation reminder after signup is a modal on desktop and an alert on a smartphone (ACT-02), and the
 * fictional-profile disclaimer says it once (MEM-05). Push and the banners it joins: push.spec.ts.
 */
import { expect, test } from '@playwright/test';
import { newMember } from './new-member';

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

test('MEM-05 LAY-01 the fictional-profile disclaimer says it once per page, in the site’s own words, beside the mark it names', async ({ page, context }) => {
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
    // "Profiles with this icon …" shows the icon: the fictional cards' mark, same look, just before the sentence.
    const mark = disclaimer.locator('[data-disclaimer-mark]');
    await expect(mark, path).toBeVisible();
    await expect(mark, path).toHaveText('fictional profile');
    expect(await mark.evaluate((el) => (el.nextSibling?.textContent ?? '').trim().startsWith('Profiles with this icon')), path).toBe(true);
    await expect(mark, path).toHaveClass(/\bmember-mark-fictional\b/);
    await expect(mark, path).not.toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
  }
});
