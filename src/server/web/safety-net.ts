/**
 * The safety net of every page (SEC-04, docs/decisions/014; SEC-19, decision 059): an error is scrubbed
 * of query parameters before Astro logs it (SEC-08), and a database error caused by the input (a NUL
 * byte, an unencodable character, a value out of range) renders the error page with 400 instead of 500.
 * Astro answers its error page (/500) with 500 whatever the page sets, so the status the page chose
 * (`errorStatus`) is put on its answer here: the 400 used to go out as a 500. The outermost middleware
 * runs it (src/middleware.ts); every route's input is parsed before it reaches the database, so this is
 * what is left when one is not.
 */
import type { Logger } from '../logger';
import { isInputError, scrubError } from '../../shared/input-errors';

/** What the safety net reads of the request's locals (Astro.locals fits). */
export interface SafetyNetLocals {
  /** The status the error page chose (src/pages/500.astro). */
  errorStatus?: number;
  log?: Pick<Logger, 'warn'>;
  t?: (key: string) => unknown;
}

export async function answerSafely(locals: SafetyNetLocals, next: () => Promise<Response>): Promise<Response> {
  try {
    const response = await next();
    const status = locals.errorStatus;
    if (response.status !== 500 || status === undefined || status === 500) return response;
    return new Response(response.body, { status, headers: response.headers });
  } catch (err) {
    scrubError(err);
    if (!isInputError(err)) throw err;
    locals.log?.warn({ err }, 'input refused by the database');
    const message = locals.t ? String(locals.t('errors:validation_failed')) : 'Bad request';
    throw Object.assign(new Error(message), { status: 400 });
  }
}
