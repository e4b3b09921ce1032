/**
 * Logs a demo staff account in on a page showing the staff login form. A code is good once per account:
 * the server takes a code of the step before, the current or the next 30-second step, and only of a step
 * newer than the last one that account logged in with. Several specs log the same demo accounts in
 * within a minute, so this worker remembers the newest step it used per account and sends the oldest one
 * the server will still take. A fourth login of one account within 30 seconds waits for the clock to reach
 * the step before its code's (the server's rule is about time, so time is what there is to wait for).
 */
import { expect, test, type Page } from '@playwright/test';
import { totpCode } from '../../src/server/staff/accounts';
import { DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET } from '../../src/demo/staff';

const STEP_MS = 30_000;
/** Per server and account, the newest step a login from this worker sent (used or refused, it is spent either way). */
const lastStep = new Map<string, number>();

export async function staffLogin(page: Page, email: string): Promise<void> {
  const account = `${new URL(page.url()).origin} ${email}`;
  let step = Math.max(Math.floor(Date.now() / STEP_MS) - 1, (lastStep.get(account) ?? -Infinity) + 1);
  // Three tries: a step another worker (or a spec before a worker restart) spent is refused, the next is not.
  for (let attempt = 0; attempt < 3; attempt++, step++) {
    const wait = (step - 1) * STEP_MS - Date.now();
    if (wait > 0) {
      test.setTimeout(test.info().timeout + wait);
      await page.waitForTimeout(wait + 50);
    }
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(DEMO_STAFF_PASSWORD);
    await page.getByLabel('Code from your authenticator app').fill(totpCode(DEMO_TOTP_SECRET, new Date(step * STEP_MS + STEP_MS / 2)));
    lastStep.set(account, step);
    // The form posts and the browser navigates: to where the login leads, or to the form again.
    await Promise.all([page.waitForEvent('framenavigated'), page.getByRole('button', { name: 'Log in' }).click()]);
    await page.waitForLoadState('load');
    if (!new URL(page.url()).pathname.startsWith('/admin/login')) return;
  }
  await expect(page, `${email} could not log in with any of three codes`).not.toHaveURL(/\/admin\/login/);
}
