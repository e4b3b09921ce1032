/**
 * The offline outbox at /dev/mail over real HTTP (README "Mail and push offline"): after a plain
 * `npm start` (NODE_ENV=production, no SMTP) this machine reads it; a proxied or remote client, or any
 * client once SMTP is configured, gets the 404 page. The test client connects from 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/db/schema';
import { startTestServer, type TestServer } from '../setup/server';

/** Puts one mail in the outbox table directly (as the mailer does before it hands it to the transport). */
async function storeMail(server: TestServer): Promise<number> {
  const [row] = await server.booted.app.db
    .insert(mailOutbox)
    .values({
      siteId: 1,
      kind: 'activation',
      toAddress: 'newcomer@example.test',
      fromAddress: 'Flirtlokaal <noreply@flirtlokaal.nl>',
      subject: 'Activate your account',
      text: 'Open http://localhost:4321/activate/abc to activate.',
      html: '<p>activate</p>',
    })
    .returning({ id: mailOutbox.id });
  return row!.id;
}

describe('the offline outbox after a plain npm start (NODE_ENV=production, no SMTP_URL)', () => {
  let server: TestServer;
  let mailId: number;
  beforeAll(async () => {
    server = await startTestServer({ env: { NODE_ENV: 'production' } });
    mailId = await storeMail(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('ACT-01 a loopback client reads the outbox and a mail, never cached', async () => {
    for (const host of ['localhost', '127.0.0.1']) {
      const list = await server.request('/dev/mail', { host });
      expect(list.status).toBe(200);
      expect(list.text).toContain('newcomer@example.test');
      expect(list.headers['cache-control']).toBe('no-store');
      const one = await server.request(`/dev/mail/${mailId}`, { host });
      expect(one.status).toBe(200);
      expect(one.text).toContain('http://localhost:4321/activate/abc');
      expect(one.headers['cache-control']).toBe('no-store');
    }
  });

  it('ACT-01 a request that came through a proxy gets the 404 page', async () => {
    const proxied: Record<string, string>[] = [{ 'x-forwarded-for': '203.0.113.7' }, { 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=198.51.100.2' }, { 'x-real-ip': '127.0.0.1' }];
    for (const headers of proxied) {
      for (const path of ['/dev/mail', `/dev/mail/${mailId}`]) {
        const res = await server.request(path, { headers });
        expect(res.status).toBe(404);
        expect(res.text).not.toContain('newcomer@example.test');
      }
    }
  });

  it('ACT-01 a foreign Host (DNS rebinding to 127.0.0.1) gets the 404 page', async () => {
    const res = await server.request('/dev/mail', { host: 'evil.example' });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('newcomer@example.test');
  });
});

describe('the outbox behind a trusted proxy (TRUST_PROXY=true)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { NODE_ENV: 'production', TRUST_PROXY: 'true' } });
    await storeMail(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('ACT-01 a remote visitor through the proxy, and even the proxy host itself, get the 404 page', async () => {
    const remote = await server.request('/dev/mail', { headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' } });
    expect(remote.status).toBe(404);
    const direct = await server.request('/dev/mail');
    expect(direct.status).toBe(404);
    expect(direct.text).not.toContain('newcomer@example.test');
  });
});

describe('the outbox with SMTP configured', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Nothing listens there: the viewer must answer without ever sending anything.
    server = await startTestServer({ env: { NODE_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:9' } });
    await storeMail(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('ACT-01 the outbox is a record of relayed mail, not a delivery: 404 even on loopback', async () => {
    const res = await server.request('/dev/mail');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('newcomer@example.test');
  });
});
