/**
 * Photo management and moderation over HTTP (issue 12; PHO-01..04, OPS-01, OPS-04; decision 043): the
 * 3/25 limits with the SPEC §5 text, the member's own photo forms (main, premium, order, delete) refusing
 * other members' photo ids with 404, the queue at /admin/photos for moderators and admins only, approve /
 * reject / bulk decisions in the audit log, the rejection mail in the member's language, and an approved
 * main photo on the search cards and the (cached) landers at once. Images are made by sharp here.
 */
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, photos, profiles, users } from '../../src/db/schema';
import { hashPassword } from '../../src/server/auth/passwords';
import { listOwnPhotos } from '../../src/server/photos/manage';
import { createStaff, totpCode } from '../../src/server/staff/accounts';
import { databaseKinds } from '../setup/databases';
import { startTestServer, type TestResponse, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const PASSWORD = 'photo-test-password-1';

/** A small JPEG of one colour (sharp), different per call so no two uploads are the same bytes. */
let shade = 0;
async function jpeg(width = 600, height = 800): Promise<Buffer> {
  shade = (shade + 37) % 256;
  return sharp({ create: { width, height, channels: 3, background: { r: shade, g: 120, b: 255 - shade } } })
    .jpeg()
    .toBuffer();
}

/** A multipart body with `fields` and the files under `photo`. */
async function multipart(fields: Record<string, string>, files: Buffer[]): Promise<{ body: Buffer; type: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  files.forEach((f, i) => form.append('photo', new File([new Uint8Array(f)], `photo-${i}.jpg`, { type: 'image/jpeg' })));
  const response = new Response(form);
  return { body: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type')! };
}

describe('photo management and moderation', () => {
  let server: TestServer;
  let origin: string;
  let memberNo = 0;
  const staff: Record<'moderator' | 'operator' | 'admin', { cookie: string; id: number }> = {} as never;

  beforeAll(async () => {
    // PostgreSQL when it answers (row locks, typed parameters and the LISTEN/NOTIFY bus as in production); the e2e runs PGlite.
    server = await startTestServer({ db: (await databaseKinds())[0] });
    origin = `http://localhost:${server.port}`;
    // Own staff accounts (a TOTP code is good once per 30 s step, so no sharing with other suites).
    for (const role of ['moderator', 'operator', 'admin'] as const) {
      const account = await createStaff(server.booted.app, { email: `photos-${role}@test.example`, name: `Photo ${role}`, role, password: PASSWORD });
      const res = await server.request('/admin/login', {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        cookies: { lang: 'en' },
        body: new URLSearchParams({ email: account.email, password: PASSWORD, code: totpCode(account.totpSecret, new Date()) }).toString(),
      });
      expect(res.status, role).toBe(303);
      staff[role] = { cookie: res.setCookies.staff_session!.value, id: account.id };
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.booted.app.db;

  /** A new confirmed, listed member of site 1 with a password, logged in. */
  async function newMember(options: { paid?: boolean; language?: string; like?: { gender: string; sexuality: string; country: string; regionId: number | null; birthDate: string } } = {}) {
    memberNo++;
    const like = options.like ?? { gender: 'female', sexuality: 'hetero', country: 'NL', regionId: null, birthDate: '1990-05-05' };
    const email = `photos-${memberNo}@test.example`;
    const [user] = await db()
      .insert(users)
      .values({
        siteId: 1,
        email,
        passwordHash: await hashPassword(PASSWORD),
        status: 'active',
        emailConfirmedAt: new Date(),
        language: options.language ?? 'en',
        paidUser: options.paid ?? false,
        signupStep: 5,
      })
      .returning({ id: users.id });
    await db()
      .insert(profiles)
      .values({ userId: user!.id, siteId: 1, name: `Photographer ${memberNo}`, status: 'active', ...like, lastActiveAt: new Date(Date.now() + 60_000) });
    const login = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    return { id: user!.id, email, token: login.setCookies.session!.value };
  }

  const upload = async (token: string, file: Buffer) => {
    const { body, type } = await multipart({}, [file]);
    return server.request('/api/photos.php', { method: 'POST', body, headers: { origin, 'content-type': type }, cookies: { lang: 'en', session: token } });
  };
  const postProfile = (token: string, fields: Record<string, string>) =>
    server.request('/profile', {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      cookies: { lang: 'en', session: token },
    });
  const uploadForm = async (token: string, files: Buffer[]) => {
    const { body, type } = await multipart({ action: 'photo_upload' }, files);
    return server.request('/profile', { method: 'POST', body, headers: { origin, 'content-type': type }, cookies: { lang: 'en', session: token } });
  };
  const asStaff = (role: keyof typeof staff, path: string, fields?: [string, string][]): Promise<TestResponse> =>
    fields
      ? server.request(path, {
          method: 'POST',
          cookies: { lang: 'en', staff_session: staff[role].cookie },
          headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
        })
      : server.request(path, { cookies: { lang: 'en', staff_session: staff[role].cookie } });
  const photoRows = (userId: number) => db().select().from(photos).where(eq(photos.userId, userId)).orderBy(asc(photos.id));
  const mainOf = async (userId: number) => (await db().select({ main: profiles.mainPhotoId }).from(profiles).where(eq(profiles.userId, userId)))[0]!.main;

  it('PHO-01 PHO-02 PHO-04 a free member has at most 3 photos, premium 25; the next is refused with the SPEC §5 text; uploads wait for review', async () => {
    const free = await newMember();
    for (let i = 1; i <= 3; i++) {
      const res = await upload(free.token, await jpeg());
      expect(res.status).toBe(201);
      expect(res.json()).toMatchObject({ photo: { status: 'inspection_pending' }, count: i, limit: 3 });
    }
    const fourth = await upload(free.token, await jpeg());
    expect(fourth.status).toBe(403);
    expect(fourth.json()).toMatchObject({ error: 'photo_limit_reached', limit: 3 });
    expect(fourth.json().message).toBe('You have reached your limit of 3 photos. Photo limits: free members at most 3, premium 25.');
    const rows = await photoRows(free.id);
    expect(rows.map((r) => r.status)).toEqual(['inspection_pending', 'inspection_pending', 'inspection_pending']);
    expect(rows.map((r) => r.position)).toEqual([0, 1, 2]);
    // The first upload became the main photo; the stored files are the resized WebP (PHO-04), shown to the owner only.
    expect(await mainOf(free.id)).toBe(rows[0]!.id);
    const own = await server.request(`/photos/${rows[0]!.filename}`, { cookies: { lang: 'en', session: free.token } });
    expect(own.status).toBe(200);
    expect(own.headers['content-type']).toBe('image/webp');
    expect((await server.request(`/photos/${rows[0]!.filename}`, { cookies: { lang: 'en' } })).status).toBe(404);
    // Anything but an image is refused by content.
    const fake = await upload(free.token, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    expect([400, 403]).toContain(fake.status);
    // The owner's page shows the state and the limit.
    const page = await server.request('/profile', { cookies: { lang: 'en', session: free.token } });
    expect(page.text).toContain('data-photo-state="inspection_pending"');
    expect(page.text).toContain('Being reviewed');
    expect(page.text).toContain('3 of 3 photos');
    expect(page.text).toContain('data-photo-limit');

    // The server form (no JavaScript) takes several files at once, and stops at the limit with the same text.
    const other = await newMember();
    const two = await uploadForm(other.token, [await jpeg(), await jpeg()]);
    expect(two.status).toBe(303);
    expect(two.headers.location).toBe('/profile?photos=uploaded&n=2#photos');
    const over = await uploadForm(other.token, [await jpeg(400, 500), await jpeg(400, 500)]);
    expect(over.status).toBe(403);
    expect(over.text).toContain('Photos uploaded: 1. You have reached your limit of 3 photos. Photo limits: free members at most 3, premium 25.');
    expect(await photoRows(other.id)).toHaveLength(3);

    const premium = await newMember({ paid: true });
    await db()
      .insert(photos)
      .values(
        Array.from({ length: 24 }, (_, i) => ({
          userId: premium.id,
          filename: `p${premium.id}x${i}-main.webp`,
          thumbFilename: `p${premium.id}x${i}-thumb.webp`,
          width: 480,
          height: 600,
          status: 'active' as const,
          position: i,
        })),
      );
    expect((await upload(premium.token, await jpeg())).json()).toMatchObject({ count: 25, limit: 25 });
    const past = await upload(premium.token, await jpeg());
    expect(past.status).toBe(403);
    expect(past.json().message).toBe('You have reached your limit of 25 photos. Photo limits: free members at most 3, premium 25.');
  });

  it("PHO-03 main photo, premium only, order and delete through the server forms; another member's photo ids answer 404", async () => {
    const member = await newMember();
    for (let i = 0; i < 3; i++) expect((await upload(member.token, await jpeg())).status).toBe(201);
    const [p1, p2, p3] = (await photoRows(member.id)).map((r) => r.id) as [number, number, number];
    expect(await mainOf(member.id)).toBe(p1);

    expect((await postProfile(member.token, { action: 'photo_main', photo: String(p2) })).headers.location).toBe('/profile?photos=main#photos');
    expect(await mainOf(member.id)).toBe(p2);
    const premiumMain = await postProfile(member.token, { action: 'photo_premium', photo: String(p2), premium: '1' });
    expect(premiumMain.status).toBe(400);
    expect(premiumMain.text).toContain('Your main photo is shown to everyone, so it cannot be premium only.');
    expect((await postProfile(member.token, { action: 'photo_premium', photo: String(p3), premium: '1' })).status).toBe(303);
    expect((await db().select({ premium: photos.premium }).from(photos).where(eq(photos.id, p3)))[0]!.premium).toBe(true);
    expect((await postProfile(member.token, { action: 'photo_main', photo: String(p3) })).status).toBe(400);

    expect((await postProfile(member.token, { action: 'photo_down', photo: String(p1) })).headers.location).toBe('/profile?photos=moved#photos');
    expect((await postProfile(member.token, { action: 'photo_up', photo: String(p3) })).status).toBe(303);
    expect((await listOwnPhotos(db(), member.id)).map((p) => p.id)).toEqual([p2, p3, p1]);
    const page = await server.request('/profile', { cookies: { lang: 'en', session: member.token } });
    expect([...page.text.matchAll(/data-own-photo="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([p2, p3, p1]);
    expect(page.text).toContain('aria-label="Move photo 2 up"');

    // Someone else's photo, a made-up id or no id: 404 for every action, and nothing changes.
    const intruder = await newMember();
    const before = await photoRows(member.id);
    for (const action of ['photo_main', 'photo_delete', 'photo_premium', 'photo_up', 'photo_down']) {
      for (const photo of [String(p1), '2147483647', 'x', '']) {
        const res = await postProfile(intruder.token, { action, photo, premium: '1' });
        expect(res.status, `${action} ${photo}`).toBe(404);
        expect(res.text).toContain('This photo does not exist.');
      }
    }
    expect(await photoRows(member.id)).toEqual(before);
    expect(await mainOf(member.id)).toBe(p2);

    // Deleting the main photo removes its files; the next photo that may be main takes its place (p3 is premium).
    const mainFile = before.find((r) => r.id === p2)!;
    expect((await postProfile(member.token, { action: 'photo_delete', photo: String(p2) })).headers.location).toBe('/profile?photos=deleted#photos');
    expect((await photoRows(member.id)).map((r) => r.id)).toEqual([p1, p3]);
    expect(await mainOf(member.id)).toBe(p1);
    expect(await server.booted.app.photos.exists(mainFile.filename)).toBe(false);
    expect(await server.booted.app.photos.exists(mainFile.thumbFilename)).toBe(false);
  });

  it('OPS-01 OPS-04 /admin/photos and its files refuse visitors, members and operators; moderators and admins get the queue', async () => {
    const member = await newMember();
    expect((await upload(member.token, await jpeg())).status).toBe(201);
    const [row] = await photoRows(member.id);
    const visitor = await server.request('/admin/photos', { cookies: { lang: 'en' } });
    expect(visitor.status).toBe(303);
    expect(visitor.headers.location).toBe('/admin/login?next=%2Fadmin%2Fphotos');
    expect((await server.request('/admin/photos', { cookies: { lang: 'en', session: member.token } })).status).toBe(303);
    expect((await server.request(`/admin/photos/file/${row!.filename}`, { cookies: { lang: 'en', session: member.token } })).status).toBe(303);
    expect((await asStaff('operator', '/admin/photos')).status).toBe(403);
    expect((await asStaff('operator', `/admin/photos/file/${row!.filename}`)).status).toBe(403);
    expect(
      (
        await asStaff('operator', '/admin/photos', [
          ['action', 'approve'],
          ['ids', String(row!.id)],
        ])
      ).status,
    ).toBe(403);
    expect((await db().select({ status: photos.status }).from(photos).where(eq(photos.id, row!.id)))[0]!.status).toBe('inspection_pending');
    for (const role of ['moderator', 'admin'] as const) {
      const page = await asStaff(role, '/admin/photos');
      expect(page.status, role).toBe(200);
      expect(page.text).toContain(`data-queue-photo="${row!.id}"`);
      const image = await asStaff(role, `/admin/photos/file/${row!.filename}`);
      expect(image.status).toBe(200);
      expect(image.headers['content-type']).toBe('image/webp');
      expect(image.headers['cache-control']).toContain('private');
    }
    // Not a member photo (or no such file): 404, even for a moderator.
    expect((await asStaff('moderator', '/admin/photos/file/nothing-here.webp')).status).toBe(404);
  });

  it('OPS-01 PHO-02 SCALE-01 approve, reject with a reason and bulk decisions are audited; the member is mailed in their language and sees both outcomes; rejected files are deleted', async () => {
    const german = await newMember({ language: 'de' });
    const french = await newMember({ language: 'fr' });
    for (const m of [german, french, german, french]) expect((await upload(m.token, await jpeg())).status).toBe(201);
    const [g1, g2] = (await photoRows(german.id)).map((r) => r.id) as [number, number];
    const [f1, f2] = (await photoRows(french.id)).map((r) => r.id) as [number, number];

    // Oldest first, each with the member's other photos beside it.
    const queue = await asStaff('moderator', '/admin/photos');
    const order = [...queue.text.matchAll(/data-queue-photo="(\d+)"/g)].map((m) => Number(m[1]));
    expect(order.filter((id) => [g1, f1, g2, f2].includes(id))).toEqual([g1, f1, g2, f2]);
    expect(queue.text).toMatch(new RegExp(`data-others="${g1}"[\\s\\S]*?data-other="${g2}"`));
    expect(queue.text).toContain(`aria-label="Approve photo ${g1}"`);
    expect(queue.text).toContain(`<label class="form-check-label" for="select-${g1}">Select photo ${g1}</label>`);

    const approved = await asStaff('moderator', '/admin/photos', [
      ['action', 'approve'],
      ['ids', String(g1)],
    ]);
    expect(approved.status).toBe(303);
    expect(approved.headers.location).toBe(`/admin/photos?done=1&skipped=0&mail_failed=0&after=${g1}`);
    expect(
      (
        await asStaff('moderator', '/admin/photos', [
          ['action', 'reject'],
          ['ids', String(g2)],
          ['reason', ''],
        ])
      ).status,
    ).toBe(400);
    expect(
      (
        await asStaff('moderator', '/admin/photos', [
          ['action', 'reject'],
          ['ids', String(g2)],
          ['reason', 'made-up'],
        ])
      ).status,
    ).toBe(400);
    expect(
      (
        await asStaff('moderator', '/admin/photos', [
          ['action', 'reject'],
          ['ids', String(g2)],
          ['reason', 'explicit'],
        ])
      ).headers.location,
    ).toBe(`/admin/photos?done=1&skipped=0&mail_failed=0&after=${g2}`);
    // Bulk: both of the French member's photos, one mail for both.
    const bulk = await asStaff('moderator', '/admin/photos', [
      ['action', 'reject'],
      ['reason', 'poor_quality'],
      ['ids', String(f1)],
      ['ids', String(f2)],
    ]);
    expect(bulk.headers.location).toBe(`/admin/photos?done=2&skipped=0&mail_failed=0&after=${Math.max(f1, f2)}`);
    // Decided photos are skipped, never decided twice; none selected is refused.
    expect(
      (
        await asStaff('moderator', '/admin/photos', [
          ['action', 'approve'],
          ['ids', String(f1)],
          ['ids', String(g2)],
        ])
      ).headers.location,
    ).toBe(`/admin/photos?done=0&skipped=2&mail_failed=0&after=${Math.max(f1, g2)}`);
    expect((await asStaff('moderator', '/admin/photos', [['action', 'approve']])).status).toBe(400);

    const states = await db()
      .select({ id: photos.id, status: photos.status, reason: photos.rejectionReason })
      .from(photos)
      .where(inArray(photos.id, [g1, g2, f1, f2]))
      .orderBy(asc(photos.id));
    expect(Object.fromEntries(states.map((s) => [s.id, [s.status, s.reason]]))).toEqual({
      [g1]: ['active', null],
      [g2]: ['removed', 'explicit'],
      [f1]: ['removed', 'poor_quality'],
      [f2]: ['removed', 'poor_quality'],
    });

    const audit = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'photo'), inArray(auditLog.targetId, [g1, g2, f1, f2].map(String))))
      .orderBy(asc(auditLog.id));
    expect(audit.map((a) => [a.action, Number(a.targetId), a.staffId])).toEqual([
      ['photo.approve', g1, staff.moderator.id],
      ['photo.reject', g2, staff.moderator.id],
      ['photo.reject', f1, staff.moderator.id],
      ['photo.reject', f2, staff.moderator.id],
    ]);
    expect(audit[0]).toMatchObject({ before: { status: 'inspection_pending', member: german.id, main: true }, after: { status: 'active' } });
    expect(audit[1]).toMatchObject({ before: { status: 'inspection_pending', main: false }, after: { status: 'removed', reason: 'explicit' } });
    // The admins' audit page shows them.
    expect((await asStaff('admin', '/admin/audit')).text).toContain('data-audit-action="photo.reject"');

    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'photo_rejected')).orderBy(desc(mailOutbox.id));
    const toGerman = mails.filter((m) => m.toAddress === german.email);
    const toFrench = mails.filter((m) => m.toAddress === french.email);
    expect(toGerman).toHaveLength(1);
    expect(toFrench).toHaveLength(1);
    expect(toGerman[0]!.subject).toMatch(/^Dein Foto auf .+ wurde nicht freigegeben$/);
    expect(toGerman[0]!.text).toContain('Das Foto ist für ein Profilfoto zu freizügig.');
    expect(toGerman[0]!.text).toContain('Nicht freigegebene Fotos: 1.');
    expect(toFrench[0]!.subject).toMatch(/^Ta photo sur .+ n'a pas été approuvée$/);
    expect(toFrench[0]!.text).toContain('Photos non approuvées : 2.');
    expect(toFrench[0]!.text.match(/La photo est trop floue, trop sombre ou trop petite\./g)).toHaveLength(2);

    // The owner sees both outcomes on /profile (in the page's language), and the removed photo no longer counts.
    const page = await server.request('/profile', { cookies: { lang: 'en', session: german.token } });
    expect(page.text).toMatch(new RegExp(`data-own-photo="${g1}" data-status="active"`));
    expect(page.text).toMatch(new RegExp(`data-own-photo="${g2}" data-status="removed"`));
    expect(page.text).toContain('Removed by our team: The photo is too explicit for a profile photo.');
    expect(page.text).toContain('1 of 3 photos');
    // An approved photo is public now; a removed one is shown to nobody.
    const [g1Row, g2Row] = await photoRows(german.id);
    expect((await server.request(`/photos/${g1Row!.filename}`, { cookies: { lang: 'en' } })).status).toBe(200);
    expect((await server.request(`/photos/${g2Row!.filename}`, { cookies: { lang: 'en', session: german.token } })).status).toBe(404);
    // SCALE-01: a rejected photo's files are gone from the store (the row stays, with its reason); the approved one's stay.
    const store = server.booted.app.photos;
    for (const row of [g2Row!, ...(await photoRows(french.id))]) {
      expect(await store.exists(row.filename), row.filename).toBe(false);
      expect(await store.exists(row.thumbFilename), row.thumbFilename).toBe(false);
    }
    expect(await store.exists(g1Row!.filename)).toBe(true);
    expect(await store.exists(g1Row!.thumbFilename)).toBe(true);
  });

  it('OPS-01 an approved main photo is on the search cards and on the cached landers at once (bus invalidation)', async () => {
    const searcher = await newMember({ paid: true });
    const first = (await server.request('/api/members.php', { headers: XHR, cookies: { lang: 'en', session: searcher.token } })).json().cards[0];
    const [like] = await db()
      .select({ gender: profiles.gender, sexuality: profiles.sexuality, country: profiles.country, regionId: profiles.regionId, birthDate: profiles.birthDate })
      .from(profiles)
      .where(eq(profiles.userId, first.id));
    const member = await newMember({ like: like! });
    // A member who chose to be shown on the public pages (HON-02), so the lander may show them.
    await db().update(users).set({ publicProfile: true }).where(eq(users.id, member.id));
    expect((await upload(member.token, await jpeg())).status).toBe(201);
    const [row] = await photoRows(member.id);
    const cardOf = async () => {
      const res = await server.request('/api/members.php', { headers: XHR, cookies: { lang: 'en', session: searcher.token } });
      return (res.json().cards as { id: number; image: string | null; thumb: string | null }[]).find((c) => c.id === member.id);
    };
    expect(await cardOf()).toMatchObject({ image: null, thumb: null });
    // A visitor's lander: its member list is cached for a minute (TtlCache 'landers:1').
    const lander = () => server.request('/landers/gallery', { cookies: { lang: 'en', entry_ok: '1' } });
    const before = await lander();
    expect(before.status).toBe(200);
    expect(before.text).not.toContain(row!.thumbFilename);

    expect(
      (
        await asStaff('moderator', '/admin/photos', [
          ['action', 'approve'],
          ['ids', String(row!.id)],
        ])
      ).status,
    ).toBe(303);
    expect(await cardOf()).toMatchObject({ image: row!.filename, thumb: row!.thumbFilename });
    const after = await lander();
    expect(after.text.includes(row!.filename) || after.text.includes(row!.thumbFilename)).toBe(true);
  });
});
