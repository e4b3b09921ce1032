/**
 * Redirect targets taken from the request (SEC-02) on every route that follows one: the login form's
 * and page's `next`, the entry warning, alert dismissal and the activation-mail form. Only a path on this
 * site may come back in `Location`; everything else falls back to the route's own default.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/demo/seed';
import { startTestServer, type TestServer } from '../setup/server';

/** Targets a browser could turn into another host (after dropping tabs and line breaks, or decoding). */
const HOSTILE = [
  '//evil.example/x',
  '/\\evil.example',
  '/%09/evil.example/x',
  '/\t/evil.example/x',
  '/\r\n/evil.example',
  '/%2F/evil.example',
  '/%5C/evil.example',
  'https://evil.example/',
  '/\u0000/evil.example',
];

describe('redirect targets', () => {
  let server: TestServer;
  let origin: string;
  let session: string;
  beforeAll(async () => {
    server = await startTestServer();
    origin = `http://localhost:${server.port}`;
    const login = await server.request('/api/user.php', {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      body: { email: DEMO_ACCOUNTS.free.email, password: DEMO_ACCOUNTS.free.password },
    });
    session = login.setCookies.session!.value;
  });
  afterAll(async () => {
    await server?.close();
  });

  const form = (path: string, fields: Record<string, string>, cookies: Record<string, string> = {}) =>
    server.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      cookies: { lang: 'en', ...cookies },
      body: new URLSearchParams(fields).toString(),
    });
  const location = (res: { headers: Record<string, string | string[] | undefined> }) => String(res.headers.location ?? '');
  /** A NUL byte is refused before routing (SEC-04, docs/decisions/014): 400 and no redirect at all; anything else falls back to `safe`. */
  const expectSafe = (res: { status: number; headers: Record<string, string | string[] | undefined> }, next: string, safe: string) => {
    if (next.includes('\u0000')) {
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
      return;
    }
    expect(res.status).toBe(303);
    expect(location(res)).toBe(safe);
  };

  it.each(HOSTILE)('SEC-02 the entry warning never sends the visitor to %j', async (next) => {
    const res = await form('/api/entry-warning.php', { next });
    expectSafe(res, next, '/');
  });

  it.each(HOSTILE)('SEC-02 alert dismissal never sends the member to %j', async (next) => {
    const res = await form('/api/alert-dismiss.php', { alert: 'push', next }, { session });
    expectSafe(res, next, '/');
  });

  it.each(HOSTILE)('SEC-02 the login page never redirects to %j after logging in', async (next) => {
    const res = await form(`/login?next=${encodeURIComponent(next)}`, { email: DEMO_ACCOUNTS.premium.email, password: DEMO_ACCOUNTS.premium.password, next });
    expectSafe(res, next, '/members');
  });

  it('SEC-02 a same-site target is followed', async () => {
    const res = await form('/api/entry-warning.php', { next: '/pages/faq?x=1' });
    expect(location(res)).toBe('/pages/faq?x=1');
  });
});
