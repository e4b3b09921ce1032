/**
 * The account lifecycle in a real browser: a member made through POST /api/signup.php completes the
 * signup with a real file upload (SIGN-02, PHO-04) and reaches the signup matches (GAME-03); another
 * downloads their data (GDPR-01), deletes the account and brings it back through the mailed link
 * read from the development mail viewer (DEL-01).
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { NEW_MEMBER_PASSWORD as PASSWORD, newMember } from './new-member';

test('SIGN-02 PHO-04 GAME-03 a new member completes the signup with a real photo and lands on their matches', async ({ page, context }) => {
  await newMember(page, context);
  await page.goto('/complete-signup');
  await expect(page.getByText('Step 1 of 4')).toBeVisible();

  const photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#d05a7e' } })
    .withExif({ IFD0: { Make: 'BrowserCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 4/1 0/1' } })
    .jpeg()
    .toBuffer();
  await page.getByLabel('Choose a photo').setInputFiles({ name: 'holiday.jpg', mimeType: 'image/jpeg', buffer: photo });
  await page.getByRole('button', { name: 'Upload photo' }).click();

  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  await page.getByLabel('About me', { exact: true }).fill('Fond of wine and long walks by the sea.');
  await page.getByLabel('Hair colour').selectOption('brown');
  await page.getByLabel('Wine', { exact: true }).check();
  await page.getByRole('button', { name: 'Save and continue' }).click();

  await expect(page.getByText('Step 3 of 4')).toBeVisible();
  await page.getByRole('button', { name: 'Continue', exact: true }).click();

  await expect(page.getByText('Step 4 of 4')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send the e-mail again' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue', exact: true }).click();

  await expect(page.getByText('All steps done')).toBeVisible();
  await expect(page.locator('[data-summary]')).toContainText('Being reviewed');
  await page.getByRole('button', { name: 'Show my matches' }).click();

  await expect(page).toHaveURL(/\/signup-matches$/);
  await expect(page.locator('[data-match-grid] li').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'See all members' })).toBeVisible();

  // The own profile shows the uploaded photo, resized, as being reviewed.
  await page.goto('/profile');
  await expect(page.getByText('Your photo is being reviewed')).toBeVisible();
  const image = page.locator('figure img');
  await expect(image).toHaveJSProperty('complete', true);
  expect(await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([480, 600]);
});

test('SIGN-02 every step can be skipped without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await newMember(page, context);
  await page.goto('/complete-signup');
  for (const step of ['Step 1 of 4', 'Step 2 of 4']) {
    await expect(page.getByText(step)).toBeVisible();
    await page.getByRole('button', { name: 'Skip this step' }).click();
  }
  await expect(page.getByText('Step 3 of 4')).toBeVisible();
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('button', { name: 'Show my matches' }).click();
  await expect(page).toHaveURL(/\/signup-matches$/);
  await context.close();
});

test('GDPR-01 DEL-01 a member downloads their data, deletes the account and restores it through the mailed link', async ({ page, context }) => {
  const member = await newMember(page, context);
  await page.goto('/settings/delete');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download my data' }).click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^[a-z0-9-]+-data-${member.id}\\.json$`));
  const data = JSON.parse(await readFile((await download.path())!, 'utf8'));
  expect(data.account).toMatchObject({ id: member.id, email: member.email });
  expect(data.sessions.length).toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Make me invisible' }).click();
  await expect(page.locator('[data-done="paused"]')).toBeVisible();

  await page.getByLabel('Your password').fill('not the password');
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page.getByRole('alert')).toContainText('The password is not correct.');

  await page.getByLabel('Your password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/account-deleted$/);
  await expect(page.getByRole('heading', { name: 'Your account has been deleted' })).toBeVisible();
  expect((await page.request.get('/api/user.php')).status()).toBe(403);

  await page.goto(`/dev/mail?to=${encodeURIComponent(member.email)}`);
  await page.getByRole('link', { name: /has been deleted/ }).click();
  await page.locator('[data-mail-links] a').first().click();
  await expect(page).toHaveURL(/\/account\/reactivate\?token=/);
  await page.getByRole('button', { name: 'Restore my account' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome back!' })).toBeVisible();

  const me = await page.request.get('/api/user.php');
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ id: member.id, email: member.email });
});
