import { describe, expect, it } from 'vitest';
import { answerSafely, type SafetyNetLocals } from './safety-net';

/** A database error as Drizzle throws it: the driver's error, with its SQLSTATE, as the cause; the query's parameters in the message. */
function databaseError(code: string): Error {
  return Object.assign(new Error('Failed query: select 1\nparams: free@demo.test'), { cause: Object.assign(new Error('out of range'), { code }) });
}

describe("the pages' safety net", () => {
  it("SEC-19 a database error caused by the input becomes the error page's 400, translated, its parameters scrubbed; any other error stays", async () => {
    const warned: unknown[] = [];
    const locals: SafetyNetLocals = {
      t: (key) => (key === 'errors:validation_failed' ? 'Please check the fields marked in red.' : key),
      log: { warn: (obj: unknown) => void warned.push(obj) } as never,
    };
    const input = databaseError('22003');
    const refused = await answerSafely(locals, () => Promise.reject(input)).catch((e: unknown) => e as Error & { status?: number });
    expect(refused).toMatchObject({ status: 400, message: 'Please check the fields marked in red.' });
    expect(input.message).not.toContain('free@demo.test');
    expect(warned).toHaveLength(1);
    const bug = databaseError('42703');
    await expect(answerSafely(locals, () => Promise.reject(bug))).rejects.toBe(bug);
  });

  it("SEC-19 the error page's own status goes on its answer (Astro sends its /500 route as 500 whatever the page sets)", async () => {
    const locals: SafetyNetLocals = {};
    const answered = await answerSafely(locals, async () => {
      locals.errorStatus = 400;
      return new Response('<main data-error-page="400">', { status: 500, headers: { 'content-type': 'text/html' } });
    });
    expect(answered.status).toBe(400);
    expect(answered.headers.get('content-type')).toBe('text/html');
    expect(await answered.text()).toContain('data-error-page="400"');
    // A real 500 stays a 500; a page's own answers are left as they are.
    expect((await answerSafely({ errorStatus: 500 }, async () => new Response('', { status: 500 }))).status).toBe(500);
    expect((await answerSafely({}, async () => new Response('', { status: 500 }))).status).toBe(500);
    expect((await answerSafely({ errorStatus: 400 }, async () => new Response('ok', { status: 200 }))).status).toBe(200);
  });
});
