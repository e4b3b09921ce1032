/**
 * The checks every request passes in our node:http server before Astro sees it (SEC-03, SEC-04,
 * docs/decisions/014-request-limits-and-input-safety.md):
 * - methods: only those the app serves; TRACE, CONNECT and unknown methods get 405;
 * - the URL: a NUL byte (raw or `%00`), or a path whose percent-encoding is no UTF-8, gets 400;
 * - the body: read under its limit while it streams in (body-limit.ts), 413 past it; a JSON or
 *   urlencoded body with a NUL in a value gets 400.
 * Refusals are JSON `{ error, message }` for scripts and a small page for browsers (a form post or a
 * navigation; under /api/ only a request that accepts HTML), in the language of the language cookie.
 *
 * {@link prepareResponse} sets what every answer carries: `X-Content-Type-Options: nosniff`, and the
 * reason phrase of its status from node's STATUS_CODES (Astro's adapter would write "404 OK").
 */
import { STATUS_CODES, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createTranslator } from '../i18n';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LANGUAGES, type Language } from '../shared/languages';
import { API_ERRORS, type ApiErrorCode } from '../shared/api-errors';
import { FALLBACK_CSP } from '../server/web/headers';
import { wantsPageFrom } from '../server/web/answer-kind';
import { bodyKind, bodyLimit, closeAfterRefusal, hasBody, LINGER_MS, readLimitedBody } from '../server/web/body-limit';

/** The methods the app answers; anything else is refused before routing. */
export const ALLOWED_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Every answer: nosniff, and the standard reason phrase for its status whatever the writer passed. */
export function prepareResponse(res: ServerResponse): void {
  res.setHeader('x-content-type-options', 'nosniff');
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    if (typeof rest[0] === 'string') rest.shift();
    return (writeHead as (code: number, reason: string, headers?: unknown) => ServerResponse).call(this, statusCode, STATUS_CODES[statusCode] ?? 'Unknown', rest[0]);
  } as ServerResponse['writeHead'];
}

/** NUL in the URL, raw or percent-encoded (PostgreSQL text cannot hold it; no URL of ours needs it). */
const NUL_IN_URL = /\0|%00/i;

/** Whether the path's percent-encoding decodes to UTF-8 (Astro refuses it otherwise, logging an error). */
function decodablePath(url: string): boolean {
  try {
    decodeURIComponent(url.split('?')[0]!);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs the checks; returns true when it answered the request itself (the caller stops there). A body
 * within its limit is left on `req.body` as a Buffer, which Astro's adapter reads instead of the stream.
 */
export async function guardRequest(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const method = req.method ?? 'GET';
  if (!ALLOWED_METHODS.includes(method)) {
    res.setHeader('allow', ALLOWED_METHODS.join(', '));
    // As for a refused URL below: take in a body within the JSON limit before answering, else drain and close.
    const read = hasBody(req) ? await readLimitedBody(req, bodyLimit('json')) : undefined;
    if (read?.type === 'aborted') {
      res.destroy();
      return true;
    }
    refuse(req, res, 'method_not_allowed');
    if (read?.type === 'too_large') closeAfterRefusal(req);
    return true;
  }
  const url = req.url ?? '/';
  const badUrl = NUL_IN_URL.test(url) || !decodablePath(url);
  if (badUrl && !hasBody(req)) {
    refuse(req, res, 'validation_failed', { url: 'invalid_characters' });
    return true;
  }
  if (!hasBody(req)) return false;
  const contentType = String(req.headers['content-type'] ?? '');
  const kind = bodyKind(badUrl ? '/' : url.split('?')[0]!, contentType);
  // The body is read (within its limit) even when the URL is refused: answering before it has arrived
  // and closing would reset the connection under the answer while the client is still sending.
  const read = await readLimitedBody(req, bodyLimit(kind));
  if (read.type === 'aborted') {
    res.destroy();
    return true;
  }
  if (read.type === 'too_large') {
    refuse(req, res, kind === 'upload' ? 'photo_too_large' : 'payload_too_large');
    closeAfterRefusal(req);
    return true;
  }
  if (badUrl) {
    refuse(req, res, 'validation_failed', { url: 'invalid_characters' });
    return true;
  }
  if (kind !== 'upload' && bodyHasNul(read.body, contentType)) {
    refuse(req, res, 'validation_failed', { body: 'invalid_characters' });
    return true;
  }
  (req as IncomingMessage & { body?: Buffer }).body = read.body;
  return false;
}

/** A NUL in a urlencoded value (`%00` or raw) or in a JSON string (`\u0000` or raw). */
export function bodyHasNul(body: Buffer, contentType: string): boolean {
  if (body.includes(0)) return true;
  const type = contentType.toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) return /%00/i.test(body.toString('latin1'));
  if (!type.includes('json')) return false;
  const text = body.toString('utf8');
  if (!/\\u0000/i.test(text)) return false;
  try {
    return containsNul(JSON.parse(text));
  } catch {
    return false; // not JSON: the endpoint answers invalid_json
  }
}

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object') return Object.entries(value).some(([k, v]) => k.includes('\0') || containsNul(v));
  return false;
}

