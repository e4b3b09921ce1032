/**
 * Passkeys in Chromium with its virtual authenticator (PASS-01): a member adds one in the settings,
 * names and removes it, and logs in with it alone; removing it ends the sessions that logged in with it
 * (decision 087); "passkey required" refuses the password; the login throttle binds passkeys too. On a
 * 360 px phone and a desktop, in Dutch, English and German. Each test signs up its own member.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';

const PASSWORD = 'e2e-passkey-words-1';
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };
let counter = 0;

/** The texts the tests find controls by, per language (from i18n/<lang>.json). */
const TEXT = {
  nl: { add: 'Passkey toevoegen', login: 'Een passkey gebruiken', remove: 'Verwijderen', rename: 'Naam opslaan', added: 'Je passkey is toegevoegd.', removed: 'De passkey is verwijderd.' },
  en: { add: 'Add a passkey', login: 'Use a passkey', remove: 'Remove', rename: 'Save name', added: 'Your passkey has been added.', removed: 'The passkey has been removed.' },
  de: {
    add: 'Passkey hinzufügen',
    login: 'Einen Passkey verwenden',
    remove: 'Entfernen',
    rename: 'Name speichern',
    added: 'Dein Passkey wurde hinzugefügt.',
    removed: 'Der Passkey wurde entfernt.',
  },
} as const;
type Lang = keyof typeof TEXT;

async function visitorCookies(context: BrowserContext, lang: Lang) {
  const url = test.info().project.use.baseURL!;
  await context.addCookies([
    { name: 'lang', value: lang, url },
    { name: 'entry_ok', value: '1', url },
  ]);
}

/** A virtual authenticator for this page (a platform authenticator that keeps passkeys and verifies its user). */
async function virtualAuthenticator(page: Page): Promise<{ credentials: () => Promise<number> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length };
}

