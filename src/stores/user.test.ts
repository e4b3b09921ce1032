import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setApiClient } from '../client/api';
import { installTestApi } from '../../tests/setup/test-api';
import { $language, $user, clearUser, loadUser, setLanguage, type User } from './user';

const user: User = {
  id: 7,
  email: 'anna@example.test',
  status: 'active',
  credits: 3,
  paid_user: false,
  signup_date: '2024-01-01T00:00:00.000Z',
  fictional_icon: false,
  language: 'nl',
  invisible: false,
  notifications_disabled: [],
  profile: { id: 7, name: 'Anna', country: 'NL', status: 'active', main_image: null },
};

type Answer = (request: Request, body: string) => Response;
let requests: { method: string; path: string; header: string | null; body: string }[];

function useServer(answer: Answer) {
  requests = [];
  installTestApi(
    async (input) => {
      const request = input as Request;
      const body = await request.text();
      requests.push({ method: request.method, path: new URL(request.url).pathname, header: request.headers.get('x-requested-with'), body });
      return answer(request, body);
    },
    { sleep: async () => undefined },
  );
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  clearUser();
  $language.set(null);
});
afterEach(() => setApiClient(undefined));

describe('user store', () => {
  it('I18N-03 setLanguage sends PUT /api/user.php {language} with the client header and keeps the answer', async () => {
    useServer((_request, body) => json({ ...user, language: (JSON.parse(body) as { language: User['language'] }).language }));
    $user.set(user);
    const result = await setLanguage('de');
    expect(requests).toEqual([{ method: 'PUT', path: '/api/user.php', header: 'XMLHttpRequest', body: '{"language":"de"}' }]);
    expect(result.type).toBe('ok');
    expect($user.get()?.language).toBe('de');
    expect($language.get()).toBe('de');
  });

  it('I18N-03 setLanguage sends nothing for a visitor', async () => {
    useServer(() => json(user));
    const result = await setLanguage('de');
    expect(result).toEqual({ type: 'logged_out' });
    expect(requests).toEqual([]);
  });

  it('I18N-03 setLanguage reports the error code of a refused change', async () => {
    useServer(() => json({ error: 'unsupported_language' }, 400));
    $user.set(user);
    expect(await setLanguage('sv')).toEqual({ type: 'error', reason: 'unsupported_language' });
    expect($user.get()?.language).toBe('nl');
  });

  it('AUTH-01 loadUser fills $user from GET /api/user.php', async () => {
    useServer(() => json(user));
    const result = await loadUser();
    expect(result).toEqual({ type: 'ok', user });
    expect($user.get()).toEqual(user);
    expect(requests[0]).toMatchObject({ method: 'GET', path: '/api/user.php', header: 'XMLHttpRequest' });
  });

  it('AUTH-01 loadUser turns a 403 into a visitor (null), without the CLI-02 logout', async () => {
    useServer(() => json({ error: 'authentication_required' }, 403));
    $user.set(user);
    expect(await loadUser()).toEqual({ type: 'logged_out' });
    expect($user.get()).toBeNull();
  });

  it('CLI-01 loadUser keeps the user when the server stays unavailable', async () => {
    useServer(() => json({ error: 'service_unavailable' }, 503));
    $user.set(user);
    expect(await loadUser()).toEqual({ type: 'error', reason: 'service_unavailable' });
    expect(requests).toHaveLength(6);
    expect($user.get()).toEqual(user);
  });
});
