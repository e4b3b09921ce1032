/**
 * Photo management and moderation in a real browser (issue 12, decision 043): a new member on a 360 px
 * phone uploads three photos at once with a preview and a progress bar each (PHO-03), reaches the free
 * limit (PHO-01) and sees them being reviewed (PHO-02); a moderator logs in with password and TOTP code,
 * approves one with the keyboard and rejects one with a reason (OPS-01); the member sees both outcomes.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { totpCode } from '../../src/server/staff/accounts';
import { DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET } from '../../src/demo/staff';

const PHONE = { width: 360, height: 740 };
test.use({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

const colours = ['#d05a7e', '#3a7bd5', '#4caf50'];

test('PHO-01 PHO-02 PHO-03 OPS-01 a member uploads three photos on a phone with progress, a moderator approves one and rejects one with a reason, the member sees both', async ({
  page,
  context,
  browser,
}) => {
  const base = test.info().project.use.baseURL!;
  await context.addCookies([
    { name: 'lang', value: 'en', url: base },
    { name: 'entry_ok', value: '1', url: base },
  ]);
  const signup = await page.request.post('/api/signup.php', {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
    data: {
      email: `e2e-photos-${randomBytes(5).toString('hex')}@example.com`,
      name: `Pia${randomBytes(2).toString('hex')}`,
      password: 'e2e-photos-password-1',
      date_of_birth: '1991-06-02',
      gender: 'female',
      looking_for: 'male',
    },
  });
  expect(signup.status()).toBe(201);

  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: /My photos/ })).toBeVisible();
  await expect(page.locator('[data-photos-none]')).toBeVisible();
  const picker = page.getByLabel('Add photos');
  await expect(picker).toHaveAttribute('accept', 'image/*');
  await expect(picker).toHaveAttribute('multiple', '');
  const files = await Promise.all(
    colours.map(async (background, i) => ({
      name: `me-${i + 1}.jpg`,
      mimeType: 'image/jpeg',
      buffer: await sharp({ create: { width: 1600, height: 2000, channels: 3, background } })
        .jpeg({ quality: 95 })
        .toBuffer(),
    })),
  );
  await picker.setInputFiles(files);
  // Each file's progress reaches 100 %: watch the bars the script adds, before the page reloads.
  const progress = page.waitForFunction(() => {
    const items = [...document.querySelectorAll('[data-upload-list] li')];
    return (
      items.length === 3 &&
      items.every(
        (li) => li.getAttribute('data-result') === 'ok' && (li.querySelector('progress') as HTMLProgressElement).value === 100 && li.querySelector('img')?.getAttribute('src')?.startsWith('blob:'),
      )
    );
  });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await progress;
  await expect(page.locator('[data-upload-list] li').first()).toContainText('Uploaded: being reviewed');

  // The page lists them from the server once all are in: three, all being reviewed, the free limit reached.
  await page.waitForURL(/\/profile\?photos=uploaded&n=3#photos$/);
  const own = page.locator('[data-own-photo]');
  await expect(own).toHaveCount(3);
  await expect(page.locator('[data-photo-state="inspection_pending"]')).toHaveCount(3);
  await expect(page.locator('[data-photo-limit]')).toContainText('Photo limits: free members at most 3, premium 25.');
  await expect(page.getByRole('button', { name: 'Move photo 2 up' })).toBeVisible();
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  const ids = await own.evaluateAll((items) => items.map((li) => Number(li.getAttribute('data-own-photo'))));

  // The moderator, in a desktop window of their own: password and code, then the queue.
  const staffContext = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
  await staffContext.addCookies([{ name: 'lang', value: 'en', url: base }]);
  const staff = await staffContext.newPage();
  await staff.goto('/admin/photos');
  await expect(staff).toHaveURL(/\/admin\/login\?next=/);
  await staff.getByLabel('E-mail').fill('moderator@demo.test');
  await staff.getByLabel('Password').fill(DEMO_STAFF_PASSWORD);
  // The next step's code (the server accepts one step either side): a code is good once, and the ban
  // spec logs the same moderator in with this step's code when the two run within 30 seconds.
  await staff.getByLabel('Code from your authenticator app').fill(totpCode(DEMO_TOTP_SECRET, new Date(Date.now() + 30_000)));
  await staff.getByRole('button', { name: 'Log in' }).click();
  await expect(staff).toHaveURL(/\/admin\/photos$/);
  for (const id of ids) await expect(staff.locator(`[data-queue-photo="${id}"]`)).toBeVisible();
  // The member's other photos are beside each one.
  await expect(staff.locator(`[data-others="${ids[0]}"] [data-other]`)).toHaveCount(2);

  // Approve the first with the keyboard only.
  await staff.getByRole('button', { name: `Approve photo ${ids[0]}` }).focus();
  await staff.keyboard.press('Enter');
  await expect(staff.locator('[data-done="1"]')).toBeVisible();
  await expect(staff.locator(`[data-queue-photo="${ids[0]}"]`)).toHaveCount(0);
  // The next photo has the focus: a moderator goes on without the mouse.
  await expect(staff.getByLabel(`Select photo ${ids[1]}`)).toBeFocused();
  await staff.keyboard.press('Tab');
  await expect(staff.getByRole('button', { name: `Approve photo ${ids[1]}` })).toBeFocused();
  // Reject the second with a reason.
  await staff.getByLabel(`Reason for photo ${ids[1]}`).selectOption('explicit');
  await staff.getByRole('button', { name: `Reject photo ${ids[1]}` }).click();
  await expect(staff.locator('[data-done="1"]')).toBeVisible();
  await expect(staff.locator(`[data-queue-photo="${ids[1]}"]`)).toHaveCount(0);
  await expect(staff.locator(`[data-queue-photo="${ids[2]}"]`)).toBeVisible();
  await staffContext.close();

  // The member sees both outcomes; the rejected photo no longer counts towards the limit.
  await page.goto('/profile');
  await expect(page.locator(`[data-own-photo="${ids[0]}"] [data-photo-state="active"]`)).toHaveText('Visible');
  await expect(page.locator(`[data-own-photo="${ids[1]}"] [data-photo-state="removed"]`)).toHaveText('Removed');
  await expect(page.locator(`[data-own-photo="${ids[1]}"] [data-rejection-reason]`)).toHaveText('Removed by our team: The photo is too explicit for a profile photo.');
  await expect(page.locator(`[data-own-photo="${ids[2]}"] [data-photo-state="inspection_pending"]`)).toHaveText('Being reviewed');
  await expect(page.getByLabel('Add photos')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
});
