/**
 * Staff passkeys in Chromium with its virtual authenticator (PASS-01, OPS-04): a staff member adds a
 * passkey in the back office and then logs in with e-mail, password and the passkey instead of the
 * authenticator's code; adding and removing it are in the audit log; a wrong password with the right
 * passkey gets nowhere.
 */
import { expect, test, type Page } from '@playwright/test';
import { DEMO_STAFF_PASSWORD } from '../../src/demo/staff';
import { staffLogin } from './staff-login';

const OPERATOR = 'operator@demo.test';

async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', { options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true } });
}

async function withPasskey(page: Page, password: string) {
  await page.goto('/admin/login');
  await page.getByLabel('E-mail').fill(OPERATOR);
  await page.getByLabel('Password').fill(password);
  const button = page.getByRole('button', { name: 'Use a passkey instead of the code' });
  await expect(button).toBeEnabled();
  await button.click();
}

test('PASS-01 OPS-04 a staff member adds a passkey and uses it instead of the code; adding and removing it are audit-logged', async ({ page, context, browser }) => {
  // Four staff logins in two browsers (two by code, two by passkey).
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 360, height: 740 });
  await virtualAuthenticator(page);
  const url = test.info().project.use.baseURL!;
  await context.addCookies([{ name: 'lang', value: 'en', url }]);
  await page.goto('/admin/login');
  await staffLogin(page, OPERATOR);

  await page.getByRole('link', { name: 'Passkeys' }).click();
  await expect(page.getByRole('heading', { name: 'Your passkeys' })).toBeVisible();
  await page.getByLabel('Name (optional)').fill('Office laptop');
  const add = page.getByRole('button', { name: 'Add a passkey' });
  await expect(add).toBeEnabled();
  await add.click();
  await expect(page.locator('[data-staff-passkeys-notice]')).toHaveText('Passkey added.');
  await expect(page.locator('[data-staff-passkey-list]')).toContainText('Office laptop');
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  // Logged out, the passkey replaces the code; the password is still needed.
  await context.clearCookies({ name: 'staff_session' });
  await withPasskey(page, 'not-the-password');
  await expect(page.locator('[data-staff-login-error]')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login/);
  await withPasskey(page, DEMO_STAFF_PASSWORD);
  await expect(page).not.toHaveURL(/\/admin\/login/);

  await page.goto('/admin/passkeys');
  await page.getByRole('button', { name: 'Remove passkey Office laptop' }).click();
  await expect(page.locator('[data-staff-passkeys-notice]')).toHaveText('Passkey removed.');
  await expect(page.locator('[data-staff-passkeys-none]')).toBeVisible();

  // An admin reads it all in the audit log: the login by passkey, the passkey added and removed.
  const admin = await browser.newContext();
  await admin.addCookies([{ name: 'lang', value: 'en', url }]);
  const adminPage = await admin.newPage();
  await adminPage.goto('/admin/login');
  await staffLogin(adminPage, 'admin@demo.test');
  await adminPage.goto('/admin/audit');
  await expect(adminPage.locator('[data-audit-action="staff.passkey_add"]').first()).toBeVisible();
  await expect(adminPage.locator('[data-audit-action="staff.passkey_remove"]').first()).toBeVisible();
  await expect(adminPage.locator('[data-audit-action="staff.login"]').filter({ hasText: 'passkey' }).first()).toBeVisible();
  await admin.close();
});
