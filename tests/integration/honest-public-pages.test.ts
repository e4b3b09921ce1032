/**
 * What the public pages say about members (HON-01, HON-02) over real HTTP against the built server: no
 * member is shown live, online, on camera or in a video call; the live-cam block is a configured partner's
 * advertisement or nothing; a real member appears only when they chose to, and then only by first name,
 * age, city and main photo. localhost is site 1 (live_cam_promo on), 127.0.0.1 site 2.
 */
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photos, profiles, sitePartners, users } from '../../src/db/schema';
import { LANDER_NAMES } from '../../src/server/landers/names';
import { totpCode } from '../../src/server/staff/accounts';
import { readAudit } from '../../src/server/audit';
import { DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET } from '../../src/demo/staff';
import { startTestServer, type TestServer } from '../setup/server';

const LANDERS = [...LANDER_NAMES, 'tinderswipe'] as const;

/** Claims that a member is live, online, recently active, on camera or in a video call, per tested language. */
const LIVE_CLAIMS: Record<string, RegExp[]> = {
  en: [/recently active|active (now|today)/i, /\bonline\b/i, /\bon cam(era)?\b/i, /\bvideo[ -]?(chat|call|date)/i, /watch (them )?live/i, /class="live-badge"/, />\s*live\s*</i, /live-dot/],
  nl: [/onlangs actief|(nu|vandaag) actief/i, /\bonline\b/i, /videochat|videogesprek|video-date/i, /voor de camera/i, /live kijken/i, />\s*live\s*</i, /live-dot/],
  de: [/kürzlich aktiv|(jetzt|heute) aktiv/i, /\bonline\b/i, /videochat|videoanruf|video-date/i, /vor der kamera/i, /live zusehen/i, />\s*live\s*</i, /live-dot/],
};

/** The visible text and attributes of a page, without its stylesheets and scripts. */
function body(html: string): string {
  return html.replace(/<style[\s\S]*?<\/style>/g, '').replace(/<script[\s\S]*?<\/script>/g, '');
}

let shade = 0;
async function jpeg(): Promise<Buffer> {
  shade = (shade + 53) % 256;
  return sharp({ create: { width: 500, height: 640, channels: 3, background: { r: shade, g: 40, b: 200 } } })
    .jpeg()
    .toBuffer();
}

