import { describe, expect, it } from 'vitest';
import { createRetryingFetch, retryDelay, type FetchLike } from './retry';

const URL_ = 'http://site.test/api/chats.php';

function harness(answers: (() => Response | Promise<Response>)[]) {
  const calls: { method: string; body: string }[] = [];
  const sleeps: number[] = [];
  let i = 0;
  const baseFetch: FetchLike = async (input) => {
    const request = input as Request;
    calls.push({ method: request.method, body: await request.text() });
    const answer = answers[Math.min(i++, answers.length - 1)];
    if (!answer) throw new Error('no answer configured');
    return answer();
  };
  const fetch = createRetryingFetch(baseFetch, { random: () => 0, sleep: async (ms) => void sleeps.push(ms) });
  return { fetch, calls, sleeps };
}

const status = (code: number) => () => new Response(`status ${code}`, { status: code });
const networkError = () => {
  throw new TypeError('Failed to fetch');
};

describe('createRetryingFetch', () => {
  it('CLI-01 retries a 503 five times with growing delays, then gives up with the last answer', async () => {
    const { fetch, calls, sleeps } = harness([status(503)]);
    const response = await fetch(URL_);
    expect(response.status).toBe(503);
    expect(calls).toHaveLength(6);
    expect(sleeps).toEqual([300, 600, 1200, 2400, 4800]);
  });

  it('CLI-01 returns the first good answer after 5xx failures', async () => {
    const { fetch, calls } = harness([status(500), status(502), status(200)]);
    const response = await fetch(URL_);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('status 200');
    expect(calls).toHaveLength(3);
  });

  it.each([400, 401, 403, 404, 429])('CLI-01 never retries a %i', async (code) => {
    const { fetch, calls, sleeps } = harness([status(code), status(200)]);
    const response = await fetch(URL_);
    expect(response.status).toBe(code);
    expect(calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('CLI-01 retries network errors and succeeds when the network comes back', async () => {
    const { fetch, calls, sleeps } = harness([networkError, networkError, status(200)]);
    const response = await fetch(URL_);
    expect(response.status).toBe(200);
    expect(calls).toHaveLength(3);
    expect(sleeps).toEqual([300, 600]);
  });

  it('CLI-01 throws the last network error after the final try', async () => {
    const { fetch, calls } = harness([networkError]);
    await expect(fetch(URL_)).rejects.toBeInstanceOf(TypeError);
    expect(calls).toHaveLength(6);
  });

  it('CLI-01 does not retry a POST that got a 5xx answer (a message or payment must not be doubled)', async () => {
    const { fetch, calls } = harness([status(503), status(200)]);
    const response = await fetch(URL_, { method: 'POST', body: '{"text":"hi"}' });
    expect(response.status).toBe(503);
    expect(calls).toHaveLength(1);
  });

  it('CLI-01 retries a POST after a network error and sends the same body again', async () => {
    const { fetch, calls } = harness([networkError, status(201)]);
    const response = await fetch(URL_, { method: 'POST', body: '{"text":"hi"}', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(201);
    expect(calls).toEqual([
      { method: 'POST', body: '{"text":"hi"}' },
      { method: 'POST', body: '{"text":"hi"}' },
    ]);
  });

  it('CLI-01 retries a PUT (idempotent) on a 5xx with its body each time', async () => {
    const { fetch, calls } = harness([status(500), status(200)]);
    await fetch(URL_, { method: 'PUT', body: '{"language":"nl"}' });
    expect(calls.map((c) => c.body)).toEqual(['{"language":"nl"}', '{"language":"nl"}']);
  });

  it('CLI-01 does not retry errors other than network errors (an abort)', async () => {
    const { fetch, calls } = harness([
      () => {
        throw new DOMException('aborted', 'AbortError');
      },
    ]);
    await expect(fetch(URL_)).rejects.toThrow('aborted');
    expect(calls).toHaveLength(1);
  });

  it('CLI-01 delays grow exponentially, stay under the cap and carry bounded jitter', () => {
    expect([0, 1, 2, 3, 4].map((n) => retryDelay(n, { random: () => 0 }))).toEqual([300, 600, 1200, 2400, 4800]);
    expect(retryDelay(5, { random: () => 0 })).toBe(8000);
    expect(retryDelay(12, { random: () => 0.99 })).toBe(8000);
    expect(retryDelay(0, { random: () => 1, jitter: 0.1 })).toBe(330);
  });
});