/**
 * A browser's form post or navigation gets a page; a script's call gets JSON (the rule of
 * src/server/web/answer-kind.ts). Under /api/ a fetch() or XMLHttpRequest of a FormData is multipart and
 * accepts anything: an API client, which gets the JSON error the contract promises (SEC-19; it got an
 * HTML 413).
 */
export function wantsPage(req: IncomingMessage): boolean {
  return wantsPageFrom(
    (name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    (req.url ?? '/').split('?')[0]!,
  );
}

function requestLanguage(req: IncomingMessage): Language {
  const match = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([a-z]{2})`).exec(String(req.headers.cookie ?? ''));
  const lang = match?.[1];
  return (LANGUAGES as readonly string[]).includes(lang ?? '') ? (lang as Language) : DEFAULT_LANGUAGE;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Answers `code` with its status: JSON, or a small page for a browser. */
export function refuse(req: IncomingMessage, res: ServerResponse, code: ApiErrorCode, fields?: Record<string, string>): void {
  const lang = requestLanguage(req);
  const t = createTranslator(lang);
  const message = String(t(`errors:${code}`));
  const status = API_ERRORS[code];
  const headers: OutgoingHttpHeaders = { 'cache-control': 'no-store' };
  let body: string;
  if (wantsPage(req)) {
    headers['content-type'] = 'text/html; charset=utf-8';
    headers['content-security-policy'] = FALLBACK_CSP;
    body =
      `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<meta name="robots" content="noindex"><title>${escapeHtml(String(t('errors:error')))}</title></head>` +
      `<body><main data-error-page="${status}"><h1>${status}</h1><p>${escapeHtml(message)}</p>` +
      `<p><a href="/">${escapeHtml(String(t('errors:back_home')))}</a></p></main></body></html>`;
  } else {
    headers['content-type'] = 'application/json; charset=utf-8';
    body = JSON.stringify(fields ? { error: code, message, fields } : { error: code, message });
  }
  headers['content-length'] = Buffer.byteLength(body);
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

const answeredClientErrors = new WeakSet<Duplex>();

/**
 * The server's `clientError` listener: a request node's parser refused (headers over 16 KB, a broken
 * request line, an unknown method, a timeout) gets its status (431, 400, 405, 408) with the standard reason phrase and nosniff,
 * and the socket is closed gently: the client, maybe still sending, gets to read the answer first
 * (node's own handler destroys the socket at once, which resets the connection under the answer).
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (answeredClientErrors.has(socket)) return;
  answeredClientErrors.add(socket);
  const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (err.code === 'ECONNRESET' || !socket.writable || started) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_INVALID_METHOD' ? 405 : 400;
  endGently(socket, status);
}

/** CONNECT (node hands it to a 'connect' listener, not to the request handler): 405, like other methods we do not serve. */
export function answerConnect(_req: IncomingMessage, socket: Duplex): void {
  endGently(socket, 405);
}

/** Installs the listeners for what never reaches the request handler: parser errors and CONNECT. */
export function installEdgeListeners(server: Server): void {
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect);
}

function endGently(socket: Duplex, status: number): void {
  const allow = status === 405 ? `Allow: ${ALLOWED_METHODS.join(', ')}\r\n` : '';
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n${allow}X-Content-Type-Options: nosniff\r\n\r\n`);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.resume();
}
