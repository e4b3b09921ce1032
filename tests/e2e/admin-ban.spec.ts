/**
 * A ban in a real browser (issue 12, OPS-01): a member is in the members area; a moderator logs in with
 * password and authenticator code, finds the member by e-mail and bans them with a reason; the member's
 * next page is a visitor's (the session is over), and logging in again ends on the ban page.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { staffLogin } from './staff-login';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

test("OPS-01 OPS-04 a moderator bans a member: the member's session ends and a new login shows the ban page", async ({ browser, baseURL }) => {
  const memberContext = await browser.newContext();
  const staffContext = await browser.newContext();
  try {
    for (const context of [memberContext, staffContext])
      await context.addCookies([
        { name: 'lang', value: 'en', url: baseURL! },
        { name: 'entry_ok', value: '1', url: baseURL! },
      ]);
    // A member of its own (the demo accounts serve the other specs).
    const member = await memberContext.newPage();
    const email = `banned-${randomBytes(5).toString('hex')}@example.com`;
    const password = 'a ban test passphrase 2026';
    const signup = await member.request.post('/api/signup.php', {
      headers: XHR,
      data: { email, name: `Ben${randomBytes(2).toString('hex')}`, password, date_of_birth: '1991-07-08', gender: 'male', looking_for: 'female' },
    });
    expect(signup.status()).toBe(201);
    await member.goto('/members');
    await expect(member.getByRole('navigation', { name: 'Main navigation' }).locator('[data-nav="messages"]')).toBeVisible();

    // The moderator finds the member and bans them, by keyboard-friendly forms.
    const staff = await staffContext.newPage();
    await staff.goto('/admin/members');
    await staffLogin(staff, 'moderator@demo.test');
    await expect(staff).toHaveURL(/\/admin\/members$/);
    await staff.getByLabel('E-mail, name or id').fill(email);
    await staff.keyboard.press('Enter');
    await staff.locator('[data-member-hits] a').first().click();
    await staff.getByLabel('Reason (kept in the audit log)').fill('Asked members for money');
    await staff.getByRole('button', { name: 'Ban this member' }).click();
    await expect(staff.locator('[data-done="ban"], .alert-success').first()).toBeVisible();

    // The member's next page: no longer signed in.
    await member.goto('/members');
    await expect(member.getByRole('navigation', { name: 'Main navigation' }).locator('[data-nav="messages"]')).toHaveCount(0);
    expect((await member.request.get('/api/user.php', { headers: XHR })).status()).toBe(403);
    // Logging in again ends on the ban page.
    await member.goto('/login');
    await member.getByLabel('E-mail').fill(email);
    await member.getByLabel('Password').fill(password);
    await member.getByRole('button', { name: 'Log in' }).click();
    await expect(member).toHaveURL(/\/banned$/);
    await expect(member.getByRole('heading', { name: 'Account banned' })).toBeVisible();
  } finally {
    await memberContext.close();
    await staffContext.close();
  }
});
