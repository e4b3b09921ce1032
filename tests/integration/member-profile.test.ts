/**
 * The profile screen over HTTP (issue 9): `/members/{id}` and `/likes/m/{id}` answer 404 unless the
 * member is listed to the viewer (MEM-03, BLK-01), the like/unlike/block/unblock server forms, visitors
 * sent to the signup (SPEC §8), the 'new like' flag cleared on opening (LIK-02), premium photos blurred
 * for non-premium viewers with the sharp file refused (MEM-04, SEC-07), and the editable /profile.
 */
import { and, eq, inArray, ne } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, likes, photos, profiles, regions, users } from '../../src/db/schema';
import { searchMembers } from '../../src/server/members/search';
import { ensureBlurred } from '../../src/server/photos/blur';
import { createSession } from '../../src/server/auth/sessions';
import { startTestServer, type TestResponse, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

describe('member profile screen', () => {
  let server: TestServer;
  let origin: string;
  let free: { id: number; token: string };
  let premiumToken: string;
  /** Listed site-1 members, one per test that changes them. */
  let members: number[];
  let otherSite: number;

  beforeAll(async () => {
    server = await startTestServer();
    origin = `http://localhost:${server.port}`;
    const db = server.booted.app.db;
    const login = async (email: string) => (await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email, password: 'demo-password-1' } })).setCookies.session!.value;
    const [freeRow] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.siteId, 1), eq(users.email, 'free@demo.test')));
    free = { id: freeRow!.id, token: await login('free@demo.test') };
    premiumToken = await login('premium@demo.test');
    const [premiumRow] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.siteId, 1), eq(users.email, 'premium@demo.test')));
    const premiumId = premiumRow!.id;
    const listed = await db
      .select({ id: users.id })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(users.siteId, 1), ne(users.role, 'operator'), ne(users.id, free.id), eq(users.status, 'active'), eq(users.invisible, false), eq(profiles.status, 'active')))
      .orderBy(users.id)
      .limit(12);
    members = listed.map((r) => r.id).filter((id) => id !== premiumId);
    expect(members.length).toBeGreaterThanOrEqual(10);
    const [other] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.siteId, 2), ne(users.role, 'operator')))
      .limit(1);
    otherSite = other!.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.booted.app.db;
  const get = (path: string, token?: string) => server.request(path, { cookies: { lang: 'en', entry_ok: '1', ...(token ? { session: token } : {}) } });
  const post = (path: string, token: string | undefined, fields: Record<string, string | string[]>): Promise<TestResponse> => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    return server.request(path, {
      method: 'POST',
      body: body.toString(),
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      cookies: { lang: 'en', entry_ok: '1', ...(token ? { session: token } : {}) },
    });
  };
  const likeRow = async (liker: number, liked: number) =>
    (
      await db()
        .select()
        .from(likes)
        .where(and(eq(likes.likerId, liker), eq(likes.likedId, liked)))
    )[0];

  it('MEM-03 the screen has the photo viewer, thumbnails, details, interest icons and the four buttons', async () => {
    const id = members[0]!;
    const page = await get(`/members/${id}`, free.token);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`data-profile-id="${id}"`);
    expect(page.text).toContain('data-photo-viewer');
    expect(page.text).toMatch(/<astro-island[^>]*client="visible"/);
    expect(page.text).toContain('data-viewer-image');
    expect(page.text).toContain(`href="/members/${id}/chat"`);
    expect(page.text).toContain(`href="/members/${id}/chat?gift=1"`);
    expect(page.text).toMatch(/<form method="post" action="\/members\/\d+">[\s\S]*?value="like"/);
    expect(page.text).toContain(`href="/members/${id}?confirm=block"`);
    expect(page.text).toContain('id="block-modal"');
    expect(page.text).toMatch(/class="interest-badge"[\s\S]*?<svg class="interest-icon"/);
    expect(page.text).not.toContain('interest-icon-generic');
    // The country by its name in the page's language, not its code.
    const [shown] = await db().select({ country: profiles.country }).from(profiles).where(eq(profiles.userId, id));
    expect(page.text).toContain(`data-field="country">${new Intl.DisplayNames(['en'], { type: 'region' }).of(shown!.country)}</dd>`);
    // Without JavaScript the block button leads to the confirmation step.
    const confirm = await get(`/members/${id}?confirm=block`, free.token);
    expect(confirm.text).toContain('data-block-confirm');
    // /likes/m/{id} is the same screen.
    const twin = await get(`/likes/m/${id}`, free.token);
    expect(twin.status).toBe(200);
    expect(twin.text).toContain(`data-profile-id="${id}"`);
    expect(twin.text).toContain('name="next" value="/likes/m/');
  });

  it('MEM-03 BLK-01 answers 404 for unknown, other-site, invisible, deleted and disabled members, on both screens', async () => {
    const [invisible, deleted, disabled] = [members[1]!, members[2]!, members[3]!];
    await db().update(users).set({ invisible: true }).where(eq(users.id, invisible));
    await db().update(users).set({ status: 'deleted' }).where(eq(users.id, deleted));
    await db().update(profiles).set({ status: 'disabled' }).where(eq(profiles.userId, disabled));
    try {
      for (const id of [999999, otherSite, invisible, deleted, disabled]) {
        expect((await get(`/members/${id}`, free.token)).status, `member ${id}`).toBe(404);
        expect((await get(`/likes/m/${id}`, free.token)).status, `likes/m ${id}`).toBe(404);
      }
      expect((await get('/members/abc', free.token)).status).toBe(404);
      // A like of a member not listed is refused as not found, and nothing is stored.
      for (const id of [otherSite, invisible]) {
        expect((await post(`/members/${id}`, free.token, { action: 'like' })).status).toBe(404);
        expect(await likeRow(free.id, id)).toBeUndefined();
      }
    } finally {
      await db().update(users).set({ invisible: false }).where(eq(users.id, invisible));
      await db().update(users).set({ status: 'active' }).where(eq(users.id, deleted));
      await db().update(profiles).set({ status: 'active' }).where(eq(profiles.userId, disabled));
    }
  });

  it('MEM-03 LIK-01 like and unlike are server forms that return to the screen they came from', async () => {
    const id = members[4]!;
    const liked = await post(`/members/${id}`, free.token, { action: 'like', next: `/members/${id}` });
    expect(liked.status).toBe(303);
    expect(liked.headers.location).toBe(`/members/${id}`);
    expect(await likeRow(free.id, id)).toBeDefined();
    expect((await get(`/members/${id}`, free.token)).text).toContain('data-action-unlike');
    const fromLikes = await post(`/members/${id}`, free.token, { action: 'unlike', next: `/likes/m/${id}` });
    expect(fromLikes.headers.location).toBe(`/likes/m/${id}`);
    expect(await likeRow(free.id, id)).toBeUndefined();
    // Only the two screens are places to return to.
    expect((await post(`/members/${id}`, free.token, { action: 'like', next: 'https://evil.example/' })).headers.location).toBe(`/members/${id}`);
    expect((await post(`/members/${id}`, free.token, { action: 'nonsense' })).status).toBe(400);
    expect((await post(`/members/${id}`, free.token, { action: '__proto__' })).status).toBe(400);
  });

  it('BLK-01 block (after confirmation) hides the member both ways; unblock brings them back', async () => {
    const id = members[5]!;
    const blocked = await post(`/members/${id}`, free.token, { action: 'block', next: `/members/${id}` });
    expect(blocked.status).toBe(303);
    const gone = await get(blocked.headers.location as string, free.token);
    expect(gone.status).toBe(200);
    expect(gone.text).toContain(`data-blocked-member="${id}"`);
    expect(gone.text).toContain('data-unblock');
    expect(gone.text).not.toContain('data-photo-viewer');
    expect((await get(`/likes/m/${id}`, free.token)).text).toContain(`data-blocked-member="${id}"`);
    // Liking a blocked member is refused as not found.
    expect((await post(`/members/${id}`, free.token, { action: 'like' })).status).toBe(404);
    const unblocked = await post(`/members/${id}`, free.token, { action: 'unblock', next: `/members/${id}` });
    expect(unblocked.status).toBe(303);
    expect((await get(`/members/${id}`, free.token)).status).toBe(200);

    // Blocked by the other side: 404, and nothing to lift.
    const other = members[6]!;
    await db().insert(blocks).values({ blockerId: other, blockedId: free.id });
    try {
      const page = await get(`/members/${other}`, free.token);
      expect(page.status).toBe(404);
      expect(page.text).not.toContain('data-unblock');
      expect(page.text).not.toContain('data-blocked-member');
    } finally {
      await db()
        .delete(blocks)
        .where(and(eq(blocks.blockerId, other), eq(blocks.blockedId, free.id)));
    }
  });

  it('BLK-01 the blocker gets a page "You blocked <name>" (200) with an Unblock button and the way back to search; the blocked member and visitors get 404', async () => {
    const id = members[9]!;
    const [{ name }] = (await db().select({ name: profiles.name }).from(profiles).where(eq(profiles.userId, id))) as [{ name: string }];
    expect((await post(`/members/${id}`, free.token, { action: 'block', next: `/members/${id}` })).status).toBe(303);
    try {
      for (const path of [`/members/${id}`, `/likes/m/${id}`]) {
        const page = await get(path, free.token);
        expect(page.status, path).toBe(200);
        expect(page.text).toMatch(new RegExp(`<h1[^>]*>You blocked ${name}</h1>`));
        expect(page.text).toContain(`${name} cannot see you or write to you.`);
        expect(page.text).toContain(`<title>You blocked ${name}`);
        // No '404' and no error page: this is a page about the block.
        expect(page.text).not.toMatch(/>\s*404\s*</);
        expect(page.text).not.toContain('data-error-page');
        // Unblock is a real button of a form posting to the profile (Enter and Space work on it), and
        // it comes back to this page.
        expect(page.text).toMatch(
          new RegExp(
            `<form method="post" action="/members/${id}"[^>]*>\\s*<input type="hidden" name="next" value="${path}"[^>]*>\\s*<button[^>]*type="submit"[^>]*value="unblock"[^>]*>Unblock</button>`,
          ),
        );
        expect(page.text).toMatch(/<a href="\/members"[^>]*>Back to search<\/a>/);
      }
      // The profile itself is not shown.
      expect((await get(`/members/${id}`, free.token)).text).not.toContain('data-profile-id');
      // Dutch: the same page in the member's language.
      const dutch = await server.request(`/members/${id}`, { cookies: { lang: 'nl', entry_ok: '1', session: free.token } });
      expect(dutch.text).toContain(`Je hebt ${name} geblokkeerd`);
      expect(dutch.text).toContain(`${name} kan je niet zien en je geen berichten sturen.`);

      // The blocked member: the blocker's profile is not found, with nothing about a block.
      const blockedSession = await createSession(db(), server.booted.app.clock, id);
      for (const path of [`/members/${free.id}`, `/likes/m/${free.id}`]) {
        const page = await get(path, blockedSession.token);
        expect(page.status, path).toBe(404);
        expect(page.text).not.toContain('data-blocked-member');
        expect(page.text).not.toContain('data-unblock');
      }
      // Another member and a visitor still see the profile; the blocker's block is theirs alone.
      expect((await get(`/members/${id}`, premiumToken)).status).toBe(200);
      // A visitor as for anyone (HON-02): a fictional profile's page, a real member's public landing when
      // they chose the public pages, else not found.
      const [shown] = await db().select({ fictional: profiles.fictional, public: users.publicProfile }).from(profiles).innerJoin(users, eq(users.id, profiles.userId)).where(eq(users.id, id));
      expect((await get(`/members/${id}`)).status).toBe(shown!.fictional ? 200 : shown!.public ? 303 : 404);

      // A blocked member who is no longer on the site (deleted) is not found for the blocker too.
      await db().update(users).set({ status: 'deleted' }).where(eq(users.id, id));
      try {
        const page = await get(`/members/${id}`, free.token);
        expect(page.status).toBe(404);
        expect(page.text).not.toContain('data-blocked-member');
      } finally {
        await db().update(users).set({ status: 'active' }).where(eq(users.id, id));
      }

      // The button works: the block is lifted and the profile is back.
      const unblocked = await post(`/members/${id}`, free.token, { action: 'unblock', next: `/members/${id}` });
      expect(unblocked.status).toBe(303);
      expect(unblocked.headers.location).toBe(`/members/${id}`);
      const back = await get(`/members/${id}`, free.token);
      expect(back.status).toBe(200);
      expect(back.text).toContain(`data-profile-id="${id}"`);
    } finally {
      await db()
        .delete(blocks)
        .where(and(eq(blocks.blockerId, free.id), eq(blocks.blockedId, id)));
    }
  });

  it('MEM-03 HON-02 visitors get the buttons as links to the signup with the login-required text; a real member’s full profile is for members only', async () => {
    const db = server.booted.app.db;
    // A real member who chose the public pages: a visitor gets their member landing (first name, age, city, photo).
    const [real] = await db
      .select({ id: users.id })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(and(inArray(users.id, members), eq(profiles.fictional, false), eq(users.publicProfile, true)))
      .limit(1);
    const toLanding = await get(`/members/${real!.id}`);
    expect(toLanding.status).toBe(303);
    expect(toLanding.headers.location).toBe(`/members/${real!.id}/landing`);
    const [fictional] = await db
      .select({ id: users.id })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(users.siteId, 1), eq(profiles.fictional, true), eq(users.status, 'active')))
      .limit(1);
    const id = fictional!.id;
    const page = await get(`/members/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('href="/signup?required=like"');
    expect(page.text).toContain(`href="/signup?required=chat&amp;member=${id}"`);
    expect(page.text).not.toContain('id="block-modal"');
    const posted = await post(`/members/${id}`, undefined, { action: 'like' });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe('/signup?required=like');
    const signup = await get('/signup?required=like');
    expect(signup.text).toContain('data-login-required="like"');
    expect(signup.text).toContain('Log in or sign up free to like members.');
    expect((await get('/signup?required=bogus')).text).not.toContain('data-login-required');
  });

  it('LIK-02 opening the profile clears the new flag of that member’s like', async () => {
    const id = members[7]!;
    await db().insert(likes).values({ siteId: 1, likerId: id, likedId: free.id, source: 'profile' });
    expect((await likeRow(id, free.id))!.seenAt).toBeNull();
    expect((await get(`/members/${id}`, free.token)).status).toBe(200);
    expect((await likeRow(id, free.id))!.seenAt).not.toBeNull();
  });

  it('MEM-04 SEC-07 a non-premium viewer gets a blurred copy of a premium photo, never the sharp file', async () => {
    const app = server.booted.app;
    const id = members[8]!;
    // A detailed original (a fine checkerboard with noise): blurring must remove that detail.
    const size = { width: 480, height: 600 };
    const pixels = Buffer.alloc(size.width * size.height * 3);
    for (let y = 0; y < size.height; y++)
      for (let x = 0; x < size.width; x++) {
        const on = ((x >> 2) + (y >> 2)) % 2 === 0;
        const i = (y * size.width + x) * 3;
        pixels[i] = on ? 240 : 20;
        pixels[i + 1] = on ? 200 : 60;
        pixels[i + 2] = (x * 7 + y * 13) % 256;
      }
    const original = await sharp(pixels, { raw: { ...size, channels: 3 } })
      .webp({ quality: 90 })
      .toBuffer();
    const name = `ab${id}-sharp-premium-main.webp`;
    const thumb = `ab${id}-sharp-premium-thumb.webp`;
    await app.photos.put(name, original);
    await app.photos.put(thumb, original);
    const [row] = await db()
      .insert(photos)
      .values({ userId: id, filename: name, thumbFilename: thumb, status: 'active', premium: true, ...size })
      .returning();

    const page = await get(`/members/${id}`, free.token);
    expect(page.text).not.toContain(name);
    expect(page.text).not.toContain(thumb);
    expect(page.text).toContain('data-locked-photo');
    expect(page.text).toContain('href="/credits"');
    const [stored] = await db().select({ blurred: photos.blurredFilename }).from(photos).where(eq(photos.id, row!.id));
    const blurredName = stored!.blurred!;
    expect(blurredName).toMatch(/^[0-9a-f]{24}-blur\.webp$/);
    expect(page.text).toContain(`/photos/${blurredName}`);
    // Made once: a second view keeps the same copy.
    await get(`/members/${id}`, free.token);
    expect((await db().select({ blurred: photos.blurredFilename }).from(photos).where(eq(photos.id, row!.id)))[0]!.blurred).toBe(blurredName);

    // The sharp file and its thumbnail: refused to visitors and free members, sent to premium members.
    for (const file of [name, thumb]) {
      expect((await get(`/photos/${file}`)).status).toBe(404);
      expect((await get(`/photos/${file}`, free.token)).status).toBe(404);
      expect((await get(`/photos/${file}`, premiumToken)).status).toBe(200);
      // Not under the other site's host either, premium or not.
      expect((await server.request(`/photos/${file}`, { host: '127.0.0.1', cookies: { session: premiumToken } })).status).toBe(404);
    }
    const blurredRes = await get(`/photos/${blurredName}`, free.token);
    expect(blurredRes.status).toBe(200);
    expect(blurredRes.headers['content-type']).toBe('image/webp');

    // The blurred bytes: small, and without the original's fine detail (mean neighbour difference).
    const detail = async (image: Buffer) => {
      const { data, info } = await sharp(image).resize(160, 200, { fit: 'fill' }).greyscale().raw().toBuffer({ resolveWithObject: true });
      let sum = 0;
      for (let y = 0; y < info.height; y++) for (let x = 1; x < info.width; x++) sum += Math.abs(data[y * info.width + x]! - data[y * info.width + x - 1]!);
      return sum / (info.height * (info.width - 1));
    };
    const blurredBody = (await app.photos.get(blurredName))!.body;
    const meta = await sharp(blurredBody).metadata();
    expect([meta.width, meta.height]).toEqual([160, 200]);
    const [sharpDetail, blurDetail] = [await detail(original), await detail(blurredBody)];
    expect(sharpDetail).toBeGreaterThan(20);
    expect(blurDetail).toBeLessThan(3);

    // A premium member sees the sharp photo.
    const premium = await get(`/members/${id}`, premiumToken);
    expect(premium.text).toContain(name);
    expect(premium.text).not.toContain(blurredName);
  });

  it('MEM-04 a blurred copy is made once per photo even when two views race, and none without the sharp file', async () => {
    const app = server.booted.app;
    const deps = { db: app.db, photos: app.photos };
    const insert = async (name: string) =>
      (await db().insert(photos).values({ userId: members[8]!, filename: name, thumbFilename: name, status: 'active', premium: true, width: 48, height: 60 }).returning())[0]!;
    await app.photos.put(
      'rc-race-main.webp',
      await sharp({ create: { width: 48, height: 60, channels: 3, background: '#c2185b' } })
        .webp()
        .toBuffer(),
    );
    const raced = await insert('rc-race-main.webp');
    const [a, b] = await Promise.all([ensureBlurred(deps, raced), ensureBlurred(deps, raced)]);
    expect(a).not.toBeNull();
    expect(b).toBe(a);
    expect((await db().select({ blurred: photos.blurredFilename }).from(photos).where(eq(photos.id, raced.id)))[0]!.blurred).toBe(a);
    expect(await app.photos.exists(a!)).toBe(true);
    const missing = await insert('rc-missing-main.webp');
    expect(await ensureBlurred(deps, missing)).toBeNull();
    expect((await db().select({ blurred: photos.blurredFilename }).from(photos).where(eq(photos.id, missing.id)))[0]!.blurred).toBeNull();
    await db()
      .delete(photos)
      .where(inArray(photos.id, [raced.id, missing.id]));
  });

  it('MEM-06 on /profile "looking for" (the gender sought) and the reason for signing up have labels of their own, in every language', async () => {
    const labelsOf = (html: string, id: string) => [...html.matchAll(new RegExp(`<label[^>]*for="${id}"[^>]*>([^<]*)</label>`, 'g'))].map((m) => m[1]!.trim());
    const controlsOf = (html: string, id: string) => html.match(new RegExp(`<select[^>]*id="${id}"`, 'g')) ?? [];
    for (const lang of ['en', 'nl', 'de', 'fr', 'es', 'it', 'pl', 'da', 'fi', 'nb', 'sv']) {
      const page = await server.request('/profile', { cookies: { lang, entry_ok: '1', session: free.token } });
      expect(page.status, lang).toBe(200);
      // Each select is there once, with exactly one label of its own.
      for (const id of ['edit-looking_for', 'edit-signup_reason']) {
        expect(controlsOf(page.text, id), `${lang} ${id}`).toHaveLength(1);
        expect(labelsOf(page.text, id), `${lang} ${id}`).toHaveLength(1);
      }
      const [lookingFor] = labelsOf(page.text, 'edit-looking_for');
      const [reason] = labelsOf(page.text, 'edit-signup_reason');
      expect(lookingFor, lang).not.toBe('');
      expect(reason, lang).not.toBe('');
      expect(reason, `${lang}: the two fields share the label "${reason}"`).not.toBe(lookingFor);
      // No other control on the page carries either text as its label.
      const all = [...page.text.matchAll(/<label[^>]*>([^<]*)<\/label>/g)].map((m) => m[1]!.trim());
      expect(
        all.filter((l) => l === lookingFor),
        lang,
      ).toHaveLength(1);
      expect(
        all.filter((l) => l === reason),
        lang,
      ).toHaveLength(1);
    }
    const english = await get('/profile', free.token);
    expect(labelsOf(english.text, 'edit-looking_for')).toEqual(['Looking for']);
    expect(labelsOf(english.text, 'edit-signup_reason')).toEqual(['I&#39;m here for']); // the apostrophe, HTML-escaped
  });

  it('MEM-06 /profile saves the member’s fields and search preferences, which the search starts from', async () => {
    const [region] = await db().select({ id: regions.id }).from(regions).where(eq(regions.country, 'NL')).limit(1);
    const form = await get('/profile', free.token);
    expect(form.status).toBe(200);
    expect(form.text).toContain('data-profile-form');
    // 'Member since' in the page's language (English here) and the site's zone, not always in Dutch.
    const [me] = await db().select({ since: users.signupDate }).from(users).where(eq(users.id, free.id));
    expect(form.text).toContain(`data-member-since>${new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'Europe/Amsterdam' }).format(me!.since)}</dd>`);
    const saved = await post('/profile', free.token, {
      name: 'Freddie',
      about: 'Houd van wandelen.',
      hair_colour: 'brown',
      eye_colour: '',
      body_type: 'athletic',
      relationship_status: 'single',
      tattoos: 'none',
      signup_reason: 'relationship',
      region_id: String(region!.id),
      looking_for: 'both',
      search_min_age: '30',
      search_max_age: '45',
      interests: ['hiking', 'sushi'],
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe('/profile?saved=1');
    const [p] = await db().select().from(profiles).where(eq(profiles.userId, free.id));
    expect(p).toMatchObject({
      name: 'Freddie',
      about: 'Houd van wandelen.',
      hairColour: 'brown',
      eyeColour: null,
      sexuality: 'bi',
      regionId: region!.id,
      searchMinAge: 30,
      searchMaxAge: 45,
      interests: ['hiking', 'sushi'],
    });
    expect((await get('/profile?saved=1', free.token)).text).toContain('data-profile-saved');
    const search = await searchMembers(db(), { viewer: { siteId: 1, userId: free.id }, filters: {}, now: server.booted.app.clock.now() });
    expect(search.filters).toMatchObject({ gender: ['male', 'female'], region: region!.id, minAge: 30, maxAge: 45 });
  });

  it('MEM-06 /profile refuses bad input with 400 and translated errors, saving nothing', async () => {
    const [before] = await db().select().from(profiles).where(eq(profiles.userId, free.id));
    const [foreign] = await db().select({ id: regions.id }).from(regions).where(ne(regions.country, before!.country)).limit(1);
    const cases: Array<[Record<string, string | string[]>, string, string]> = [
      [{ name: '@freddie', looking_for: 'male' }, 'name', 'cannot start with @'],
      [{ name: 'Freddie', looking_for: 'aliens' }, 'looking_for', 'Choose one of the options.'],
      [{ name: 'Freddie', looking_for: 'male', search_min_age: '5' }, 'search_min_age', 'Choose an age between'],
      [{ name: 'Freddie', looking_for: 'male', search_min_age: '50', search_max_age: '30' }, 'search_max_age', 'cannot be below'],
      [{ name: 'Freddie', looking_for: 'male', search_max_age: 'old' }, 'search_max_age', 'Choose an age between'],
      [{ name: 'Freddie', looking_for: 'male', region_id: String(foreign!.id) }, 'region_id', 'Choose one of the options.'],
      [{ name: 'Freddie', looking_for: 'male', interests: ['hiking', 'constructor'] }, 'interests', 'Choose one of the options.'],
      [{ name: 'Freddie', looking_for: 'male', about: 'x'.repeat(1001) }, 'about', 'at most 1000'],
      [{ name: 'Freddie', looking_for: 'male', hair_colour: 'purple' }, 'hair_colour', 'Choose one of the options.'],
      [{}, 'name', 'must be 2 to 30'],
    ];
    for (const [fields, field, text] of cases) {
      const res = await post('/profile', free.token, fields);
      expect(res.status, JSON.stringify(fields).slice(0, 80)).toBe(400);
      expect(res.text).toContain(`data-field-error="${field}"`);
      expect(res.text).toContain(text);
    }
    const [after] = await db().select().from(profiles).where(eq(profiles.userId, free.id));
    expect(after).toEqual(before);
    // A visitor is sent to log in.
    expect((await post('/profile', undefined, { name: 'X' })).status).toBe(302);
  });
});
