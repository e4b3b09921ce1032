/**
 * Photo management and moderation in a real browser (issue 12, decision 043): a new member on a 360 px
 * phone uploads three photos at once with a preview and a progress bar each (PHO-03), reaches the free
 * limit (PHO-01) and sees them being reviewed (PHO-02); a moderator logs in with password and TOTP code,
 * approves one with the keyboard and rejects one with a reason (OPS-01); the member sees both outcomes.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { staffLogin } from './staff-login';

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
  await staffLogin(staff, 'moderator@demo.test');
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

test('PHO-03 one photo gets a crop box (moved by keyboard and by dragging) and uploads the crop with a progress bar; a file that is not a photo or too big is refused before sending', async ({
  page,
  context,
}) => {
  const base = test.info().project.use.baseURL!;
  await context.addCookies([
    { name: 'lang', value: 'en', url: base },
    { name: 'entry_ok', value: '1', url: base },
  ]);
  const signup = await page.request.post('/api/signup.php', {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
    data: {
      email: `e2e-crop-${randomBytes(5).toString('hex')}@example.com`,
      name: `Cor${randomBytes(2).toString('hex')}`,
      password: 'e2e-crop-password-1',
      date_of_birth: '1990-01-02',
      gender: 'male',
      looking_for: 'female',
    },
  });
  expect(signup.status()).toBe(201);
  // What the page sends: the photo's type and size in pixels, read from the XMLHttpRequest's form data.
  await page.addInitScript(() => {
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (body) {
      const photo = body instanceof FormData ? body.get('photo') : null;
      if (photo instanceof Blob) void createImageBitmap(photo).then((b) => ((window as unknown as { sentPhoto?: unknown }).sentPhoto = { type: photo.type, width: b.width, height: b.height }));
      return send.call(this, body);
    };
  });
  await page.goto('/profile');
  const picker = page.getByLabel('Add photos');
  const uploads: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/photos.php') && r.method() === 'POST') uploads.push(r.url());
  });

  // Friendly refusals before anything is sent.
  await picker.setInputFiles([
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') },
    { name: 'huge.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(10 * 1024 * 1024 + 1) },
  ]);
  await expect(page.locator('[data-upload-error]')).toHaveText([
    'notes.txt is not a photo we can use. Please choose a JPEG, PNG, WebP or GIF file.',
    'huge.jpg is too big (more than 10 MB). Please choose a smaller photo.',
  ]);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.locator('[data-upload-error]')).toHaveCount(2);
  expect(uploads).toHaveLength(0);

  // A landscape photo: the 4:5 box is as high as the photo, centred, and moves sideways.
  const buffer = await sharp({ create: { width: 1200, height: 600, channels: 3, background: '#3a7bd5' } })
    .jpeg()
    .toBuffer();
  await picker.setInputFiles({ name: 'wide.jpg', mimeType: 'image/jpeg', buffer });
  await expect(page.locator('[data-upload-error]')).toHaveCount(0);
  const canvas = page.getByRole('img', { name: 'Crop of your photo' });
  await expect(canvas).toBeVisible();
  await expect(canvas).toHaveAttribute('data-crop-box', '360,0,480,600');
  await canvas.focus();
  await page.keyboard.press('ArrowRight');
  await expect(canvas).toHaveAttribute('data-crop-box', '420,0,480,600');
  const boxOf = async () => (await canvas.getAttribute('data-crop-box'))!.split(',').map(Number);
  const area = (await canvas.boundingBox())!;
  await page.mouse.move(area.x + area.width / 2, area.y + area.height / 2);
  await page.mouse.down();
  await page.mouse.move(area.x + area.width / 2 - 40, area.y + area.height / 2, { steps: 4 });
  await page.mouse.up();
  expect((await boxOf())[0]).toBeLessThan(420);
  await page.getByText('Square').click();
  await expect(canvas).toHaveAttribute('data-crop-box', '300,0,600,600');

  // The crop is sent, with its progress bar, and arrives.
  const done = page.waitForFunction(() => {
    const li = document.querySelector('[data-upload-list] li[data-result]');
    return li?.getAttribute('data-result') === 'ok' && (li.querySelector('progress') as HTMLProgressElement).value === 100;
  });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await done;
  // The photo that was sent is the square crop (a JPEG), not the 1200 × 600 original.
  await expect.poll(() => page.evaluate(() => (window as unknown as { sentPhoto?: unknown }).sentPhoto)).toEqual({ type: 'image/jpeg', width: 600, height: 600 });
  await page.waitForURL(/\/profile\?photos=uploaded&n=1#photos$/);
  await expect(page.locator('[data-own-photo]')).toHaveCount(1);
});

test('SIGN-02 PHO-03 the signup photo step checks the file, crops the photo and uploads the crop with a progress bar before going on', async ({ page, context }) => {
  const base = test.info().project.use.baseURL!;
  await context.addCookies([
    { name: 'lang', value: 'en', url: base },
    { name: 'entry_ok', value: '1', url: base },
  ]);
  const signup = await page.request.post('/api/signup.php', {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
    data: {
      email: `e2e-step-${randomBytes(5).toString('hex')}@example.com`,
      name: `Sta${randomBytes(2).toString('hex')}`,
      password: 'e2e-step-password-1',
      date_of_birth: '1989-05-06',
      gender: 'female',
      looking_for: 'male',
    },
  });
  expect(signup.status()).toBe(201);
  // What the page sends and how far its upload got, kept in sessionStorage across the step's reload.
  await page.addInitScript(() => {
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (body) {
      const photo = body instanceof FormData ? body.get('photo') : null;
      if (photo instanceof Blob) {
        void createImageBitmap(photo).then((b) => sessionStorage.setItem('sentPhoto', JSON.stringify({ type: photo.type, width: b.width, height: b.height })));
        this.upload.addEventListener('progress', (e) => sessionStorage.setItem('uploadProgress', String(Math.round((100 * e.loaded) / e.total))));
      }
      return send.call(this, body);
    };
  });
  await page.goto('/complete-signup');
  await expect(page.getByText('Step 1 of 4')).toBeVisible();
  const picker = page.getByLabel('Choose a photo');
  await picker.setInputFiles({ name: 'song.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from('ID3') });
  await expect(page.locator('[data-step-note]')).toHaveText('song.mp3 is not a photo we can use. Please choose a JPEG, PNG, WebP or GIF file.');
  const buffer = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#d05a7e' } })
    .jpeg()
    .toBuffer();
  await picker.setInputFiles({ name: 'beach.jpg', mimeType: 'image/jpeg', buffer });
  await expect(page.locator('[data-step-note]')).toHaveText('');
  const canvas = page.getByRole('img', { name: 'Crop of your photo' });
  await expect(canvas).toHaveAttribute('data-crop-box', '240,0,720,900');
  await canvas.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(canvas).toHaveAttribute('data-crop-box', '180,0,720,900');
  await page.getByRole('button', { name: 'Upload photo' }).click();
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('sentPhoto')))!)).toEqual({ type: 'image/jpeg', width: 720, height: 900 });
  expect(await page.evaluate(() => sessionStorage.getItem('uploadProgress'))).toBe('100');
});