async function multipart(fields: Record<string, string>, files: Array<{ bytes: Buffer; name: string; type: string }>): Promise<{ body: Buffer; type: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('images', new File([new Uint8Array(f.bytes)], f.name, { type: f.type }));
  const response = new Response(form);
  return { body: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type')! };
}

describe('honest and private public pages', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer();
    const login = await server.request('/admin/login', {
      method: 'POST',
      headers: { origin: `http://localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
      cookies: { lang: 'en' },
      body: new URLSearchParams({ email: 'admin@demo.test', password: DEMO_STAFF_PASSWORD, code: totpCode(DEMO_TOTP_SECRET, new Date()) }).toString(),
    });
    expect(login.status).toBe(303);
    admin = login.setCookies.staff_session!.value;
  });
  afterAll(async () => {
    await server?.close();
  });

  const contentChanged = async (siteId: number) => server.booted.app.bus.publish('site.content_changed', { siteId });
  /** Every public page that can show members, on one site. */
  const publicPaths = async (siteId: number) => {
    const shown = await server.booted.app.db
      .select({ id: users.id })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(users.siteId, siteId), eq(users.status, 'active'), eq(profiles.status, 'active')))
      .orderBy(users.id)
      .limit(6);
    return [
      '/',
      ...LANDERS.map((n) => `/landers/${n}`),
      ...shown.flatMap((m) => [`/members/${m.id}/landing`, `/members/${m.id}/landing2`, `/members/${m.id}/landing3`, `/members/${m.id}/signup`]),
      '/sitemap.xml',
    ];
  };
  const postPartner = async (fields: Record<string, string>, files: Array<{ bytes: Buffer; name: string; type: string }>) => {
    const { body: payload, type } = await multipart({ action: 'save', ...fields }, files);
    return server.request('/admin/partner?site=1', {
      method: 'POST',
      headers: { origin: `http://localhost:${server.port}`, 'content-type': type },
      cookies: { lang: 'en', staff_session: admin },
      body: payload,
    });
  };

  it('HON-01 no public page shows a member live, online, recently active, on camera or in a video call, in English, Dutch and German on both sites', async () => {
    for (const [host, siteId, langs] of [
      ['localhost', 1, ['en', 'nl']],
      ['127.0.0.1', 2, ['de', 'en']],
    ] as const) {
      for (const path of await publicPaths(siteId)) {
        for (const lang of langs) {
          const res = await server.request(path, { host, cookies: { lang } });
          if (res.status !== 200) continue;
          const text = body(res.text);
          for (const claim of LIVE_CLAIMS[lang]!) expect(text, `${host}${path} in ${lang}: ${claim}`).not.toMatch(claim);
          // Every text says what it says: no placeholder left unfilled.
          expect(text.replace(/<[^>]+>/g, ' '), `${host}${path} in ${lang}`).not.toContain('{{');
          // Without a partner there is no live-cam block at all.
          expect(text, `${host}${path}`).not.toContain('data-live-cam');
        }
      }
    }
  });

  it('HON-01 the video lander shows the site’s chat as an illustration: no member’s photo, no call, no invented words', async () => {
    const html = (await server.request('/landers/video', { cookies: { lang: 'en' } })).text;
    const hero = /<section class="video-hero">[\s\S]*?<\/section>/.exec(html)![0];
    expect(hero).toContain('data-chat-illustration');
    expect(hero).toContain('Illustration of a conversation on');
    expect(hero).toMatch(/Illustration\. On [^{<]+ you get to know each other in messages\./);
    expect(hero).not.toMatch(/\/photos\//);
    expect(hero).not.toMatch(/video-bubble|Nice to see you|up to tonight/);
  });

  it('HON-01 the live-cam block is the configured partner’s advertisement, with its own images and the site’s tracking; invalid input changes nothing; removed, it is gone', async () => {
    const { db } = server.booted.app;
    // Refused: nothing stored.
    const bad = await postPartner({ name: '', url: 'http://cams.example.com/?aff=42' }, [{ bytes: Buffer.from('not an image'), name: 'x.jpg', type: 'image/jpeg' }]);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('data-field-error="name"');
    expect(bad.text).toContain('Enter a full https address');
    expect(bad.text).toContain('data-field-error="images"');
    expect(await db.select().from(sitePartners)).toEqual([]);

    const saved = await postPartner({ name: 'CamPartner', url: 'https://cams.example.com/join?aff=42' }, [
      { bytes: await jpeg(), name: 'a.jpg', type: 'image/jpeg' },
      { bytes: await jpeg(), name: 'b.jpg', type: 'image/jpeg' },
    ]);
    expect(saved.status).toBe(303);
    const [partner] = await db.select().from(sitePartners).where(eq(sitePartners.siteId, 1));
    expect(partner).toMatchObject({ name: 'CamPartner', url: 'https://cams.example.com/join?aff=42' });
    expect(partner!.images).toHaveLength(2);
    expect((await readAudit(db, { target: { type: 'site', id: '1' } })).map((r) => r.action)).toContain('site.partner');

    const memberFiles = new Set((await db.select({ f: photos.filename, t: photos.thumbFilename }).from(photos)).flatMap((p) => [p.f, p.t]));
    for (const path of ['/', '/landers/gallery', '/landers/video', '/landers/tinderswipe']) {
      const html = (await server.request(path, { cookies: { lang: 'en' } })).text;
      const block = /<aside class="live-cam"[\s\S]*?<\/aside>/.exec(html)?.[0] ?? '';
      expect(block, path).toContain('Advertisement · CamPartner');
      const images = [...block.matchAll(/<img [^>]*src="\/photos\/([^"]+)"/g)].map((m) => m[1]!);
      expect(images, path).toEqual(partner!.images.map((i) => i.file));
      for (const file of images) expect(memberFiles.has(file)).toBe(false);
      const link = /<a [^>]*data-live-cam-cta[^>]*>/.exec(block)![0];
      expect(link).toContain('rel="sponsored noopener"');
      expect(link).toContain('https://cams.example.com/join?aff=42&amp;utm_source=');
      // Site 2 has the block off and no partner.
      expect((await server.request(path, { host: '127.0.0.1', cookies: { lang: 'en' } })).text).not.toContain('data-live-cam');
    }
    const file = partner!.images[0]!.file;
    expect((await server.request(`/photos/${file}`)).status).toBe(200);
    expect((await server.request(`/photos/${file}`, { host: '127.0.0.1' })).status).toBe(404);

    const { body: removeBody, type } = await multipart({ action: 'remove' }, []);
    const removed = await server.request('/admin/partner?site=1', {
      method: 'POST',
      headers: { origin: `http://localhost:${server.port}`, 'content-type': type },
      cookies: { lang: 'en', staff_session: admin },
      body: removeBody,
    });
    expect(removed.status).toBe(303);
    expect((await server.request('/landers/gallery', { cookies: { lang: 'en' } })).text).not.toContain('data-live-cam');
    expect((await server.request(`/photos/${file}`)).status).toBe(404);
  });

  it('HON-02 public pages show only members who chose it, by first name, age, city and main photo: never about-me, interests or other photos', async () => {
    const { db } = server.booted.app;
    // Every real member gets words and an interest nobody else has; a fictional profile keeps its own.
    await db.execute(sql`update profiles set about = 'PRIVATE-ABOUT-' || user_id, interests = '["bdsm"]'::jsonb where fictional = false`);
    const real = await db
      .select({ id: users.id, name: profiles.name, chose: users.publicProfile, photo: profiles.mainPhotoId })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(users.siteId, 1), eq(users.role, 'member'), eq(users.status, 'active'), eq(profiles.status, 'active'), eq(users.invisible, false)))
      .orderBy(users.id);
    const chose = real.filter((m) => m.chose && m.photo !== null);
    const didNot = real.filter((m) => !m.chose);
    expect(chose.length).toBeGreaterThan(0);
    expect(didNot.length).toBeGreaterThan(0);
    // One who chose it turns invisible: gone from the public pages too.
    const hidden = chose.at(-1)!;
    await db.update(users).set({ invisible: true }).where(eq(users.id, hidden.id));
    await contentChanged(1);
    try {
      const otherPhotos = await db
        .select({ f: photos.filename })
        .from(photos)
        .innerJoin(profiles, eq(profiles.userId, photos.userId))
        .where(and(eq(profiles.fictional, false), ne(photos.id, sql`coalesce(${profiles.mainPhotoId}, 0)`)));
      for (const path of await publicPaths(1)) {
        for (const lang of ['en', 'nl']) {
          const res = await server.request(path, { cookies: { lang } });
          const text = body(res.text);
          expect(text, path).not.toContain('PRIVATE-ABOUT-');
          expect(text, path).not.toMatch(/BDSM/i);
          for (const p of otherPhotos) expect(text, path).not.toContain(p.f);
          for (const m of [...didNot, hidden]) expect(text, `${path}: member ${m.id}`).not.toContain(`data-member-id="${m.id}"`);
        }
      }
      // Their member landings are not there; one who chose it has theirs.
      for (const m of [...didNot.slice(0, 3), hidden]) expect((await server.request(`/members/${m.id}/landing`, { cookies: { lang: 'en' } })).status).toBe(404);
      const shown = chose[0]!;
      const landing = await server.request(`/members/${shown.id}/landing`, { cookies: { lang: 'en' } });
      expect(landing.status).toBe(200);
      expect(landing.text).toContain(`data-member-id="${shown.id}"`);
      expect(landing.text).not.toContain('PRIVATE-ABOUT-');
      expect(body(landing.text)).not.toContain('class="member-thumbs"');
    } finally {
      await db.update(users).set({ invisible: false }).where(eq(users.id, hidden.id));
      await contentChanged(1);
    }
  });

  it('HON-02 the choice is asked at signup (off unless ticked), changed in settings, in the data export, and a visitor’s search shows only those who chose it', async () => {
    const { db } = server.booted.app;
    const XHR = { 'x-requested-with': 'XMLHttpRequest' };
    const signup = (email: string, extra: Record<string, unknown>) =>
      server.request('/api/signup.php', {
        method: 'POST',
        headers: XHR,
        cookies: { lang: 'en' },
        body: { email, name: 'Anna', password: 'a-long-pass-phrase-9', date_of_birth: '1990-05-05', gender: 'female', looking_for: 'male', ...extra },
      });
    expect((await signup('hon02-yes@example.com', { public_profile: true })).status).toBe(201);
    const no = await signup('hon02-no@example.com', {});
    expect(no.status).toBe(201);
    const rows = await db
      .select({ email: users.email, on: users.publicProfile })
      .from(users)
      .where(inArray(users.email, ['hon02-yes@example.com', 'hon02-no@example.com']));
    expect(Object.fromEntries(rows.map((r) => [r.email, r.on]))).toEqual({ 'hon02-yes@example.com': true, 'hon02-no@example.com': false });

    // The signup form asks, unticked.
    const form = (await server.request('/signup', { cookies: { lang: 'en' } })).text;
    expect(form).toMatch(/<input[^>]*name="public_profile"[^>]*>/);
    expect(/<input[^>]*name="public_profile"[^>]*>/.exec(form)![0]).not.toContain('checked');
    expect(form).toContain('Show me on the public pages');

    // Settings turn it on and off.
    const session = no.setCookies.session!.value;
    const page = await server.request('/settings', { cookies: { lang: 'en', session } });
    expect(page.text).toContain('data-public-profile-state="off"');
    const post = (value: string) =>
      server.request('/settings', {
        method: 'POST',
        headers: { origin: `http://localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
        cookies: { lang: 'en', session },
        body: `form=public_profile&public_profile=${value}`,
      });
    expect((await post('maybe')).status).toBe(400);
    expect((await post('1')).headers.location).toBe('/settings?saved=public_profile_on#public-profile');
    const [after] = await db.select({ on: users.publicProfile }).from(users).where(eq(users.email, 'hon02-no@example.com'));
    expect(after!.on).toBe(true);
    const exported = JSON.parse((await server.request('/api/user-data.php', { cookies: { lang: 'en', session } })).text);
    expect(exported.account.public_profile).toBe(true);
    await post('0');
    expect((await server.request('/settings', { cookies: { lang: 'en', session } })).text).toContain('data-public-profile-state="off"');
  });
});
