/**
 * Photo verification over real HTTP against the built server (VER-01, VER-02): the API's stable refusal
 * codes (never a 500, nothing stored), the page's form without JavaScript, who may fetch a selfie and how
 * it is cached, and the setting's PUT.
 */
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photos, profiles, users, verifications } from '../../src/db/schema';
import { hashPassword } from '../../src/server/auth/passwords';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const PASSWORD = 'verify-test-password-1';

async function multipart(fields: Record<string, string>, selfie: Buffer | null): Promise<{ body: Buffer; type: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (selfie) form.append('selfie', new File([new Uint8Array(selfie)], 'selfie.jpg', { type: 'image/jpeg' }));
  const response = new Response(form);
  return { body: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type')! };
}

describe('photo verification over HTTP', () => {
  let server: TestServer;
  let origin: string;
  let n = 0;
  beforeAll(async () => {
    server = await startTestServer({ db: 'pglite' });
    origin = `http://localhost:${server.port}`;
  });
  afterAll(async () => {
    await server?.close();
  });
  const db = () => server.booted.app.db;

  async function newMember(withPhoto = true) {
    n++;
    const email = `verify-http-${n}@test.example`;
    const [user] = await db()
      .insert(users)
      .values({ siteId: 1, email, passwordHash: await hashPassword(PASSWORD), status: 'active', emailConfirmedAt: new Date(), language: 'en', signupStep: 5 })
      .returning({ id: users.id });
    await db()
      .insert(profiles)
      .values({ userId: user!.id, siteId: 1, name: `Selfie ${n}`, status: 'active', gender: 'female', sexuality: 'hetero', country: 'NL', birthDate: '1990-05-05' });
    if (withPhoto) {
      const [photo] = await db()
        .insert(photos)
        .values({ userId: user!.id, filename: `cd-h${user!.id}-main.webp`, thumbFilename: `cd-h${user!.id}-thumb.webp`, status: 'active', width: 480, height: 600 })
        .returning({ id: photos.id });
      await db().update(profiles).set({ mainPhotoId: photo!.id }).where(eq(profiles.userId, user!.id));
    }
    const login = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    return { id: user!.id, token: login.setCookies.session!.value };
  }
  const jpeg = () =>
    sharp({ create: { width: 640, height: 800, channels: 3, background: '#a06040' } })
      .jpeg()
      .toBuffer();
  const post = async (path: string, token: string, fields: Record<string, string>, selfie: Buffer | null) => {
    const { body, type } = await multipart(fields, selfie);
    return server.request(path, { method: 'POST', body, headers: { origin, 'content-type': type }, cookies: { lang: 'en', session: token } });
  };

  it('VER-01 the API refuses bad input with stable codes and stores nothing; a visitor is refused', async () => {
    const m = await newMember();
    expect((await server.request('/api/verification.php', { cookies: { lang: 'en' } })).json()).toMatchObject({ error: 'authentication_required' });
    const badPose = await post('/api/verification.php', m.token, { pose: 'cartwheel' }, await jpeg());
    expect([badPose.status, badPose.json()]).toEqual([400, expect.objectContaining({ error: 'invalid_pose' })]);
    const noFile = await post('/api/verification.php', m.token, { pose: 'thumb_up' }, null);
    expect([noFile.status, noFile.json()]).toEqual([415, expect.objectContaining({ error: 'photo_invalid' })]);
    const notImage = await post('/api/verification.php', m.token, { pose: 'thumb_up' }, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    expect([notImage.status, notImage.json()]).toEqual([415, expect.objectContaining({ error: 'photo_invalid' })]);
    const bare = await newMember(false);
    const noMain = await post('/api/verification.php', bare.token, { pose: 'thumb_up' }, await jpeg());
    expect([noMain.status, noMain.json()]).toEqual([409, expect.objectContaining({ error: 'main_photo_required' })]);
    expect(await db().$count(verifications)).toBe(0);
    const badPut = await server.request('/api/verification.php', { method: 'PUT', headers: { ...XHR, origin }, body: { only_verified_contact: 'yes' }, cookies: { session: m.token } });
    expect([badPut.status, badPut.json()]).toEqual([400, expect.objectContaining({ error: 'validation_failed' })]);
  });

  it('VER-01 VER-02 a selfie through the API waits; a second is refused; only its owner gets it, never cached; the setting is saved by PUT', async () => {
    const m = await newMember();
    const first = await post('/api/verification.php', m.token, { pose: 'peace_sign' }, await jpeg());
    expect([first.status, first.json()]).toEqual([201, { state: 'pending', pose: 'peace_sign', reason: null, only_verified_contact: false }]);
    const again = await post('/api/verification.php', m.token, { pose: 'thumb_up' }, await jpeg());
    expect([again.status, again.json()]).toEqual([409, expect.objectContaining({ error: 'verification_pending' })]);
    const [row] = await db().select().from(verifications).where(eq(verifications.userId, m.id));
    const own = await server.request(`/verification/selfie/${row!.filename}`, { cookies: { session: m.token } });
    expect(own.status).toBe(200);
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.headers['content-type']).toBe('image/webp');
    const other = await newMember();
    expect((await server.request(`/verification/selfie/${row!.filename}`, { cookies: { session: other.token } })).status).toBe(404);
    expect((await server.request(`/verification/selfie/${row!.filename}`)).status).toBe(404);
    expect((await server.request(`/photos/${row!.filename}`, { cookies: { session: m.token } })).status).toBe(404);
    expect((await server.request(`/admin/verifications/file/${row!.filename}`, { cookies: { session: m.token } })).status).not.toBe(200);
    const put = await server.request('/api/verification.php', { method: 'PUT', headers: { ...XHR, origin }, body: { only_verified_contact: true }, cookies: { session: m.token } });
    expect([put.status, put.json()]).toMatchObject([200, { state: 'pending', only_verified_contact: true }]);
  });

  it('VER-01 without JavaScript the /verify form posts the selfie; a refusal comes back translated on the page', async () => {
    const m = await newMember();
    const page = await server.request('/verify', { cookies: { lang: 'en', session: m.token } });
    expect(page.status).toBe(200);
    const pose = /name="pose" value="([a-z_]+)"/.exec(page.text)![1]!;
    const refused = await post('/verify', m.token, { pose }, Buffer.from('not an image'));
    expect(refused.status).toBe(415);
    expect(refused.text).toContain('data-form-error');
    const sent = await post('/verify', m.token, { pose }, await jpeg());
    expect([sent.status, sent.headers.location]).toEqual([303, '/verify?sent=1']);
    const after = await server.request('/verify?sent=1', { cookies: { lang: 'en', session: m.token } });
    expect(after.text).toContain('data-verify-state="pending"');
    expect(after.text).toContain('data-own-selfie');
  });
});
