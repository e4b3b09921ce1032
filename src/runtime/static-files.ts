/**
 * Serves the built client assets (dist/client). Hashed files under /_astro/ are immutable for a year;
 * other public files (icons, manifest, service worker) are revalidated.
 *
 * Text assets (JavaScript, CSS, SVG, JSON, …) are sent brotli- or gzip-compressed when the client
 * accepts it (`Vary: Accept-Encoding`). Nothing is compressed at build time: the first request for a
 * file compresses it quickly (brotli 4 / gzip 6) and keeps the result in a small in-memory cache, and a
 * background job replaces it with the smallest encoding (brotli 11 / gzip 9), one file at a time. Files
 * are hashed and immutable under /_astro/; elsewhere the cache key holds size and mtime, so a changed
 * file is compressed anew.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { appendVary, compressBuffer, isCompressibleType, MIN_COMPRESS_BYTES, negotiateEncoding, type ContentEncoding } from './compression';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

/** Answers the request from `root` when a file matches; false when the app should handle it. */
export async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const pathname = decodeSafe((req.url ?? '/').split('?')[0] ?? '/');
  if (!pathname || pathname.endsWith('/') || pathname.includes('\0')) return false;
  const ext = extname(pathname).toLowerCase();
  const type = TYPES[ext];
  if (!type) return false;
  const file = normalize(join(root, pathname));
  if (!file.startsWith(root.endsWith(sep) ? root : root + sep)) return false;
  let info;
  try {
    info = await stat(file);
  } catch {
    return false;
  }
  if (!info.isFile()) return false;
  const baseTag = `${info.size.toString(16)}-${info.mtimeMs.toString(16)}`;
  const compressible = isCompressibleType(type) && info.size >= MIN_COMPRESS_BYTES && info.size <= MAX_COMPRESS_FILE_BYTES;
  const encoding = compressible ? negotiateEncoding(req.headers['accept-encoding']) : null;
  let body: Buffer | undefined;
  if (encoding) {
    body = await compressedVariant(file, baseTag, encoding).catch(() => undefined);
    // An encoding that does not make the file smaller is not worth the client's decoding.
    if (body && body.length >= info.size) body = undefined;
  }
  const etag = body ? `W/"${baseTag}-${encoding}"` : `W/"${baseTag}"`;
  res.setHeader('content-type', type);
  res.setHeader('cache-control', pathname.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate');
  res.setHeader('etag', etag);
  res.setHeader('x-content-type-options', 'nosniff');
  if (compressible) appendVary(res, 'Accept-Encoding');
  if (matchesEtag(req.headers['if-none-match'], etag)) {
    res.statusCode = 304;
    res.end();
    return true;
  }
  if (body) res.setHeader('content-encoding', encoding!);
  res.setHeader('content-length', body ? body.length : info.size);
  if (req.method === 'HEAD') {
    res.end();
    return true;
  }
  if (body) {
    res.end(body);
    return true;
  }
  await new Promise<void>((resolve) => {
    const stream = createReadStream(file);
    stream.on('error', () => {
      res.destroy();
      resolve();
    });
    stream.on('end', resolve);
    stream.pipe(res);
  });
  return true;
}

/** Files above this size are sent as they are (nothing this large is expected among text assets). */
const MAX_COMPRESS_FILE_BYTES = 4 * 1024 * 1024;
/** The in-memory cache of compressed variants holds at most this many bytes (least recently used go). */
const CACHE_MAX_BYTES = 32 * 1024 * 1024;

interface CachedVariant {
  body: Promise<Buffer>;
  bytes: number;
}

const variants = new Map<string, CachedVariant>();
let cachedBytes = 0;
let bestQueue: Promise<unknown> = Promise.resolve();
/** Compressions still running (fast, then best), so a caller can wait until the cache has settled. */
const running = new Set<Promise<unknown>>();

/**
 * The compressed bytes of `file` in `encoding`: from the cache, else compressed now with the fast
 * settings (and queued for the best settings in the background).
 */
export function compressedVariant(file: string, tag: string, encoding: ContentEncoding): Promise<Buffer> {
  const key = `${file}\0${tag}\0${encoding}`;
  const hit = variants.get(key);
  if (hit) {
    variants.delete(key);
    variants.set(key, hit);
    return hit.body;
  }
  const source = readFile(file);
  const entry: CachedVariant = { body: source.then((raw) => compressBuffer(raw, encoding, 'fast')), bytes: 0 };
  variants.set(key, entry);
  const work = entry.body.then(
    (fast) => {
      if (variants.get(key) !== entry) return;
      resize(entry, fast.length);
      bestQueue = bestQueue
        .then(async () => {
          if (variants.get(key) !== entry) return;
          const best = await compressBuffer(await source, encoding, 'best');
          if (variants.get(key) !== entry || best.length >= fast.length) return;
          entry.body = Promise.resolve(best);
          resize(entry, best.length);
        })
        .catch(() => {});
      return bestQueue;
    },
    () => {
      if (variants.get(key) === entry) variants.delete(key);
    },
  );
  running.add(work);
  void work.finally(() => running.delete(work));
  return entry.body;
}

/** Resolves once every compression started so far (fast and the background best) has finished. */
export async function compressedVariantsSettled(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}

function resize(entry: CachedVariant, bytes: number): void {
  cachedBytes += bytes - entry.bytes;
  entry.bytes = bytes;
  for (const [key, oldest] of variants) {
    if (cachedBytes <= CACHE_MAX_BYTES || oldest === entry) break;
    variants.delete(key);
    cachedBytes -= oldest.bytes;
  }
}

/** Empties the cache of compressed variants (tests). */
export function clearCompressedVariants(): void {
  variants.clear();
  cachedBytes = 0;
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  // Weak comparison (RFC 9110 §8.8.3.2): W/ prefixes are ignored.
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}

function decodeSafe(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}
