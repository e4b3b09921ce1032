import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, setApiClient } from '../client/api';
import { $settings, loadSettings } from './settings';

afterEach(() => setApiClient(undefined));

describe('settings store', () => {
  it('SITE-01 loadSettings asks /api/settings.php with the route and the page host as forced domain', async () => {
    const urls: URL[] = [];
    const settings = { id: 1, name: 'Site' };
    setApiClient(
      createApiClient({
        baseUrl: 'http://flirt.test',
        onAuthenticationRequired: () => undefined,
        fetch: async (input) => {
          urls.push(new URL((input as Request).url));
          return new Response(JSON.stringify(settings), { headers: { 'content-type': 'application/json' } });
        },
      }),
    );
    const result = await loadSettings({ pathname: '/members', host: 'flirt.test:8080' });
    expect(urls[0]?.pathname).toBe('/api/settings.php');
    expect(Object.fromEntries(urls[0]?.searchParams ?? [])).toEqual({ route: '/members', domain: 'flirt.test:8080' });
    expect(result.type).toBe('ok');
    expect($settings.get()).toEqual(settings);
  });
});
