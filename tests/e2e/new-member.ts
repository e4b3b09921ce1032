import { randomBytes } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';

/** The password of every member {@link newMember} signs up. */
export const NEW_MEMBER_PASSWORD = 'browser passphrase 77';

/**
 * A fresh member as after signup, signed in in this browser (English, entry warning accepted):
 * unconfirmed, profile hidden, no photo. `page.request` shares the browser's cookies, so the session
 * cookie of the signup lands in the browser.
 */
export async function newMember(page: Page, context: BrowserContext): Promise<{ email: string; id: number }> {
  const base = test.info().project.use.baseURL!;
  await context.addCookies([
    { name: 'lang', value: 'en', url: base },
    { name: 'entry_ok', value: '1', url: base },
  ]);
  const email = `e2e-${randomBytes(5).toString('hex')}@example.com`;
  const res = await page.request.post('/api/signup.php', {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
    data: { email, name: `Ivy${randomBytes(2).toString('hex')}`, password: NEW_MEMBER_PASSWORD, date_of_birth: '1991-07-09', gender: 'female', looking_for: 'male' },
  });
  expect(res.status()).toBe(201);
  return { email, id: (await res.json()).id as number };
}
