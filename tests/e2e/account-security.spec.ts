/**
 * Account security in Chromium: login blocked after failures (AUTH-03) except for the owner's known
 * browser (SEC-13), password reset through the
 * mailed link (PWD-01, PWD-02), e-mail change through the mailed link (MAIL-01), the settings screen
 * (SET-01) and a notification preference (SET-02). Each test signs up its own member, so the demo
 * accounts other tests use are never blocked or changed. Mails are read from the dev mail viewer.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';

const PASSWORD = 'e2e-secret-words-1';
let counter = 0;

async function visitorCookies(context: BrowserContext, lang = 'nl') {
  const url = test.info().project.use.baseURL!;
  await context.addCookies([
    { name: 'lang', value: lang, url },
    { name: 'entry_ok', value: '1', url },
  ]);
}

/** Signs a fresh member up through the signup API (the browser context keeps the session cookie). */
async function signUp(page: Page): Promise<string> {
  const email = `e2e-sec-${Date.now()}-${++counter}@example.com`;
  const res = await page.request.post('/api/signup.php', {
    headers: { 'x-requested-with': 'XMLHttpRequest' },
    data: { email, name: `Tester${counter}`, password: PASSWORD, date_of_birth: '1990-05-05', gender: 'female', looking_for: 'male' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return email;
}

/** Opens the newest mail to `to` of the given kind in the dev mail viewer and follows its link. */
async function followMailLink(page: Page, to: string, kind: string) {
  await page.goto(`/dev/mail?to=${encodeURIComponent(to)}`);
  await page.locator('tr', { hasText: kind }).first().getByRole('link').click();
  await expect(page.locator('[data-mail-to]')).toHaveText(to);
  await page.locator('[data-mail-links] a').first().click();
}

test('AUTH-03 five wrong passwords block the login, with the minutes in the message', async ({ page, context }) => {
  const email = await signUp(page);
  await context.clearCookies();
  await visitorCookies(context, 'en');
  await page.goto('/login');
  for (let i = 1; i <= 5; i++) {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(`wrong-password-${i}`);
    await page.getByRole('button', { name: 'Log in' }).click();
    if (i < 5) await expect(page.getByRole('alert')).toHaveText('Login failed, please try again.');
  }
  await expect(page.getByRole('alert')).toHaveText('Too many attempts. Your account is blocked for 15 minutes.');
  // Even the right password is refused while the block lasts.
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toContainText('blocked for 15 minutes');
  await expect(page).toHaveURL(/\/login/);
});

test('SEC-13 AUTH-03 after 11 wrong passwords from elsewhere, the browser that logged in before still logs in; a fresh one is refused', async ({ page, context, browser }) => {
  const email = await signUp(page);
  await context.clearCookies();
  await visitorCookies(context, 'en');
  // The owner logs in once on this browser (it keeps the device cookie), then the session ends.
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/members/);
  expect((await context.cookies()).find((c) => c.name === 'device')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  await context.clearCookies({ name: 'session' });

  // Someone else guesses 11 times.
  const attacker = await browser.newContext();
  for (let i = 0; i < 11; i++) await attacker.request.post('/api/user.php', { headers: { 'x-requested-with': 'XMLHttpRequest' }, data: { email, password: `guess-${i}` } });
  const fresh = await browser.newContext();
  await visitorCookies(fresh, 'en');
  const freshPage = await fresh.newPage();
  await freshPage.goto('/login');
  await freshPage.getByLabel('E-mail').fill(email);
  await freshPage.getByLabel('Password').fill(PASSWORD);
  await freshPage.getByRole('button', { name: 'Log in' }).click();
  await expect(freshPage.getByRole('alert')).toHaveText('Too many attempts. Your account is blocked for 15 minutes.');
  await attacker.close();
  await fresh.close();

  // The owner's own browser gets in with the right password.
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/members/);
});

test('PWD-01 PWD-02 a forgotten password is reset through the mailed link', async ({ page, context }) => {
  const email = await signUp(page);
  await context.clearCookies();
  await visitorCookies(context, 'nl');
  await page.goto('/login');
  await page.getByRole('link', { name: 'Wachtwoord vergeten?' }).click();
  await expect(page).toHaveURL(/\/reset-password$/);
  await page.getByLabel('E-mailadres').fill(email);
  await page.getByRole('button', { name: 'Stuur mij een link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'een account met dit e-mailadres bestaat, hebben we er een link naartoe gestuurd' })).toBeVisible();

  await followMailLink(page, email, 'password_reset');
  await expect(page).toHaveURL(/\/reset-password\/do\?token=/);
  const resetLink = page.url();
  await expect(page.getByRole('heading', { name: 'Kies een nieuw wachtwoord' })).toBeVisible();
  await page.getByLabel('Nieuw wachtwoord', { exact: true }).fill('brand-new-secret-9');
  await page.getByLabel('Herhaal het nieuwe wachtwoord').fill('brand-new-secret-8');
  await page.getByRole('button', { name: 'Nieuw wachtwoord opslaan' }).click();
  await expect(page.getByText('De opgegeven wachtwoorden zijn niet gelijk')).toBeVisible();

  await page.getByLabel('Nieuw wachtwoord', { exact: true }).fill('brand-new-secret-9');
  await page.getByLabel('Herhaal het nieuwe wachtwoord').fill('brand-new-secret-9');
  await page.getByRole('button', { name: 'Nieuw wachtwoord opslaan' }).click();
  await expect(page).toHaveURL(/\/members$/);
  expect((await page.request.get('/api/user.php')).status()).toBe(200);

  // The link worked once only.
  await page.goto(resetLink);
  await expect(page.getByRole('heading', { name: 'Deze link werkt niet meer' })).toBeVisible();

  // The new password is the one that logs in now.
  await context.clearCookies();
  await visitorCookies(context, 'nl');
  const old = await page.request.post('/api/user.php', { headers: { 'x-requested-with': 'XMLHttpRequest' }, data: { email, password: PASSWORD } });
  expect(old.status()).toBe(401);
  const fresh = await page.request.post('/api/user.php', { headers: { 'x-requested-with': 'XMLHttpRequest' }, data: { email, password: 'brand-new-secret-9' } });
  expect(fresh.status()).toBe(200);
});

test('MAIL-01 SET-01 the e-mail address is changed on the settings screen and confirmed through the mailed link', async ({ page, context }) => {
  await visitorCookies(context, 'nl');
  const email = await signUp(page);
  const newEmail = email.replace('@example.com', '@example.org');
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Instellingen' })).toBeVisible();
  await expect(page.locator('[data-current-email]')).toHaveText(email);

  // An address that already has an account on the site is refused.
  await page.getByLabel('Nieuw e-mailadres').fill('free@demo.test');
  await page.locator('#settings-email-password').fill(PASSWORD);
  await page.getByRole('button', { name: 'E-mailadres wijzigen' }).click();
  await expect(page.getByText('Er bestaat al een account met dit e-mailadres op deze site.')).toBeVisible();

  await page.getByLabel('Nieuw e-mailadres').fill(newEmail);
  await page.locator('#settings-email-password').fill(PASSWORD);
  await page.getByRole('button', { name: 'E-mailadres wijzigen' }).click();
  await expect(page.locator('[data-settings-notice="email"]')).toContainText(newEmail);
  await expect(page.locator('[data-current-email]')).toHaveText(email);

  await followMailLink(page, newEmail, 'email_change');
  await expect(page.getByRole('heading', { name: 'Je e-mailadres is gewijzigd' })).toBeVisible();
  await page.getByRole('link', { name: 'Naar mijn instellingen' }).click();
  await expect(page.locator('[data-current-email]')).toHaveText(newEmail);
  await expect(page.locator('#email .badge')).toHaveText('bevestigd');
});

test('SET-02 a notification preference is switched off by keyboard and stays off; the settings summary counts it', async ({ page, context }) => {
  await visitorCookies(context, 'nl');
  await signUp(page);
  await page.goto('/settings');
  await expect(page.locator('[data-notifications-summary]')).toHaveText('Alle meldingen staan aan.');
  await page.getByRole('link', { name: 'Meldingen beheren' }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  const news = page.getByRole('checkbox', { name: 'Nieuws' });
  await expect(news).toBeChecked();
  await expect(page.getByRole('checkbox')).toHaveCount(8);
  await news.focus();
  await page.keyboard.press('Space');
  await expect(news).not.toBeChecked();
  await page.getByRole('button', { name: 'Opslaan' }).press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Je meldingsinstellingen zijn opgeslagen.' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Nieuws' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Nieuwe berichten' })).toBeChecked();
  await page.goto('/settings');
  await expect(page.locator('[data-notifications-summary]')).toHaveText('1 van de 8 meldingen staat uit.');
});

test('SET-01 on a 360 px phone the settings screen fits and invisible mode toggles', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, baseURL: test.info().project.use.baseURL! });
  const page = await context.newPage();
  await visitorCookies(context, 'nl');
  await signUp(page);
  await page.goto('/settings');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(page.locator('[data-invisible-state]')).toHaveText('Onzichtbare modus staat uit.');
  await page.getByRole('button', { name: 'Word onzichtbaar' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Je bent nu onzichtbaar.' })).toBeVisible();
  await expect(page.locator('[data-invisible-state]')).toHaveText('Onzichtbare modus staat aan.');
  await expect(page.getByRole('link', { name: 'Mijn account verwijderen' })).toHaveAttribute('href', '/settings/delete');
  await context.close();
});
