/**
 * HTTP compression with node:zlib, shared by the static files and the app's responses:
 * - which encoding a client accepts (Accept-Encoding with q-values; on a tie brotli for static files,
 *   zstd, then brotli, then gzip for per-request bodies — see DYNAMIC_PREFERENCE),
 * - which content types are worth compressing (text, JSON, XML, SVG, JavaScript — not images, video,
 *   fonts, archives, nor Server-Sent Events, which must reach the browser event by event),
 * - `compressResponse`: compresses what the Astro handler writes into a ServerResponse, as a stream.
 *
 * Bodies under MIN_COMPRESS_BYTES go out as they are: a small body gains nothing, and the encoder's
 * framing would cost more than it saves.
 */
import { OutgoingMessage, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import * as zlib from 'node:zlib';
import { brotliCompress, brotliCompressSync, constants, createBrotliCompress, createGzip, gzip, gzipSync, type BrotliCompress, type Gzip } from 'node:zlib';
import { promisify } from 'node:util';

export type ContentEncoding = 'br' | 'gzip' | 'zstd';

/**
 * Whether this Node has zstd in node:zlib (22.15 / 23.8 on; marked experimental there, stable format).
 * Without it, zstd is never offered.
 */
export const ZSTD_AVAILABLE = typeof zlib.zstdCompressSync === 'function' && typeof zlib.createZstdCompress === 'function';

/** Bodies smaller than this are sent uncompressed. */
export const MIN_COMPRESS_BYTES = 1024;

const COMPRESSIBLE = /^(?:text\/(?!event-stream)[\w.+-]+|application\/(?:json|javascript|ecmascript|xml|manifest\+json|[\w.-]+\+(?:json|xml))|image\/svg\+xml)\s*(?:;|$)/i;

/** True for content types worth compressing (text, JSON, XML, JavaScript, SVG; not text/event-stream). */
export function isCompressibleType(contentType: string | number | readonly string[] | undefined): boolean {
  return typeof contentType === 'string' && COMPRESSIBLE.test(contentType.trim());
}

/**
 * The encoding to answer with for an Accept-Encoding header: the acceptable one (q > 0) with the
 * highest q-value among br and gzip; on a tie the first of `preferred`; `*` covers codings not named;
 * null means identity.
 */
export function negotiateEncoding(header: string | readonly string[] | undefined, preferred: readonly ContentEncoding[] = ['br', 'gzip']): ContentEncoding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : String(header)).split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName?.trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (m) q = Number(m[1]);
    }
    weights.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(q) ? q : 0);
  }
  let best: ContentEncoding | null = null;
  let bestQ = 0;
  for (const coding of preferred) {
    if (coding === 'zstd' && !ZSTD_AVAILABLE) continue;
    const q = weights.get(coding) ?? weights.get('*') ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

/** Adds a field to the response's Vary header unless it is there already (or Vary is `*`). */
export function appendVary(res: ServerResponse, field: string): void {
  const current = res.getHeader('vary');
  const list = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (list.includes('*') || list.some((f) => f.toLowerCase() === field.toLowerCase())) return;
  res.setHeader('vary', [...list, field].join(', '));
}

const brotliAsync = promisify(brotliCompress);
const zstdAsync = (body: Buffer, options: zlib.ZstdOptions): Promise<Buffer> => new Promise((resolve, reject) => zlib.zstdCompress(body, options, (err, out) => (err ? reject(err) : resolve(out))));
const gzipAsync = promisify(gzip);

/**
 * Per-request compression. Measured on the pages themselves (CPU time per body, this project's 2-core
 * box): landing page 25 kB → gzip 6: 7,593 B in 0.15 ms, brotli 4: 7,588 B in 0.24 ms; lander 11 kB →
 * gzip 6: 2,482 B in 0.06 ms, brotli 4: 2,337 B in 0.10 ms. A member's search page, 53 kB (2026-11-25, a
 * slower box): gzip 6 11,373 B in 0.91 ms, brotli 4 11,168 B in 1.07 ms, zstd 3 11,466 B in 0.22 ms.
 * At the quality a request can afford, zstd gives gzip 6's size for a quarter of its CPU, so per-request
 * bodies prefer zstd (Chrome and Firefox send it over HTTPS). A browser without it (Safari sends
 * `gzip, deflate, br`) gets brotli at quality 2: within ±6 % of gzip 6's size for half its CPU on the
 * member pages (2026-11-27: search page 12,500 B in 0.33 ms against 12,089 B in 0.69 ms; conversation
 * 11,822 B in 0.34 ms against 11,590 B in 0.78 ms), then gzip (DYNAMIC_PREFERENCE). Static files and
 * the render cache keep brotli 11 and gzip 9 copies, compressed once (15–25% smaller than gzip 9).
 * docs/decisions/053-zstd-for-pages.md, 102-brotli-2-before-gzip.md
 */
const DYNAMIC_BROTLI_QUALITY = 2;
const DYNAMIC_GZIP_LEVEL = 6;
const DYNAMIC_ZSTD_LEVEL = 3;
const DYNAMIC_PREFERENCE: readonly ContentEncoding[] = ['zstd', 'br', 'gzip'];
/**
 * Whole bodies up to this size are compressed on the main thread: the trip to the thread pool costs
 * more CPU than the compression itself (landing page, gzip 6: 0.34 ms async vs 0.17 ms sync; brotli 4:
 * 0.63 vs 0.24 ms), and a tenth of a millisecond is short next to rendering the page (~2 ms). Larger
 * bodies go to the thread pool, so the event loop never stalls for long.
 */
const SYNC_COMPRESS_MAX_BYTES = 128 * 1024;

/** A brotli window just large enough for the body (16 … 22 bits): less memory for the usual page. */
function brotliWindow(sizeHint: number | undefined): number {
  if (!sizeHint) return 20;
  return Math.min(22, Math.max(16, Math.ceil(Math.log2(sizeHint + 1))));
}

function brotliParams(quality: number, sizeHint: number | undefined): Record<number, number> {
  return {
    [constants.BROTLI_PARAM_QUALITY]: quality,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_LGWIN]: brotliWindow(sizeHint),
    ...(sizeHint ? { [constants.BROTLI_PARAM_SIZE_HINT]: sizeHint } : {}),
  };
}

