import { randomBytes } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';

/** A fresh member as after signup: unconfirmed, profile hidden, no photo; signed in in this browser. */
export async function newMember(page: Page, context: BrowserContext) {
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
