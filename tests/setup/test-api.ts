/**
 * The browser code's API in unit tests: the app's own client (src/client/api.ts, openapi-fetch with its
 * headers, retries and error mapping) over a `fetch` the test plays, so a store or boot test checks the
 * requests it makes and the answers it gets without a server. Undo with `setApiClient(undefined)`.
 */
import { createApiClient, setApiClient, type ApiClientOptions } from '../../src/client/api';

export function installTestApi(fetch: NonNullable<ApiClientOptions['fetch']>, retry: ApiClientOptions['retry'] = { retries: 0 }): void {
  setApiClient(createApiClient({ baseUrl: 'http://site.test', onAuthenticationRequired: () => undefined, retry, fetch }));
}
