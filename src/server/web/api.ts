/**
 * Helpers that keep API endpoints thin: JSON answers, typed errors, body and query parsing with zod.
 * Every failure leaves as `{ error, message }` JSON with its status; nothing an endpoint throws becomes
 * an HTML 500.
 */
import type { APIContext, APIRoute } from 'astro';
import { z } from 'zod';
import { API_ERRORS, type ApiErrorBody, type ApiErrorCode } from '../../shared/api-errors';
import { LoginRequired } from './request-context';
import { JSON_BODY_LIMIT } from './body-limit';
import { isInputError, scrubError } from '../../shared/input-errors';

export class ApiError extends Error {
  constructor(
    public readonly code: ApiErrorCode,
    public readonly fields?: Record<string, string>,
    public readonly extra?: Record<string, unknown>,
  ) {
    super(code);
  }
}

const NO_STORE = { 'cache-control': 'no-store' };

export function json(data: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json; charset=utf-8');
  if (!headers.has('cache-control')) headers.set('cache-control', NO_STORE['cache-control']);
  return new Response(JSON.stringify(data), { ...init, headers });
}

/**
 * Errors whose text counts something, and the field of `extra` that holds the number: the text takes the
 * language's plural form for it (UX-05: 'in 1 minute', 'in 10 minutes').
 */
const COUNTED_BY: Partial<Record<ApiErrorCode, string>> = { too_many_attempts: 'minutes', activation_mail_too_soon: 'minutes', photo_limit_reached: 'limit' };

/** The JSON error answer for `code`, with its text in the request's language. */
export function errorResponse(context: Pick<APIContext, 'locals'>, code: ApiErrorCode, fields?: Record<string, string>, extra?: Record<string, unknown>): Response {
  const t = context.locals.t;
  const counted = COUNTED_BY[code];
  const count = counted ? extra?.[counted] : undefined;
  const values = typeof count === 'number' ? { ...extra, count } : extra;
  const body: ApiErrorBody & Record<string, unknown> = { error: code, message: t ? String(t(`errors:${code}`, values as never)) : code, ...extra };
  if (fields) body.fields = fields;
  return json(body, { status: API_ERRORS[code] });
}

/**
 * Reads the body as text, counting bytes as they arrive and stopping past `limit` (payload_too_large).
 * Our HTTP server already holds every body to its limit before Astro sees it (body-limit.ts); this
 * keeps the endpoint safe where that server is not in front (astro dev).
 */
export async function readBodyText(request: Request, limit = JSON_BODY_LIMIT): Promise<string> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw new ApiError('payload_too_large');
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new ApiError('payload_too_large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** Reads a JSON body and checks it; throws ApiError('validation_failed') naming the bad fields. */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  let raw: unknown;
  try {
    const text = await readBodyText(request);
    raw = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError('validation_failed', { body: 'invalid_json' });
  }
  return parseWith(schema, raw);
}

/** Checks query parameters (first value of each) with a zod object schema. */
export function readQuery<S extends z.ZodType>(url: URL, schema: S): z.infer<S> {
  return parseWith(schema, Object.fromEntries(url.searchParams.entries()));
}

function parseWith<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) fields[issue.path.join('.') || 'body'] ??= issue.code;
  throw new ApiError('validation_failed', fields);
}

/** A browser form post or navigation (it gets redirects and pages), as opposed to a script's call (JSON). */
export function isBrowserForm(request: Request): boolean {
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) return true;
  return request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html');
}

/**
 * Wraps an endpoint: ApiError → its JSON answer; `requireMember` for a visitor → a redirect to the login
 * page for a browser form, else `authentication_required`; a database error caused by the input (SQLSTATE
 * class 22, see input-errors.ts) → `validation_failed` (400); anything else is logged with the request id
 * (without query parameters) and answered `internal_error` (500) as JSON.
 */
export function endpoint(handler: (context: APIContext) => Promise<Response> | Response): APIRoute {
  return async (context) => {
    try {
      return await handler(context);
    } catch (err) {
      if (err instanceof ApiError) return errorResponse(context, err.code, err.fields, err.extra);
      if (err instanceof LoginRequired) {
        if (isBrowserForm(context.request)) return context.redirect(`/login?next=${encodeURIComponent(err.next)}`, 303);
        return errorResponse(context, 'authentication_required');
      }
      scrubError(err);
      // A value the database refused as data (a NUL byte, an unencodable character, out of range): 400 (SEC-04).
      if (isInputError(err)) {
        context.locals.log?.warn({ err, path: context.url.pathname }, 'input refused by the database');
        return errorResponse(context, 'validation_failed', { body: 'invalid_value' });
      }
      context.locals.log?.error({ err, path: context.url.pathname }, 'endpoint failed');
      return errorResponse(context, 'internal_error');
    }
  };
}

/** 405 for methods an endpoint does not offer (Astro's ALL export). */
export const methodNotAllowed: APIRoute = (context) => errorResponse(context, 'method_not_allowed');

/** Requests to user.php carry the client request-type header (SPEC §7); browsers cannot forge it cross-site. */
export const CLIENT_HEADER = 'x-requested-with';
export const CLIENT_HEADER_VALUE = 'XMLHttpRequest';

export function requireClientHeader(request: Request): void {
  if (request.headers.get(CLIENT_HEADER) !== CLIENT_HEADER_VALUE) throw new ApiError('client_header_required');
}
