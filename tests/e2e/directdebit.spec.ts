/**
 * Direct debit in a real browser (DD-01, DD-02): on a 360 px phone a new member picks direct debit on
 * /credits, is sent to /directdebit, fills in the mandate by keyboard, reads the SMS code from the
 * offline SMS viewer (/dev/sms), confirms, comes back to the purchase with the mandate reference and
 * pays through the simulated checkout; another member types a wrong code three times and is blocked
 * for direct debit.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

async function newMember(page: Page, baseURL: string, name: string): Promise<void> {
  await page.context().addCookies([
    { name: 'lang', value: 'en', url: baseURL },
    { name: 'entry_ok', value: '1', url: baseURL },
  ]);
  const res = await page.request.post('/api/signup.php', {
    headers: XHR,
    data: {
      email: `dd-${randomBytes(5).toString('hex')}@example.com`,
      name: `${name}${randomBytes(2).toString('hex')}`,
      password: 'direct debit passphrase 2026',
      date_of_birth: '1990-04-12',
      gender: 'female',
      looking_for: 'male',
    },
  });
  expect(res.status()).toBe(201);
}

/** A fresh Dutch mobile number: national form to type, E.164 to find it in the viewer. */
function mobile(): { typed: string; e164: string } {
  // 06-1 numbers are Dutch mobile numbers (06-9… are not).
  const digits = `1${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
  return { typed: `06 ${digits}`, e164: `+316${digits}` };
}

async function fillMandate(page: Page, number: string): Promise<void> {
  await page.getByLabel('Account holder').fill('Anna de Vries');
  await page.getByLabel('IBAN').fill('NL91 ABNA 0417 1643 00');
  await page.getByLabel('Street').fill('Keizersgracht');
  await page.getByLabel('House number').fill('12a');
  await page.getByLabel('Postcode').fill('1015 CJ');
  await page.getByLabel('City').fill('Amsterdam');
  // Issue 25: the account is step 1 of 3; 'Next' (or Enter) goes on to the mobile number.
  await page.getByLabel('City').press('Enter');
  await expect(page.locator('[data-dd-step-label]')).toHaveText('Step 2 of 3');
  await expect(page.getByLabel('Mobile number')).toBeFocused();
  await page.getByLabel('Mobile number').fill(number);
  // By keyboard: Enter in the last field submits the form.
  await page.getByLabel('Mobile number').press('Enter');
  await expect(page.getByRole('heading', { name: 'Enter the SMS code' })).toBeVisible();
  await expect(page.locator('[data-dd-step-label]')).toHaveText('Step 3 of 3');
}

async function codeFromViewer(page: Page, e164: string): Promise<string> {
  const viewer = await page.context().newPage();
  await viewer.goto(`/dev/sms?to=${encodeURIComponent(e164)}`);
  const text = await viewer.locator(`[data-sms-to="${e164}"] [data-sms-text]`).first().textContent();
  await viewer.close();
  const code = /code is (\d{6})/.exec(text ?? '')?.[1];
  expect(code).toMatch(/^\d{6}$/);
  return code!;
}

async function fitsTheScreen(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test('DD-01 DD-02 on a phone a member sets up a mandate with the SMS code from the outbox viewer and pays a package by direct debit', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await newMember(page, baseURL!, 'Debby');
  await page.goto('/credits');
  await page.locator('[data-package]').first().click();
  await page.getByLabel(/^Direct debit/).check();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/directdebit\?package=\d+$/);
  const packageId = new URL(page.url()).searchParams.get('package')!;
  await expect(page.getByRole('heading', { name: 'Set up a direct-debit mandate' })).toBeVisible();
  await fitsTheScreen(page);
  // Issue 25: the form comes in steps, with an indicator; the mobile number waits for step 2.
  await expect(page.locator('[data-dd-step-label]')).toHaveText('Step 1 of 3');
  await expect(page.locator('[data-dd-step-name="1"]')).toHaveAttribute('aria-current', 'step');
  await expect(page.getByLabel('Mobile number')).toBeHidden();
  // A malformed IBAN first: told next to the field in friendly words, nothing sent, still step 1.
  await page.getByLabel('IBAN').fill('NL91 ABNA 0417 1643 01');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.locator('[data-field-error="iban"]')).toContainText('This IBAN is not correct');
  await expect(page.getByLabel('IBAN')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('IBAN')).toBeFocused();
  await expect(page.locator('[data-field-error="street"]')).toHaveText('Please fill in this field.');
  await expect(page.locator('[data-dd-step-label]')).toHaveText('Step 1 of 3');
  await fitsTheScreen(page);

  const number = mobile();
  await fillMandate(page, number.typed);
  await fitsTheScreen(page);
  const code = await codeFromViewer(page, number.e164);
  // The code field has the focus: type the code and press Enter.
  await expect(page.getByRole('textbox', { name: 'SMS code' })).toBeFocused();
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(new RegExp(`/credits/${packageId}/directdebit$`));
  const reference = page.locator('[data-summary-mandate]');
  await expect(reference).toHaveText(/^DD1-\d+-[A-Z0-9]{10}$/);
  const mandateReference = (await reference.textContent())!;
  await fitsTheScreen(page);
  await page.locator('[data-pay]').click();
  await expect(page).toHaveURL(/\/checkout\/simulated\/sim_/);
  await page.getByRole('button', { name: 'Paid', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Payment completed' })).toBeVisible();

  await page.goto('/directdebit');
  await expect(page.locator('[data-mandate-reference]')).toHaveText(mandateReference);
  await expect(page.locator('[data-mandate-iban]')).toHaveText('NL91 **** **** **43 00');
});

test('DD-02 a wrong SMS code three times blocks the account for direct debit', async ({ page, baseURL }) => {
  await newMember(page, baseURL!, 'Wendy');
  await page.goto('/directdebit');
  const number = mobile();
  await fillMandate(page, number.typed);
  const code = await codeFromViewer(page, number.e164);
  const wrong = code === '000000' ? '111111' : '000000';
  for (const left of ['Attempts left: 2.', 'Attempts left: 1.']) {
    await page.getByRole('textbox', { name: 'SMS code' }).fill(wrong);
    await page.getByRole('button', { name: 'Confirm mandate' }).click();
    await expect(page.locator('[data-field-error="code"]')).toContainText(left);
  }
  await page.getByRole('textbox', { name: 'SMS code' }).fill(wrong);
  await page.getByRole('button', { name: 'Confirm mandate' }).click();
  await expect(page.locator('[data-directdebit-blocked]')).toContainText('You entered a wrong code three times. Your account is now blocked for direct debit.');
  await page.goto('/directdebit');
  await expect(page.locator('[data-directdebit-blocked]')).toContainText('Your account is blocked for direct debit.');
  await expect(page.locator('[data-details-form]')).toHaveCount(0);
});

test('DD-01 without JavaScript the steps are one form: both fieldsets show and the SMS code is sent in one post', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await newMember(page, baseURL!, 'Nora');
  await page.goto('/directdebit');
  await expect(page.locator('[data-dd-step-label]')).toHaveText('Step 1 of 3');
  await expect(page.locator('[data-dd-step="1"] legend')).toHaveText('Step 1 of 3: Bank account');
  await expect(page.locator('[data-dd-step="2"] legend')).toHaveText('Step 2 of 3: Mobile number');
  await expect(page.getByRole('button', { name: 'Next' })).toBeHidden();
  const number = mobile();
  await page.getByLabel('Account holder').fill('Nora Jansen');
  await page.getByLabel('IBAN').fill('NL91 ABNA 0417 1643 00');
  await page.getByLabel('Street').fill('Dorpsstraat');
  await page.getByLabel('House number').fill('3');
  await page.getByLabel('Postcode').fill('1234 AB');
  await page.getByLabel('City').fill('Utrecht');
  await page.getByLabel('Mobile number').fill(number.typed);
  await page.getByRole('button', { name: 'Send the SMS code' }).click();
  await expect(page.getByRole('heading', { name: 'Enter the SMS code' })).toBeVisible();
  await expect(page.locator('[data-dd-step-label]')).toHaveText('Step 3 of 3');
  await context.close();
});
