/**
 * /dev/ui (issue 25), the living page of the components, is served like the mail viewer (compare
 * mail-viewer.test.ts): to this machine only, the 404 page for a proxied client or a foreign Host,
 * never cached. The test client connects from 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../setup/server';

describe('/dev/ui after a plain npm start (NODE_ENV=production)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { NODE_ENV: 'production' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('LOOK-01 a loopback client gets the component page, never cached', async () => {
    for (const host of ['localhost', '127.0.0.1']) {
      const res = await server.request('/dev/ui', { host });
      expect(res.status).toBe(200);
      expect(res.text).toContain('data-dev-ui');
      expect(res.text).toContain('class="sheet');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('LOOK-01 a request through a proxy, or with a foreign Host (DNS rebinding), gets the 404 page', async () => {
    const proxied: Record<string, string>[] = [{ 'x-forwarded-for': '203.0.113.7' }, { 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=198.51.100.2' }, { via: '1.1 proxy' }];
    for (const headers of proxied) {
      const res = await server.request('/dev/ui', { headers });
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('data-dev-ui');
    }
    const rebound = await server.request('/dev/ui', { host: 'evil.example' });
    expect(rebound.status).toBe(404);
    expect(rebound.text).not.toContain('data-dev-ui');
  });
});

describe('/dev/ui behind a trusted proxy (TRUST_PROXY=true)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { NODE_ENV: 'production', TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('LOOK-01 even the proxy host itself gets the 404 page', async () => {
    const res = await server.request('/dev/ui');
    expect(res.status).toBe(404);
  });
});
