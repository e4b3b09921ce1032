/**
 * The browser's typed API client: openapi-fetch over the OpenAPI `paths`, with the retrying fetch
 * (CLI-01), the client request-type header on user.php and logout.php (AUTH-01, AUTH-02, SEC-12,
 * SPEC §7) and the logout on `authentication_required` (CLI-02, SPEC §8).
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from '../shared/api-types';
import { createRetryingFetch, type FetchLike, type RetryOptions } from './retry';

/** The typed client every store uses. */
export type ApiClient = Client<paths>;

/** The endpoint that carries the client request-type header and is exempt from CLI-02. */
export const USER_PATH = '/api/user.php';
/** `GET /api/logout.php` logs out only with the client request-type header (SEC-12). */
export const LOGOUT_PATH = '/api/logout.php';
const CLIENT_HEADER_PATHS: ReadonlySet<string> = new Set([USER_PATH, LOGOUT_PATH]);
/** Header name and value of the client request-type header (same as `CLIENT_HEADER` on the server). */
export const CLIENT_HEADER = 'X-Requested-With';
export const CLIENT_HEADER_VALUE = 'XMLHttpRequest';

/**
 * Thrown instead of returning a result when a call answered 403 `authentication_required` (CLI-02).
 * The logout has already been started: callers must do nothing further, and should not show an error.
 * Use {@link isAuthenticationRequired} in a `catch` to tell it apart from real failures.
 */
export class AuthenticationRequiredError extends Error {
  constructor(public readonly path: string) {
    super(`authentication required for ${path}`);
    this.name = 'AuthenticationRequiredError';
  }
}

/** True when `error` is the CLI-02 stop signal (handled already; ignore it). */
export function isAuthenticationRequired(error: unknown): error is AuthenticationRequiredError {
  return error instanceof AuthenticationRequiredError;
}

/** Why a call failed: the API's error code, or `network` when no answer came (after the retries). */
export type FailureReason = components['schemas']['ErrorCode'] | 'network' | 'unknown';

/** Reads the `error` code out of an openapi-fetch error body (`unknown` when there is none). */
export function failureReason(error: unknown): FailureReason {
  const code = typeof error === 'object' && error !== null ? (error as { error?: unknown }).error : undefined;
  return typeof code === 'string' ? (code as FailureReason) : 'unknown';
}

export interface ApiClientOptions {
  /** The fetch underneath the retries; defaults to `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Prefix of every URL; '' in the browser (same origin). Tests pass an absolute origin. */
  baseUrl?: string;
  /** Retry tuning (CLI-01); tests inject `sleep`. */
  retry?: RetryOptions;
  /**
   * Called once per client when a call other than user.php answers 403 `authentication_required`
   * (CLI-02): log the user out. Later such answers still throw but do not call it again.
   */
  onAuthenticationRequired: () => void;
}

function pathOf(schemaPath: string, request: Request): string {
  if (schemaPath) return schemaPath;
  return new URL(request.url, 'http://localhost').pathname;
}

async function isAuthenticationRequiredAnswer(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  try {
    const body: unknown = await response.clone().json();
    return typeof body === 'object' && body !== null && (body as { error?: unknown }).error === 'authentication_required';
  } catch {
    return false;
  }
}

/**
 * Builds an API client. Behaviour beyond plain openapi-fetch:
 * - every request goes through {@link createRetryingFetch} (CLI-01);
 * - requests to `/api/user.php` and `/api/logout.php` carry `X-Requested-With: XMLHttpRequest`
 *   (AUTH-01; SEC-12: a GET logout without it changes nothing);
 * - a 403 whose JSON body has `error: 'authentication_required'` on any other path calls
 *   `onAuthenticationRequired` (once per client) and makes the call reject with
 *   {@link AuthenticationRequiredError}, so no caller goes on handling it as data or as an error to
 *   show (CLI-02). A 403 from user.php is returned normally: it simply means "not logged in".
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const retryingFetch = createRetryingFetch(baseFetch, options.retry);
  const client = createClient<paths>({ baseUrl: options.baseUrl ?? '', fetch: (request) => retryingFetch(request) });
  let loggedOut = false;

  const middleware: Middleware = {
    onRequest({ request, schemaPath }) {
      if (CLIENT_HEADER_PATHS.has(pathOf(schemaPath, request))) request.headers.set(CLIENT_HEADER, CLIENT_HEADER_VALUE);
      return request;
    },
    async onResponse({ request, response, schemaPath }) {
      const path = pathOf(schemaPath, request);
      if (path === USER_PATH || !(await isAuthenticationRequiredAnswer(response))) return response;
      if (!loggedOut) {
        loggedOut = true;
        options.onAuthenticationRequired();
      }
      throw new AuthenticationRequiredError(path);
    },
  };
  client.use(middleware);
  return client;
}

let browserClient: ApiClient | undefined;
let override: ApiClient | undefined;
const authenticationRequiredListeners = new Set<() => void>();

/**
 * Runs `listener` when the browser client meets `authentication_required` (CLI-02), before it goes to
 * `/login`. Stores forget what they hold this way (the user store registers itself), so this module
 * needs to know none of them. Returns the unsubscribe.
 */
export function whenAuthenticationRequired(listener: () => void): () => void {
  authenticationRequiredListeners.add(listener);
  return () => authenticationRequiredListeners.delete(listener);
}

function currentClient(): ApiClient {
  if (override) return override;
  browserClient ??= createApiClient({
    onAuthenticationRequired: () => {
      for (const listener of authenticationRequiredListeners) listener();
      globalThis.location.assign('/login');
    },
  });
  return browserClient;
}

/**
 * Replaces the client behind {@link api} (tests inject one built on a fake fetch); `undefined`
 * restores the browser client.
 */
export function setApiClient(client: ApiClient | undefined): void {
  override = client;
}

/**
 * The shared client for browser code, created on first use. On `authentication_required` it tells the
 * listeners of {@link whenAuthenticationRequired} (the user store forgets the member) and goes to
 * `/login` (CLI-02).
 */
export const api: ApiClient = new Proxy({} as ApiClient, {
  get(_target, property) {
    const value: unknown = Reflect.get(currentClient(), property);
    return typeof value === 'function' ? value.bind(currentClient()) : value;
  },
});