/** Signs a fresh member up through the signup API (the browser context keeps the session cookie). */
async function signUp(page: Page, lang: Lang): Promise<string> {
  await visitorCookies(page.context(), lang);
  const email = `e2e-passkey-${Date.now()}-${++counter}@example.com`;
  const res = await page.request.post('/api/signup.php', {
    headers: { 'x-requested-with': 'XMLHttpRequest' },
    data: { email, name: `Passkey${counter}`, password: PASSWORD, date_of_birth: '1990-05-05', gender: 'female', looking_for: 'male' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return email;
}

async function addPasskey(page: Page, lang: Lang, name: string) {
  await page.goto('/settings#passkeys');
  const section = page.locator('#passkeys');
  const add = section.getByRole('button', { name: TEXT[lang].add });
  // The island is running once its button is enabled.
  await expect(add).toBeEnabled();
  await section.getByLabel(/\(/).fill(name);
  await add.click();
  await expect(page.locator('[data-settings-notice]')).toHaveText(TEXT[lang].added);
  await expect(section.locator('[data-passkey-name]').filter({ hasText: name })).toBeVisible();
}

/**
 * The login page without conditional UI (a browser whose autofill offers no passkeys): the virtual
 * authenticator would otherwise answer the e-mail field's request before the button is pressed.
 */
async function withoutAutofill(page: Page) {
  await page.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', { value: undefined });
  });
}

/**
 * The member reaches for the login page's e-mail field (the pointer onto it), which loads the passkey
 * island; its conditional-UI request is answered at once by the virtual authenticator, and the page goes
 * on. The field has autofocus, so on some loads the island is already on its way before the pointer
 * moves (the focus counts as reaching for it): the login may then finish while the field is being looked
 * up, and a Playwright call on the old page waits on a field that is gone. So whichever comes first ends
 * the reach: the page going on, or the pointer on the field.
 */
async function reachForEmailField(page: Page) {
  const pointer = (async () => {
    const field = await page.locator('#login-email').boundingBox({ timeout: 5_000 });
    if (field) await page.mouse.move(field.x + field.width / 2, field.y + field.height / 2);
  })().catch(() => {});
  await Promise.race([page.waitForURL(/\/members/), pointer]);
}

async function fitsWidth(page: Page, label: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${label} scrolls sideways`).toBeLessThanOrEqual(0);
}

// Each language once, phones and desktops both (the tests below add English on a desktop and German on
// a phone); every language on every device took a minute of CI's fifteen.
for (const [lang, device, viewport] of [
  ['nl', 'phone', PHONE],
  ['en', 'desktop', DESKTOP],
  ['de', 'desktop', DESKTOP],
] as const) {
  test(`PASS-01 a member adds, names and removes a passkey and logs in with it alone (${lang}, ${device})`, async ({ page, context }) => {
    await page.setViewportSize(viewport);
    const authenticator = await virtualAuthenticator(page);
    await signUp(page, lang);
    await addPasskey(page, lang, 'Laptop');
    expect(await authenticator.credentials()).toBe(1);
    await fitsWidth(page, 'settings');

    // Renamed by its form.
    const item = page.locator('[data-passkey]');
    await item.getByRole('textbox').fill('Mijn sleutel');
    await item.getByRole('button', { name: TEXT[lang].rename }).click();
    await expect(page.locator('[data-passkey-name]')).toHaveText('Mijn sleutel');

    // Logged out: reaching for the e-mail field, the login page asks for this site's passkeys for its
    // suggestions (conditional UI); Chromium's virtual authenticator answers at once with the one it holds.
    await context.clearCookies({ name: 'session' });
    await page.goto('/login');
    await reachForEmailField(page);
    await expect(page).toHaveURL(/\/members/);
    // The session is a new one (rotated) and the device cookie is set, like the password login's.
    expect((await context.cookies()).find((c) => c.name === 'device')).toBeDefined();

    await page.goto('/settings#passkeys');
    await expect(page.locator('[data-passkey-name]')).toHaveText('Mijn sleutel');
    await page.locator('[data-passkey]').getByRole('button', { name: TEXT[lang].remove }).click();
    // The session removing it stays (decision 087: the others that logged in with it end).
    await expect(page.locator('[data-settings-notice]')).toContainText(TEXT[lang].removed);
    await expect(page.locator('[data-passkeys-none]')).toBeVisible();
    await fitsWidth(page, 'settings without passkeys');
  });
}

test('PASS-01 removing a passkey ends the sessions that logged in with it, and only those', async ({ page, context, browser }) => {
  // Two browsers, three logins.
  test.setTimeout(60_000);
  await virtualAuthenticator(page);
  await withoutAutofill(page);
  const email = await signUp(page, 'en');
  await addPasskey(page, 'en', 'Phone');
  await context.clearCookies({ name: 'session' });
  await page.goto('/login');
  await page.getByRole('button', { name: TEXT.en.login }).click();
  await expect(page).toHaveURL(/\/members/);

  // Elsewhere, the member logs in with the password and removes the passkey.
  const other = await browser.newContext();
  await visitorCookies(other, 'en');
  const otherPage = await other.newPage();
  await otherPage.goto('/login');
  await otherPage.getByLabel('E-mail').fill(email);
  await otherPage.getByLabel('Password').fill(PASSWORD);
  await otherPage.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(otherPage).toHaveURL(/\/members/);
  await otherPage.goto('/settings#passkeys');
  await otherPage.locator('[data-passkey]').getByRole('button', { name: 'Remove' }).click();
  await expect(otherPage.locator('[data-settings-notice]')).toContainText(TEXT.en.removed);
  await expect(otherPage.locator('[data-passkeys-none]')).toBeVisible();

  // The passkey's session is gone; the password's stays.
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/login/);
  await otherPage.goto('/settings');
  await expect(otherPage).toHaveURL(/\/settings/);
  await other.close();
});

test('PASS-01 with "passkey required" the password no longer logs in; removing the last passkey turns it off', async ({ page, context }) => {
  await virtualAuthenticator(page);
  await withoutAutofill(page);
  const email = await signUp(page, 'en');
  await addPasskey(page, 'en', 'Phone');
  await page.getByRole('button', { name: 'Require a passkey' }).click();
  await expect(page.locator('[data-passkey-required-state]')).toHaveText('A passkey is required to log in.');

  await context.clearCookies({ name: 'session' });
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page.locator('[data-login-error]')).toHaveText('This account logs in with a passkey only. Use your passkey to log in.');
  await expect(page).toHaveURL(/\/login/);

  await page.getByRole('button', { name: TEXT.en.login }).click();
  await expect(page).toHaveURL(/\/members/);

  // Removing the last passkey turns "passkey required" off, and says so.
  await page.goto('/settings#passkeys');
  await page.locator('[data-passkey]').getByRole('button', { name: 'Remove' }).click();
  await expect(page.locator('[data-settings-notice]')).toContainText('so you can log in with your password again');
  await context.clearCookies({ name: 'session' });
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/members/);
});

test('PASS-01 the login page offers passkeys in the e-mail field and by a button; the password form stays', async ({ page, context }) => {
  await page.setViewportSize(PHONE);
  await virtualAuthenticator(page);
  await withoutAutofill(page);
  await signUp(page, 'de');
  await addPasskey(page, 'de', 'Handy');
  await context.clearCookies({ name: 'session' });
  await page.goto('/login');
  await expect(page.locator('#login-email')).toHaveAttribute('autocomplete', 'username webauthn');
  await expect(page.getByLabel('Passwort')).toBeVisible();
  await fitsWidth(page, 'login');
  await page.getByRole('button', { name: TEXT.de.login }).click();
  await expect(page).toHaveURL(/\/members/);
});

test('PASS-01 AUTH-03 a blocked account is refused with a passkey too; an unknown passkey is refused', async ({ page, context, browser }) => {
  await virtualAuthenticator(page);
  await withoutAutofill(page);
  const email = await signUp(page, 'en');
  await addPasskey(page, 'en', 'Phone');
  await context.clearCookies({ name: 'session' });

  // Someone else guesses the password five times: the account is blocked for untrusted clients.
  const attacker = await browser.newContext();
  for (let i = 0; i < 5; i++) await attacker.request.post('/api/user.php', { headers: { 'x-requested-with': 'XMLHttpRequest' }, data: { email, password: `guess-${i}` } });
  await attacker.close();

  await page.goto('/login');
  await page.getByRole('button', { name: TEXT.en.login }).click();
  await expect(page.locator('[data-passkey-login-error]')).toHaveText('Too many failed attempts. Please wait a few minutes and try again.');
  await expect(page).toHaveURL(/\/login/);

  // An answer that is not a passkey of this site: a clear refusal, never a 500.
  const bogus = await page.request.post('/api/passkey-login.php', {
    data: { response: { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' }, clientExtensionResults: {} } },
  });
  expect(bogus.status()).toBe(401);
  expect((await bogus.json()).error).toBe('invalid_credentials');
  const malformed = await page.request.post('/api/passkey-login.php', { data: { response: { id: 'x y' } } });
  expect(malformed.status()).toBe(400);
  expect((await malformed.json()).error).toBe('validation_failed');
});
