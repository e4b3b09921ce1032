/**
 * The account lifecycle over real HTTP against the built app and a real database (in-memory PGlite,
 * and PostgreSQL when it answers): completing the signup (SIGN-02, PHO-01, PHO-02, PHO-04), the signup
 * matches (GAME-03), deleting and reactivating (DEL-01) and the data export (GDPR-01). Every form and
 * endpoint also gets its bad inputs, each of which must answer with its error and change nothing.
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, mailOutbox, photos, profiles, regions, sessions, users } from '../../src/db/schema';
import { databaseKinds } from '../setup/databases';
import { startTestServer, type TestResponse, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const PASSWORD = 'lifecycle passphrase 42';

describe.each(await databaseKinds())('account lifecycle on %s', (kind) => {
  let server: TestServer;
  let origin: string;

  beforeAll(async () => {
    server = await startTestServer({ db: kind });
    origin = `http://localhost:${server.port}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.booted.app.db;

  /** Raw HTTP (binary bodies too), as a browser on site 1 in English sends it. */
  function send(path: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer | string; token?: string; origin?: string | null } = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { host: `localhost:${server.port}`, cookie: `lang=en; entry_ok=1${options.token ? `; session=${options.token}` : ''}`, ...options.headers };
    if (options.origin !== null && options.method && options.method !== 'GET') headers.origin = options.origin ?? origin;
    return server.request(path, { method: options.method ?? 'GET', headers, ...(options.body === undefined ? {} : { body: options.body }) });
  }

  const postForm = (path: string, token: string | undefined, fields: Record<string, string | string[]>, extra: { origin?: string | null } = {}) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    return send(path, { method: 'POST', token, body: body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' }, ...extra });
  };

  async function postUpload(token: string, fields: Record<string, string>, file?: { name: string; type: string; body: Buffer }) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    if (file) form.set('photo', new File([new Uint8Array(file.body)], file.name, { type: file.type }));
    const built = new Request('http://localhost/', { method: 'POST', body: form });
    const body = Buffer.from(await built.arrayBuffer());
    return send('/complete-signup', { method: 'POST', token, body, headers: { 'content-type': built.headers.get('content-type')!, 'content-length': String(body.length) } });
  }

  /** A new member signed up through POST /api/signup.php; returns the session token and ids. */
  async function signUp(gender: 'male' | 'female' = 'male', lookingFor: 'male' | 'female' | 'both' = 'female') {
    const email = `life-${randomBytes(5).toString('hex')}@example.com`;
    const res = await send('/api/signup.php', {
      method: 'POST',
      headers: { ...XHR, 'content-type': 'application/json' },
      body: JSON.stringify({ email, name: `Life${randomBytes(3).toString('hex')}`, password: PASSWORD, date_of_birth: '1990-05-05', gender, looking_for: lookingFor }),
    });
    expect(res.status).toBe(201);
    const token = res.setCookies.session!.value;
    return { token, email, id: res.json().id as number };
  }

  async function account(id: number) {
    const [user] = await db().select().from(users).where(eq(users.id, id));
    const [profile] = await db().select().from(profiles).where(eq(profiles.userId, id));
    const photoRows = await db().select().from(photos).where(eq(photos.userId, id));
    return { user: user!, profile: profile!, photos: photoRows };
  }

  const jpeg = (w = 900, h = 700) =>
    sharp({ create: { width: w, height: h, channels: 3, background: '#cc5577' } })
      .withExif({ IFD0: { Make: 'PhoneCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 5/1 0/1' } })
      .jpeg()
      .toBuffer();

  describe('completing the signup', () => {
    it('SIGN-02 is for members only: a visitor is sent to log in', async () => {
      const res = await send('/complete-signup');
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/login?next=%2Fcomplete-signup');
    });

    it('SIGN-02 a new member starts at step 0, the photo, with a labelled file input and "Step 1 of 4"', async () => {
      const m = await signUp();
      const res = await send('/complete-signup', { token: m.token });
      expect(res.status).toBe(200);
      expect(res.text).toContain('Step 1 of 4');
      expect(res.text).toMatch(/<label[^>]*for="photo-file"/);
      expect(res.text).toMatch(/<input[^>]*id="photo-file"[^>]*type="file"[^>]*accept="image\/jpeg,image\/png,image\/webp"/);
      expect(res.text).toContain('enctype="multipart/form-data"');
      expect((await account(m.id)).user.signupStep).toBe(0);
    });

    it('SIGN-02 PHO-04 bad uploads answer with their error and change nothing', async () => {
      const m = await signUp();
      const cases: Array<[string, () => Promise<TestResponse>, number, string]> = [
        [
          'text renamed .jpg',
          () => postUpload(m.token, { step: '0', action: 'upload' }, { name: 'holiday.jpg', type: 'image/jpeg', body: Buffer.from('just some text, not an image') }),
          415,
          'not a photo we can use',
        ],
        ['no file chosen', () => postUpload(m.token, { step: '0', action: 'upload' }), 400, 'Choose a photo first'],
        ['too large', () => postUpload(m.token, { step: '0', action: 'upload' }, { name: 'big.jpg', type: 'image/jpeg', body: Buffer.alloc(10 * 1024 * 1024 + 128 * 1024, 0xff) }), 413, 'too large'],
        ['unknown action', () => postForm('/complete-signup', m.token, { step: '0', action: 'format-disk' }), 400, 'Please check'],
      ];
      for (const [name, run, status, text] of cases) {
        const res = await run();
        expect(res.status, name).toBe(status);
        expect(res.text, name).toContain(text);
        const now = await account(m.id);
        expect(now.user.signupStep, name).toBe(0);
        expect(now.photos, name).toHaveLength(0);
        expect(now.profile.mainPhotoId, name).toBeNull();
      }
    });

    it('SIGN-02 a form posted for another step, or from another site, changes nothing', async () => {
      const m = await signUp();
      const stale = await postForm('/complete-signup', m.token, { step: '3', action: 'next' });
      expect(stale.status).toBe(303);
      expect(stale.headers.location).toBe('/complete-signup');
      const crossSite = await postForm('/complete-signup', m.token, { step: '0', action: 'next' }, { origin: 'https://evil.example' });
      expect(crossSite.status).toBe(403);
      const noOrigin = await postForm('/complete-signup', m.token, { step: '0', action: 'next' }, { origin: null });
      expect(noOrigin.status).toBe(403);
      const visitor = await postForm('/complete-signup', undefined, { step: '0', action: 'next' });
      expect(visitor.status).toBe(302);
      expect((await account(m.id)).user.signupStep).toBe(0);
    });

    it('SIGN-02 PHO-02 PHO-04 a real photo is stored without metadata, waits for review as the main photo, and the step moves on', async () => {
      const m = await signUp();
      const res = await postUpload(m.token, { step: '0', action: 'upload' }, { name: 'me.jpg', type: 'image/jpeg', body: await jpeg() });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/complete-signup');
      const now = await account(m.id);
      expect(now.user.signupStep).toBe(1);
      expect(now.photos).toHaveLength(1);
      expect(now.photos[0]).toMatchObject({ status: 'inspection_pending', width: 480, height: 600 });
      expect(now.profile.mainPhotoId).toBe(now.photos[0]!.id);
      // The owner gets the stripped WebP; anyone else gets nothing while it is under review.
      const own = await send(`/photos/${now.photos[0]!.filename}`, { token: m.token });
      expect(own.status).toBe(200);
      expect(own.headers['content-type']).toBe('image/webp');
      expect(own.text).not.toContain('PhoneCam');
      expect((await send(`/photos/${now.photos[0]!.filename}`)).status).toBe(404);
      // The profile shows it as being reviewed.
      expect((await send('/profile', { token: m.token })).text).toContain('Your photo is being reviewed');
      expect((await send('/complete-signup', { token: m.token })).text).toContain('Step 2 of 4');
    });

    it('SIGN-02 about me: bad fields are refused without saving anything; good ones are saved to the profile', async () => {
      const m = await signUp();
      await postForm('/complete-signup', m.token, { step: '0', action: 'next' });
      const page = await send('/complete-signup', { token: m.token });
      expect(page.text).toContain('Step 2 of 4');
      expect(page.text).toMatch(/<label[^>]*for="about-text"/);
      const [nl] = await db().select({ id: regions.id }).from(regions).where(eq(regions.country, 'NL')).limit(1);
      const [de] = await db().select({ id: regions.id }).from(regions).where(eq(regions.country, 'DE')).limit(1);
      expect(page.text).toContain(`value="${nl!.id}"`);
      const before = (await account(m.id)).profile;
      const bad: Array<[string, Record<string, string | string[]>, string]> = [
        ['about too long', { about: 'x'.repeat(1001) }, 'at most 1000 characters'],
        ['unknown interest', { about: 'Hi', interests: ['wine', 'knitting-bombs'] }, 'choose one of the options'],
        ['unknown hair colour', { about: 'Hi', hair_colour: 'green-ish' }, 'choose one of the options'],
        ['region of another country', { about: 'Hi', region_id: String(de!.id) }, 'choose one of the options'],
        ['region not a number', { about: 'Hi', region_id: 'drop table' }, 'choose one of the options'],
      ];
      for (const [name, fields, text] of bad) {
        const res = await postForm('/complete-signup', m.token, { step: '1', action: 'save', ...fields });
        expect(res.status, name).toBe(400);
        expect(res.text, name).toContain(text);
        const now = await account(m.id);
        expect(now.user.signupStep, name).toBe(1);
        expect(now.profile, name).toEqual(before);
      }
      const ok = await postForm('/complete-signup', m.token, {
        step: '1',
        action: 'save',
        about: '  I love long walks.  ',
        hair_colour: 'brown',
        eye_colour: 'green',
        body_type: 'athletic',
        relationship_status: 'single',
        tattoos: 'none',
        signup_reason: 'relationship',
        interests: ['wine', 'music', 'wine'],
        region_id: String(nl!.id),
      });
      expect(ok.status).toBe(303);
      const saved = await account(m.id);
      expect(saved.user.signupStep).toBe(2);
      expect(saved.profile).toMatchObject({
        about: 'I love long walks.',
        hairColour: 'brown',
        eyeColour: 'green',
        bodyType: 'athletic',
        relationshipStatus: 'single',
        tattoos: 'none',
        signupReason: 'relationship',
        interests: ['wine', 'music'],
        regionId: nl!.id,
      });
    });

    it('SIGN-02 push and confirm-e-mail steps, the summary, then the matches; a finished member is not sent back', async () => {
      const m = await signUp();
      await postForm('/complete-signup', m.token, { step: '0', action: 'next' });
      await postForm('/complete-signup', m.token, { step: '1', action: 'next' });
      const push = await send('/complete-signup', { token: m.token });
      expect(push.text).toContain('Step 3 of 4');
      expect(push.text).toContain('data-push-settings');
      expect((await postForm('/complete-signup', m.token, { step: '2', action: 'next' })).status).toBe(303);
      const confirm = await send('/complete-signup', { token: m.token });
      expect(confirm.text).toContain('Step 4 of 4');
      expect(confirm.text).toContain(m.email);
      expect(confirm.text).toContain('action="/api/activation-mail.php"');
      expect(confirm.text).not.toContain('data-email-confirmed');
      // Once the address is confirmed, the step says so.
      await db().update(users).set({ status: 'active', emailConfirmedAt: new Date() }).where(eq(users.id, m.id));
      expect((await send('/complete-signup', { token: m.token })).text).toContain('Your e-mail address is confirmed.');
      await postForm('/complete-signup', m.token, { step: '3', action: 'next' });
      const summary = await send('/complete-signup', { token: m.token });
      expect(summary.text).toContain('All steps done');
      expect(summary.text).toContain('Show my matches');
      const finish = await postForm('/complete-signup', m.token, { step: '4', action: 'next' });
      expect(finish.status).toBe(303);
      expect(finish.headers.location).toBe('/signup-matches');
      expect((await account(m.id)).user.signupStep).toBe(5);
      const again = await send('/complete-signup', { token: m.token });
      expect(again.status).toBe(302);
      expect(again.headers.location).toBe('/members');
      // A replayed form of the last step changes nothing.
      await postForm('/complete-signup', m.token, { step: '4', action: 'next' });
      expect((await account(m.id)).user.signupStep).toBe(5);
    });
  });

  describe('signup matches', () => {
    it('GAME-03 /signup-matches shows member cards of the wanted gender and age, never the member, with a link to all members', async () => {
      const m = await signUp('female', 'male');
      const res = await send('/signup-matches', { token: m.token });
      expect(res.status).toBe(200);
      expect(res.text).toContain('data-match-grid');
      expect(res.text).toContain('href="/members"');
      const ids = [...res.text.matchAll(/data-member-id="(\d+)"/g)].map((x) => Number(x[1]));
      expect(ids.length).toBeGreaterThan(0);
      expect(ids).not.toContain(m.id);
      for (const id of ids) {
        const { profile } = await account(id);
        expect(profile.gender).toBe('male');
        const born = Number(profile.birthDate.slice(0, 4));
        expect(Math.abs(born - 1990)).toBeLessThanOrEqual(11);
      }
      expect((await send('/signup-matches')).headers.location).toBe('/login?next=%2Fsignup-matches');
    });
  });

  describe('deleting the account', () => {
    it('DEL-01 the page is for members; it offers pause, no e-mail, the delete discount and the data download', async () => {
      expect((await send('/settings/delete')).headers.location).toBe('/login?next=%2Fsettings%2Fdelete');
      const m = await signUp();
      const [company] = await db().select({ deleteDiscount: companies.deleteDiscount }).from(companies).limit(1);
      const res = await send('/settings/delete', { token: m.token });
      expect(res.status).toBe(200);
      expect(res.text).toContain('Make me invisible');
      expect(res.text).toContain('Turn off all e-mail');
      expect(res.text).toContain(`get ${company!.deleteDiscount}% discount on your next credit purchase`);
      expect(res.text).toContain('href="/api/user-data.php"');
      expect(res.text).toMatch(/<label[^>]*for="delete-password"/);
    });

    it('DEL-01 pausing sets invisible mode; turning off e-mail disables every notification', async () => {
      const m = await signUp();
      const pause = await postForm('/settings/delete', m.token, { action: 'pause' });
      expect(pause.status).toBe(303);
      expect(pause.headers.location).toBe('/settings/delete?done=paused');
      expect((await account(m.id)).user.invisible).toBe(true);
      expect((await send('/settings/delete?done=paused', { token: m.token })).text).toContain('You are invisible now');
      const mail = await postForm('/settings/delete', m.token, { action: 'mail_off' });
      expect(mail.status).toBe(303);
      expect((await account(m.id)).user.notificationsDisabled).toHaveLength(8);
      expect((await account(m.id)).user.status).toBe('not_confirmed');
    });

    it('DEL-01 a wrong or missing password, an unknown action or a cross-site post deletes nothing', async () => {
      const m = await signUp();
      const cases: Array<[string, () => Promise<TestResponse>, number]> = [
        ['wrong password', () => postForm('/settings/delete', m.token, { action: 'delete', password: 'not my password' }), 400],
        ['no password', () => postForm('/settings/delete', m.token, { action: 'delete' }), 400],
        ['unknown action', () => postForm('/settings/delete', m.token, { action: 'explode' }), 400],
        ['cross-site', () => postForm('/settings/delete', m.token, { action: 'delete', password: PASSWORD }, { origin: 'https://evil.example' }), 403],
        ['visitor', () => postForm('/settings/delete', undefined, { action: 'delete', password: PASSWORD }), 302],
      ];
      for (const [name, run, status] of cases) {
        const res = await run();
        expect(res.status, name).toBe(status);
        if (name === 'wrong password') expect(res.text).toContain('The password is not correct.');
        const now = await account(m.id);
        expect(now.user.status, name).toBe('not_confirmed');
        expect(now.user.deletedAt, name).toBeNull();
        expect(now.user.invisible, name).toBe(false);
      }
      expect((await send('/api/user.php', { token: m.token })).status).toBe(200);
    });

    it('DEL-01 deleting logs out and hides the account; the mailed link restores it and logs the member in, once', async () => {
      const m = await signUp();
      await db().update(users).set({ status: 'active', emailConfirmedAt: new Date() }).where(eq(users.id, m.id));
      await db().update(profiles).set({ status: 'active' }).where(eq(profiles.userId, m.id));
      const res = await postForm('/settings/delete', m.token, { action: 'delete', password: PASSWORD });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/account-deleted');
      expect(res.setCookies.session?.raw).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/i);
      const deleted = await account(m.id);
      expect(deleted.user.status).toBe('deleted');
      expect(deleted.profile.status).toBe('disabled');
      expect(await db().select().from(sessions).where(eq(sessions.userId, m.id))).toHaveLength(0);
      expect((await send('/api/user.php', { token: m.token })).status).toBe(403);
      const page = await send('/account-deleted');
      expect(page.status).toBe(200);
      expect(page.text).toContain('14 days');

      const [mail] = await db()
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.userId, m.id), eq(mailOutbox.kind, 'account_deleted')))
        .orderBy(desc(mailOutbox.id))
        .limit(1);
      const link = /https?:\/\/[^"\s]+\/account\/reactivate\?token=[A-Za-z0-9_-]+/.exec(mail!.html)?.[0];
      expect(link).toBeTruthy();
      const url = new URL(link!);
      expect(url.origin).toBe(origin);

      // Opening the link only asks; it neither restores nor logs in (mail scanners open links too).
      const shown = await send(url.pathname + url.search);
      expect(shown.status).toBe(200);
      expect(shown.text).toContain('Restore my account');
      expect(shown.setCookies.session).toBeUndefined();
      expect((await account(m.id)).user.status).toBe('deleted');

      const token = url.searchParams.get('token')!;
      const bad = await postForm('/account/reactivate', undefined, { token: 'made-up-token-000000000000' });
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('This link is not valid.');
      expect((await account(m.id)).user.status).toBe('deleted');

      const restore = await postForm('/account/reactivate', undefined, { token });
      expect(restore.status).toBe(303);
      const session = restore.setCookies.session!.value;
      const me = await send('/api/user.php', { token: session });
      expect(me.status).toBe(200);
      expect(me.json()).toMatchObject({ id: m.id, status: 'active', profile: { status: 'active' } });
      const again = await postForm('/account/reactivate', undefined, { token });
      expect(again.status).toBe(400);
      expect(again.text).toContain('This link has already been used.');
    });
  });

  describe('data export', () => {
    it('GDPR-01 /api/user-data.php is for members only and offers no other method', async () => {
      const anonymous = await send('/api/user-data.php');
      expect(anonymous.status).toBe(403);
      expect(anonymous.json().error).toBe('authentication_required');
      const m = await signUp();
      const post = await send('/api/user-data.php', { method: 'POST', token: m.token, headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(post.status).toBe(405);
      expect(post.json().error).toBe('method_not_allowed');
    });

    it('GDPR-01 a member downloads their data as a JSON attachment with account, profile, photos, sessions, ledger, mails and page events', async () => {
      const m = await signUp();
      await postUpload(m.token, { step: '0', action: 'upload' }, { name: 'me.jpg', type: 'image/jpeg', body: await jpeg() });
      const res = await send('/api/user-data.php', { token: m.token, headers: { 'user-agent': 'ExportBrowser/2' } });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="[a-z0-9-]+-data-${m.id}\\.json"$`));
      expect(res.headers['cache-control']).toContain('no-store');
      const data = res.json();
      expect(data.account).toMatchObject({ id: m.id, email: m.email, status: 'not_confirmed' });
      expect(data.profile.name).toMatch(/^Life/);
      expect(data.photos).toEqual([expect.objectContaining({ status: 'inspection_pending', main: true })]);
      expect(data.sessions.length).toBeGreaterThan(0);
      expect(data.credit_ledger).toEqual(expect.any(Array));
      expect(data.mails).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'activation', to: m.email })]));
      expect(data.page_events).toEqual(expect.any(Array));
      expect(res.text).not.toMatch(/argon2|password_hash/);
    });
  });
});
