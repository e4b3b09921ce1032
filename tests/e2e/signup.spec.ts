import { expect, test, type Page } from '@playwright/test';

const base = () => test.info().project.use.baseURL!;
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function fillSignup(scope: ReturnType<Page['locator']>, email: string, name: string) {
  await scope.getByLabel('E-mail address').fill(email);
  await scope.getByLabel('Profile name').fill(name);
  await scope.getByLabel('Password').fill('zonnige-dinsdag-42');
  await scope.getByLabel('Date of birth').fill('1992-03-04');
  await scope.getByLabel('I am a').selectOption('female');
  await scope.getByLabel('Looking for').selectOption('male');
}

async function activationLink(page: Page, email: string): Promise<string> {
  await page.goto(`/dev/mail?to=${encodeURIComponent(email)}`);
  await page.locator('tbody tr a').first().click();
  await expect(page.locator('[data-mail-to]')).toHaveText(email);
  return (await page.locator('[data-mail-links] a').first().getAttribute('href'))!;
}

test('SIGN-01 on desktop the signup modal opens from the signup entry; once typed into, Escape and a click beside it do not close it and its close button asks first', async ({ page, context }) => {
  await context.addCookies([
    { name: 'lang', value: 'en', url: base() },
    { name: 'entry_ok', value: '1', url: base() },
  ]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  const modal = page.locator('dialog[data-signup-modal]');
  // The island loads on the first interaction with an entry (client:interaction, PERF-02): the very
  // first click opens the modal.
  await page.locator('[data-signup-entry]').first().click();
  await expect(modal).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  // Escape closes it while nothing is in progress.
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
  await page.locator('[data-signup-entry]').first().click();
  await expect(modal).toBeVisible();

  const email = `modal-${unique()}@example.com`;
  await fillSignup(modal, email, 'Maud');
  // Typed into (by keyboard, as a person types: fill() alone is no user activation, and Chromium lets a
  // dialog's Escape be refused only after one): Escape and a click beside it keep the modal and the values.
  await modal.getByLabel('Profile name').pressSequentially('e');
  await page.keyboard.press('Escape');
  await page.mouse.click(5, 5); // the backdrop
  await expect(modal).toBeVisible();
  await expect(modal.getByLabel('E-mail address')).toHaveValue(email);
  // The close button asks first; staying keeps everything.
  await modal.getByRole('button', { name: 'Close' }).click();
  const ask = modal.locator('[data-signup-stop]');
  await expect(ask).toBeVisible();
  await expect(ask).toContainText('What you typed will be lost.');
  await ask.getByRole('button', { name: 'Keep signing up' }).click();
  await expect(ask).toBeHidden();
  await expect(modal.getByLabel('E-mail address')).toHaveValue(email);
  // Hold the signup request so the "in progress" state can be checked.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/signup.php', async (route) => {
    await held;
    await route.continue();
  });
  await modal.getByRole('button', { name: 'Sign up free' }).click();
  await expect(modal.getByRole('button', { name: 'Creating your account…' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await page.mouse.click(5, 5); // the backdrop
  await expect(modal).toBeVisible();
  release();
  await expect(page).toHaveURL(/\/complete-signup/);

  const link = await activationLink(page, email);
  await page.goto(link);
  await expect(page.locator('[data-activation="done"]')).toBeVisible();
  await expect(page.locator('[data-promo-cards] li')).not.toHaveCount(0);
  expect((await page.request.get('/api/user.php')).status()).toBe(200);
  expect((await (await page.request.get('/api/user.php')).json()).status).toBe('active');
});

test('SIGN-01 SIGN-04 SIGN-05 on a phone the signup entry goes to /signup, errors (the under-age one says the site is for adults) show in place, and the account is activated by mail', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, baseURL: base() });
  await context.addCookies([
    { name: 'lang', value: 'en', url: base() },
    { name: 'entry_ok', value: '1', url: base() },
  ]);
  const page = await context.newPage();
  await page.goto('/');
  await page.locator('[data-signup-entry]').first().click();
  await expect(page).toHaveURL(/\/signup$/);
  // Typing before hydration is kept too (the form takes the DOM's values over); wait to test the in-place errors.
  await expect(page.locator('astro-island[component-url*="SignupForm"]')).not.toHaveAttribute('ssr');
  const form = page.locator('[data-signup-form]');
  // Issue 25: the form says where the visitor is in the signup: step 1 of 2, the profile comes next.
  await expect(form.locator('[data-signup-progress]')).toContainText('Step 1 of 2 · Your account');
  await expect(form.getByRole('progressbar', { name: 'Step 1 of 2 · Your account' })).toHaveAttribute('value', '1');
  const email = `phone-${unique()}@gmial.com`;
  await fillSignup(form, email, 'Iris');
  await expect(form.locator('[data-email-suggestion]')).toContainText('gmail.com');
  await form.getByLabel('Date of birth').fill('2015-01-01');
  await form.getByRole('button', { name: 'Sign up free' }).click();
  await expect(form.locator('[data-field-error="date_of_birth"]')).toContainText('You must be 18 or older to join: this site is for adults.');
  await expect(form.locator('[data-signup-errors]')).toHaveText('Something is not quite right yet. Please check the marked fields below.');
  await expect(page).toHaveURL(/\/signup$/);
  await form.getByLabel('Date of birth').fill('1992-03-04');
  await form.getByRole('button', { name: 'Sign up free' }).click();
  await expect(page).toHaveURL(/\/complete-signup/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const link = await activationLink(page, email);
  await page.goto(link);
  await expect(page.locator('[data-activation="done"]')).toBeVisible();
  await context.close();
});