/**
 * Compresses a whole buffer off the main thread (one trip to libuv's thread pool). `best` is for
 * bodies compressed once and kept (static files: brotli 11, gzip 9); `fast` for per-request bodies.
 */
export function compressBuffer(body: Buffer, encoding: ContentEncoding, effort: 'fast' | 'best'): Promise<Buffer> {
  // Kept copies are brotli and gzip (static files, the render cache): zstd only ever compresses per request.
  if (encoding === 'zstd') return zstdAsync(body, zstdOptions(DYNAMIC_ZSTD_LEVEL));
  if (encoding === 'br') return brotliAsync(body, { params: brotliParams(effort === 'best' ? 11 : DYNAMIC_BROTLI_QUALITY, body.length) });
  return gzipAsync(body, { level: effort === 'best' ? 9 : DYNAMIC_GZIP_LEVEL });
}

/** Compresses a whole buffer on the main thread at the per-request level (small bodies: see SYNC_COMPRESS_MAX_BYTES). */
export function compressBufferSync(body: Buffer, encoding: ContentEncoding): Buffer {
  if (encoding === 'zstd') return zlib.zstdCompressSync(body, zstdOptions(DYNAMIC_ZSTD_LEVEL));
  if (encoding === 'br') return brotliCompressSync(body, { params: brotliParams(DYNAMIC_BROTLI_QUALITY, body.length) });
  return gzipSync(body, { level: DYNAMIC_GZIP_LEVEL });
}

function zstdOptions(level: number): zlib.ZstdOptions {
  return { params: { [constants.ZSTD_c_compressionLevel]: level } };
}

type Encoder = BrotliCompress | Gzip | zlib.ZstdCompress;

function createEncoder(encoding: ContentEncoding, sizeHint: number | undefined): Encoder {
  if (encoding === 'zstd') return zlib.createZstdCompress(zstdOptions(DYNAMIC_ZSTD_LEVEL));
  if (encoding === 'br') return createBrotliCompress({ params: brotliParams(DYNAMIC_BROTLI_QUALITY, sizeHint) });
  return createGzip({ level: DYNAMIC_GZIP_LEVEL });
}

