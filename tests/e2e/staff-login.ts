/**
 * Logs a demo staff account in on a page showing the staff login form. A code is good once per account,
 * and several specs log the same demo accounts in within a minute: the server accepts the step before
 * and after this one too, so the first of those three codes no spec has used yet gets in.
 */
import { expect, type Page } from '@playwright/test';
import { totpCode } from '../../src/server/staff/accounts';
import { DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET } from '../../src/demo/staff';

export async function staffLogin(page: Page, email: string): Promise<void> {
  for (const offset of [-30_000, 0, 30_000]) {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(DEMO_STAFF_PASSWORD);
    await page.getByLabel('Code from your authenticator app').fill(totpCode(DEMO_TOTP_SECRET, new Date(Date.now() + offset)));
    // The form posts and the browser navigates: to where the login leads, or to the form again.
    await Promise.all([page.waitForEvent('framenavigated'), page.getByRole('button', { name: 'Log in' }).click()]);
    await page.waitForLoadState('load');
    if (!new URL(page.url()).pathname.startsWith('/admin/login')) return;
  }
  await expect(page, `${email} could not log in with any of the three codes`).not.toHaveURL(/\/admin\/login/);
}
