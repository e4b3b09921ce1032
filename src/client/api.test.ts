import { describe, expect, it, vi } from 'vitest';
import { AuthenticationRequiredError, createApiClient, isAuthenticationRequired } from './api';
import type { FetchLike } from './retry';

const ORIGIN = 'http://site.test';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function fakeServer(answer: (request: Request) => Response) {
  const requests: Request[] = [];
  const fetch: FetchLike = async (input) => {
    const request = input as Request;
    requests.push(request);
    return answer(request);
  };
  return { fetch, requests };
}

const user = {
  id: 1,
  email: 'a@example.test',
  status: 'active',
  credits: 0,
  paid_user: false,
  signup_date: '2024-01-01T00:00:00.000Z',
  fictional_icon: false,
  language: 'nl',
  invisible: false,
  notifications_disabled: [],
  profile: { id: 1, name: 'Anna', country: 'NL', status: 'active', main_image: null },
};

const noSleep = { sleep: async () => undefined };

describe('createApiClient', () => {
  it('AUTH-01 sends X-Requested-With: XMLHttpRequest on GET, POST and PUT /api/user.php', async () => {
    const server = fakeServer(() => json(user));
    const client = createApiClient({ fetch: server.fetch, baseUrl: ORIGIN, onAuthenticationRequired: () => undefined });
    await client.GET('/api/user.php');
    await client.POST('/api/user.php', { params: { header: { 'X-Requested-With': 'XMLHttpRequest' } }, body: { email: 'a@example.test', password: 'secret' } });
    await client.PUT('/api/user.php', { params: { header: { 'X-Requested-With': 'XMLHttpRequest' } }, body: { language: 'de' } });
    expect(server.requests.map((r) => [r.method, new URL(r.url).pathname, r.headers.get('x-requested-with')])).toEqual([
      ['GET', '/api/user.php', 'XMLHttpRequest'],
      ['POST', '/api/user.php', 'XMLHttpRequest'],
      ['PUT', '/api/user.php', 'XMLHttpRequest'],
    ]);
  });

  it('AUTH-01 adds the header to user.php even when the caller did not pass it', async () => {
    const server = fakeServer(() => json(user));
    const client = createApiClient({ fetch: server.fetch, baseUrl: ORIGIN, onAuthenticationRequired: () => undefined });
    await client.GET('/api/user.php');
    expect(server.requests[0]?.headers.get('x-requested-with')).toBe('XMLHttpRequest');
  });

  it('AUTH-01 does not send the client request-type header to other endpoints', async () => {
    const server = fakeServer(() => json({ ok: true }));
    const client = createApiClient({ fetch: server.fetch, baseUrl: ORIGIN, onAuthenticationRequired: () => undefined });
    await client.GET('/api/settings.php', { params: { query: { route: '/', domain: 'site.test' } } });
    await client.GET('/api/companyinfo.php');
    expect(server.requests.map((r) => r.headers.get('x-requested-with'))).toEqual([null, null]);
  });

  it('AUTH-02 SEC-12 the logout calls carry the client request-type header (a GET logout needs it)', async () => {
    const server = fakeServer(() => json({ ok: true }));
    const client = createApiClient({ fetch: server.fetch, baseUrl: ORIGIN, onAuthenticationRequired: () => undefined });
    await client.GET('/api/logout.php', { params: { header: { 'X-Requested-With': 'XMLHttpRequest' } } });
    // The POST declares no header: the client adds it all the same.
    await client.POST('/api/logout.php');
    expect(server.requests.map((r) => [r.method, r.headers.get('x-requested-with')])).toEqual([
      ['GET', 'XMLHttpRequest'],
      ['POST', 'XMLHttpRequest'],
    ]);
  });

  it('CLI-02 a 403 authentication_required on /api/settings.php logs out once and stops the caller', async () => {
    const server = fakeServer(() => json({ error: 'authentication_required', message: 'Log in' }, 403));
    const onAuthenticationRequired = vi.fn();
    const client = createApiClient({ fetch: server.fetch, baseUrl: ORIGIN, onAuthenticationRequired });

    const first = client.GET('/api/settings.php');
    await expect(first).rejects.toBeInstanceOf(AuthenticationRequiredError);
    await expect(client.GET('/api/companyinfo.php')).rejects.toSatisfy(isAuthenticationRequired);
    expect(onAuthenticationRequired).toHaveBeenCalledTimes(1);
  });

  it('CLI-02 a 403 authentication_required on /api/user.php is an ordinary answer, no logout', async () => {
    const server = fakeServer(() => json({ error: 'authentication_required' }, 403));
    const onAuthenticationRequired = vi.fn();
    const client = createApiClient({ fetch: server.fetch, baseUrl: ORIGIN, onAuthenticationRequired });
    const result = await client.GET('/api/user.php');
    expect(result.response.status).toBe(403);
    expect(result.error).toEqual({ error: 'authentication_required' });
    expect(onAuthenticationRequired).not.toHaveBeenCalled();
  });

  it('CLI-02 a 403 with another error code does not log out', async () => {
    const server = fakeServer(() => json({ error: 'validation_failed' }, 403));
    const onAuthenticationRequired = vi.fn();
    const client = createApiClient({ fetch: server.fetch, baseUrl: ORIGIN, onAuthenticationRequired });
    const result = await client.GET('/api/settings.php');
    expect(result.response.status).toBe(403);
    expect(onAuthenticationRequired).not.toHaveBeenCalled();
  });

  it('CLI-01 client calls go through the retries: a 503 then 200 gives the data', async () => {
    let n = 0;
    const server = fakeServer(() => (n++ === 0 ? json({ error: 'service_unavailable' }, 503) : json(user)));
    const client = createApiClient({ fetch: server.fetch, baseUrl: ORIGIN, retry: noSleep, onAuthenticationRequired: () => undefined });
    const { data } = await client.GET('/api/user.php');
    expect(data?.id).toBe(1);
    expect(server.requests).toHaveLength(2);
  });
});
