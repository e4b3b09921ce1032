/**
 * Request body limits, enforced while the body streams in (SEC-03, docs/decisions/014). Our node:http
 * server reads the body of every request that has one BEFORE Astro sees the request:
 * - a declared Content-Length over the route's limit is refused at once, nothing read;
 * - a chunked body is counted as it arrives and refused the moment it passes the limit, holding at most
 *   the limit in memory (the rest is never buffered);
 * - a body within the limit is handed to Astro as a Buffer (`req.body`, which the adapter takes as is),
 *   so no page or endpoint can read more than its limit, whatever it calls (`formData()`, `text()`, …).
 *
 * Limits per kind of request: JSON and anything else 64 KB, urlencoded forms 64 KB, multipart photo
 * uploads to the pages in {@link UPLOAD_PATHS} the upload's own limit (a 10 MB photo plus framing).
 */
import type { IncomingMessage } from 'node:http';

export const JSON_BODY_LIMIT = 64 * 1024;
export const FORM_BODY_LIMIT = 64 * 1024;
/** The photo upload's own limit: MAX_UPLOAD_BODY_BYTES of photos/upload.ts (a test keeps them equal; no sharp import here). */
export const UPLOAD_BODY_LIMIT = 10 * 1024 * 1024 + 64 * 1024;

/** Pages whose forms post a photo as multipart/form-data (a test checks every such form is listed). */
export const UPLOAD_PATHS: readonly string[] = ['/complete-signup', '/profile', '/api/chat-photo.php', '/api/photos.php', '/admin/partner', '/verify', '/api/verification.php'];

/**
 * After a refusal the server keeps reading (and dropping) what the client still sends, for a short
 * while, before it closes the connection: a browser that is still uploading only shows the answer when
 * the connection was not reset under it ("lingering close", as nginx does). Nothing of it is kept.
 */
export const LINGER_MS = 2_000;
const LINGER_BYTES = 16 * 1024 * 1024;

export type BodyKind = 'json' | 'form' | 'upload';

export function bodyKind(path: string, contentType: string): BodyKind {
  const type = contentType.toLowerCase();
  if (type.startsWith('multipart/form-data')) return UPLOAD_PATHS.includes(path.replace(/\/+$/, '') || '/') ? 'upload' : 'form';
  if (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('text/plain')) return 'form';
  return 'json';
}

export function bodyLimit(kind: BodyKind): number {
  return kind === 'upload' ? UPLOAD_BODY_LIMIT : kind === 'form' ? FORM_BODY_LIMIT : JSON_BODY_LIMIT;
}

/** Whether the request carries a body at all (a length over 0, or a transfer encoding). */
export function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

export type BodyRead = { type: 'ok'; body: Buffer } | { type: 'too_large'; limit: number } | { type: 'aborted' };

/**
 * Reads the body up to `limit` bytes. Over the limit (declared or counted) it stops collecting at once
 * and answers `too_large`; the caller answers 413 and calls {@link closeAfterRefusal}.
 */
export function readLimitedBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ type: 'too_large', limit });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: BodyRead) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        req.pause();
        done({ type: 'too_large', limit });
      } else chunks.push(chunk);
    };
    const onEnd = () => done({ type: 'ok', body: Buffer.concat(chunks, size) });
    const onError = () => done({ type: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
}

/**
 * After a 413 given before the body was read: what the client still sends is dropped for at most
 * {@link LINGER_MS} / {@link LINGER_BYTES}; a body that ends within that leaves the connection usable
 * (keep-alive), otherwise the socket is closed. (`Connection: close` would not do: node closes the
 * socket as soon as the answer is written, and the client, still sending, would see a reset.)
 */
export function closeAfterRefusal(req: IncomingMessage): void {
  let dropped = 0;
  const socket = req.socket;
  const stop = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(stop, LINGER_MS);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) stop();
  });
  req.once('end', () => clearTimeout(timer));
  socket.once('close', () => clearTimeout(timer));
  req.resume();
}
