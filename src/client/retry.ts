/**
 * CLI-01: failed requests are retried up to 5 times with exponential delay (SPEC §7, §9).
 *
 * What is retried, and why:
 * - network errors (fetch rejects with a `TypeError`) for every method: no answer arrived;
 * - 5xx answers only for idempotent methods (GET, HEAD, PUT, DELETE, OPTIONS): repeating them is safe;
 * - never a 4xx (the request itself is wrong or not allowed; repeating cannot help);
 * - never a 5xx answer to a POST or PATCH: the server may have acted on it, and a message or a payment
 *   must not be doubled;
 * - never an abort (`AbortError` is a DOMException, not a TypeError), and nothing once the request's
 *   signal is aborted.
 */

/** The fetch shape the wrapper takes and returns; `globalThis.fetch` fits. */
export type FetchLike = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export interface RetryOptions {
  /** Retries after the first try (SPEC §9: 5). */
  retries?: number;
  /** Delay before the first retry; retry n waits `baseDelayMs · 2^n`, capped at `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Extra random share of a delay (0.1 = up to +10 %), so many tabs do not retry in step. */
  jitter?: number;
  /** Source of randomness for the jitter; inject `() => 0` in tests. */
  random?: () => number;
  /** Waits `ms`; inject a fake in tests so nothing really waits. */
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRIES = 5;
export const DEFAULT_BASE_DELAY_MS = 300;
export const DEFAULT_MAX_DELAY_MS = 8000;

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** True for methods whose 5xx answers may be retried (a repeat has the same effect as one call). */
export function isIdempotentMethod(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

/** The wait before retry number `attempt` (0-based): `base · 2^attempt`, plus jitter, capped. */
export function retryDelay(attempt: number, options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'jitter' | 'random'> = {}): number {
  const { baseDelayMs = DEFAULT_BASE_DELAY_MS, maxDelayMs = DEFAULT_MAX_DELAY_MS, jitter = 0.1, random = Math.random } = options;
  const exponential = baseDelayMs * 2 ** attempt;
  return Math.min(maxDelayMs, Math.round(exponential * (1 + jitter * random())));
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Wraps `baseFetch` so failed requests are tried again (CLI-01; see the module comment for what counts
 * as failed). Each try sends a fresh clone of the Request, so a body can be sent again. After the last
 * try the last response is returned or the last error thrown, exactly as `baseFetch` gave it.
 */
export function createRetryingFetch(baseFetch: FetchLike, options: RetryOptions = {}): FetchLike {
  const { retries = DEFAULT_RETRIES, sleep = realSleep } = options;

  return async (input, init) => {
    const original = new Request(input, init);
    const idempotent = isIdempotentMethod(original.method);

    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries;
      let response: Response;
      try {
        response = await baseFetch(original.clone());
      } catch (error) {
        if (last || !(error instanceof TypeError) || original.signal.aborted) throw error;
        await sleep(retryDelay(attempt, options));
        continue;
      }
      if (last || response.status < 500 || !idempotent || original.signal.aborted) return response;
      // Free the connection of the answer we drop.
      await response.body?.cancel().catch(() => undefined);
      await sleep(retryDelay(attempt, options));
    }
  };
}