/** Bodies held beyond this size start streaming through an encoder instead of waiting for the end. */
const MAX_HELD_BYTES = 256 * 1024;
/**
 * A body still incomplete this long after its first write starts streaming: the answer is waiting for
 * something (a slow statement, a service), and the browser gets what is there. Until then a body is held
 * whole however many event-loop turns its writes span: a page with a React island is rendered over
 * several turns (React schedules its work with setImmediate), and streaming it cost the conversation
 * page 3.5–4 ms of CPU more than compressing it whole (an encoder through the thread pool, a flush and a
 * socket write per turn). docs/decisions/101-pages-held-whole.md
 */
export const STREAM_AFTER_MS = 250;

const headersSentGetter = Object.getOwnPropertyDescriptor(OutgoingMessage.prototype, 'headersSent')?.get;

type WriteCallback = (err?: Error | null) => void;

/**
 * Makes `res` compress its body with the encoding `req` accepts, when the response turns out to be
 * compressible: a compressible content type, no Content-Encoding yet, no `no-transform`, a status with a
 * body, and at least MIN_COMPRESS_BYTES of body. Compressible responses get `Vary: Accept-Encoding`
 * whether or not they end up compressed.
 *
 * The status line and headers are held back with the body until the body is complete, MAX_HELD_BYTES
 * are held, or STREAM_AFTER_MS pass after its first write:
 * - complete (every page rendered at the usual pace, over however many event-loop turns): compressed in
 *   one piece and sent with a Content-Length — or as it is when under MIN_COMPRESS_BYTES or not accepted;
 * - too large or too slow (a body still waiting for data): the rest streams through an encoder (or as
 *   it is), flushed after every burst of writes so the browser gets each part as soon as it exists.
 * Meanwhile `res.headersSent` reports true once body bytes were written, so error handlers treat the
 * response as begun.
 */
export function compressResponse(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'HEAD') return;
  const accepted = negotiateEncoding(req.headers['accept-encoding'], DYNAMIC_PREFERENCE);
  const original = { writeHead: res.writeHead, write: res.write, end: res.end, flushHeaders: res.flushHeaders };
  // The unpatched methods, loosely typed so every overload can be forwarded as it came.
  const rawWriteHead = (...args: unknown[]) => (original.writeHead as (...a: unknown[]) => ServerResponse).apply(res, args);
  const rawWrite = (...args: unknown[]) => (original.write as (...a: unknown[]) => boolean).apply(res, args);
  const rawEnd = (...args: unknown[]) => (original.end as (...a: unknown[]) => ServerResponse).apply(res, args);
  let state: 'pending' | 'identity' | 'whole' | 'streaming' = 'pending';
  let held: Buffer[] = [];
  let heldBytes = 0;
  let heldCallbacks: WriteCallback[] = [];
  let encoder: Encoder | undefined;
  let burstTimer: NodeJS.Immediate | undefined;
  /** While pending: when the held body stops waiting for its end (STREAM_AFTER_MS after the first write). */
  let pendingTimer: NodeJS.Timeout | undefined;

  Object.defineProperty(res, 'headersSent', {
    configurable: true,
    get(this: ServerResponse) {
      return ((state === 'pending' || state === 'whole') && heldBytes > 0) || Boolean(headersSentGetter?.call(this));
    },
  });

  /** Whether this response may be compressed at all (before looking at its size). */
  const eligible = (): boolean => {
    const status = res.statusCode;
    if (status < 200 || status === 204 || status === 206 || status === 304) return false;
    if (res.hasHeader('content-encoding')) return false;
    if (/no-transform/i.test(String(res.getHeader('cache-control') ?? ''))) return false;
    return isCompressibleType(res.getHeader('content-type'));
  };

  const declaredLength = (): number | undefined => {
    const value = res.getHeader('content-length');
    const n = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : NaN;
    return Number.isFinite(n) ? n : undefined;
  };

  const toBuffer = (chunk: unknown, encoding?: BufferEncoding): Buffer =>
    Buffer.isBuffer(chunk) ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : Buffer.from(String(chunk), encoding);

  const hold = (chunk: unknown, encoding?: BufferEncoding, cb?: WriteCallback) => {
    if (chunk !== undefined && chunk !== null) {
      const buffer = toBuffer(chunk, encoding);
      held.push(buffer);
      heldBytes += buffer.length;
    }
    if (cb) heldCallbacks.push(cb);
  };

  /** The held body in one buffer, and the callbacks of the writes that made it. */
  const takeHeld = (): { body: Buffer | undefined; callbacks: WriteCallback[] } => {
    const body = held.length > 0 ? Buffer.concat(held) : undefined;
    const callbacks = heldCallbacks;
    held = [];
    heldCallbacks = [];
    return { body, callbacks };
  };

  /** Stops the burst's flush and the wait for the end (the body's fate is decided, or the client left). */
  const cancelTimers = () => {
    if (burstTimer) clearImmediate(burstTimer);
    burstTimer = undefined;
    if (pendingTimer) clearTimeout(pendingTimer);
    pendingTimer = undefined;
  };

  /** Held since the first write and still incomplete after STREAM_AFTER_MS: what is there goes out now. */
  const waitForEnd = (): void => {
    if (pendingTimer) return;
    pendingTimer = setTimeout(() => {
      pendingTimer = undefined;
      if (state !== 'pending' || res.destroyed) return;
      if (accepted && heldBytes >= MIN_COMPRESS_BYTES) goStreaming(accepted);
      else goIdentity();
    }, STREAM_AFTER_MS);
    // Never keeps the process up; a response the client left is skipped when the timer fires.
    pendingTimer.unref();
  };

  /** Sends the response as it is: the held bytes first. */
  const goIdentity = (): void => {
    state = 'identity';
    cancelTimers();
    const { body, callbacks } = takeHeld();
    if (body) rawWrite(body, (err?: Error | null) => callbacks.forEach((cb) => cb(err)));
  };

  /** Streams the rest through an encoder: headers now, held bytes first, a flush after every burst. */
  const goStreaming = (encoding: ContentEncoding): void => {
    state = 'streaming';
    cancelTimers();
    const stream = createEncoder(encoding, declaredLength());
    encoder = stream;
    res.setHeader('content-encoding', encoding);
    res.removeHeader('content-length');
    rawWriteHead(res.statusCode);
    stream.on('data', (out: Buffer) => {
      if (!rawWrite(out)) stream.pause();
    });
    res.on('drain', () => stream.resume());
    stream.on('drain', () => res.emit('drain'));
    stream.on('error', (err) => res.destroy(err));
    res.once('close', () => {
      cancelTimers();
      if (!stream.writableFinished) stream.destroy();
    });
    stream.once('end', () => rawEnd());
    const { body, callbacks } = takeHeld();
    if (body) stream.write(body, (err?: Error | null) => callbacks.forEach((cb) => cb(err)));
    scheduleBurstEnd();
  };

  /** After the current burst of writes to a streaming body: flush the encoder. */
  const scheduleBurstEnd = (): void => {
    if (burstTimer) return;
    burstTimer = setImmediate(() => {
      burstTimer = undefined;
      if (state === 'streaming' && encoder && !encoder.writableEnded && !encoder.destroyed) {
        encoder.flush(accepted === 'br' ? constants.BROTLI_OPERATION_FLUSH : accepted === 'zstd' ? constants.ZSTD_e_flush : constants.Z_SYNC_FLUSH);
      }
    });
  };

  /** The complete body: compressed in one piece (or sent as it is when small or not compressible). */
  const finishWhole = (cb: (() => void) | undefined): ServerResponse => {
    cancelTimers();
    const isEligible = eligible();
    if (isEligible) appendVary(res, 'Accept-Encoding');
    const { body, callbacks } = takeHeld();
    const done = () => {
      for (const c of callbacks) c();
      cb?.();
    };
    if (!accepted || !isEligible || !body || body.length < MIN_COMPRESS_BYTES) {
      // One write with the whole body, so Node sends a Content-Length.
      state = 'identity';
      return body ? rawEnd(body, done) : rawEnd(done);
    }
    const send = (compressed: Buffer | undefined) => {
      state = 'identity';
      if (res.destroyed) return res;
      if (!compressed) return rawEnd(body, done);
      res.setHeader('content-encoding', accepted);
      res.setHeader('content-length', compressed.length);
      return rawEnd(compressed, done);
    };
    if (body.length <= SYNC_COMPRESS_MAX_BYTES) {
      let compressed: Buffer | undefined;
      try {
        compressed = compressBufferSync(body, accepted);
      } catch {
        compressed = undefined;
      }
      return send(compressed);
    }
    state = 'whole';
    heldBytes = body.length;
    compressBuffer(body, accepted, 'fast').then(send, () => send(undefined));
    return res;
  };

  /** Applies writeHead's arguments to the response without sending anything yet. */
  res.writeHead = function writeHead(this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    if (state !== 'pending') return rawWriteHead(statusCode, ...rest);
    this.statusCode = statusCode;
    if (typeof rest[0] === 'string') this.statusMessage = rest[0];
    const headers = (typeof rest[0] === 'string' ? rest[1] : rest[0]) as OutgoingHttpHeaders | unknown[] | undefined;
    if (Array.isArray(headers)) {
      const pairs: unknown[][] = Array.isArray(headers[0]) ? (headers as unknown[][]) : [];
      if (pairs.length === 0) for (let i = 0; i + 1 < headers.length; i += 2) pairs.push([headers[i], headers[i + 1]]);
      for (const [name, value] of pairs) this.appendHeader(String(name), value as string);
    } else if (headers) {
      for (const [name, value] of Object.entries(headers)) if (value !== undefined) this.setHeader(name, value);
    }
    return this;
  } as ServerResponse['writeHead'];

  res.write = function write(this: ServerResponse, chunk: unknown, encodingOrCallback?: unknown, callback?: unknown) {
    const cb = (typeof encodingOrCallback === 'function' ? encodingOrCallback : callback) as WriteCallback | undefined;
    const encoding = typeof encodingOrCallback === 'string' ? (encodingOrCallback as BufferEncoding) : undefined;
    if (state === 'pending') {
      const length = declaredLength();
      if (!eligible() || (length !== undefined && length < MIN_COMPRESS_BYTES)) {
        if (eligible()) appendVary(this, 'Accept-Encoding');
        goIdentity();
      } else {
        // Held even when it will go out as it is: Astro writes a page in many small chunks, and one
        // write of the whole body, with a Content-Length, costs far less than one each.
        appendVary(this, 'Accept-Encoding');
        hold(chunk, encoding, cb);
        if (heldBytes >= MAX_HELD_BYTES) {
          if (accepted) goStreaming(accepted);
          else goIdentity();
        } else waitForEnd();
        return true;
      }
    }
    if (state === 'streaming' && encoder) {
      const ok = encoder.write(toBuffer(chunk, encoding), cb);
      scheduleBurstEnd();
      return ok;
    }
    if (state === 'whole') return false; // written after end(): dropped, as Node would refuse it
    return rawWrite(chunk, encodingOrCallback, callback);
  } as ServerResponse['write'];

  res.end = function end(this: ServerResponse, chunk?: unknown, encodingOrCallback?: unknown, callback?: unknown) {
    if (typeof chunk === 'function') {
      callback = chunk;
      chunk = undefined;
    }
    const cb = (typeof encodingOrCallback === 'function' ? encodingOrCallback : callback) as (() => void) | undefined;
    const encoding = typeof encodingOrCallback === 'string' ? (encodingOrCallback as BufferEncoding) : undefined;
    if (state === 'pending') {
      hold(chunk, encoding);
      return finishWhole(cb);
    }
    if (state === 'whole') return this;
    if (state === 'streaming' && encoder) {
      cancelTimers();
      if (chunk !== undefined && chunk !== null) encoder.write(toBuffer(chunk, encoding));
      if (cb) this.once('finish', cb);
      encoder.end();
      return this;
    }
    return rawEnd(chunk, encodingOrCallback, callback);
  } as ServerResponse['end'];

  res.flushHeaders = function flushHeaders(this: ServerResponse) {
    if (state === 'pending') {
      // Headers wanted now (a stream such as Server-Sent Events): decide without knowing the size.
      if (accepted && eligible()) {
        appendVary(this, 'Accept-Encoding');
        goStreaming(accepted);
        return;
      }
      goIdentity();
    }
    original.flushHeaders.call(this);
  };
}
