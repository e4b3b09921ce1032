/**
 * Serves the built client assets (dist/client). Hashed files under /_astro/ are immutable for a year;
 * other public files (icons, service worker, robots) are revalidated. Compressed variants are not
 * prebuilt: a CDN or the proxy in front compresses.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

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
  const etag = `W/"${info.size.toString(16)}-${info.mtimeMs.toString(16)}"`;
  res.setHeader('content-type', type);
  res.setHeader('cache-control', pathname.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate');
  res.setHeader('etag', etag);
  res.setHeader('x-content-type-options', 'nosniff');
  if (req.headers['if-none-match'] === etag) {
    res.statusCode = 304;
    res.end();
    return true;
  }
  res.setHeader('content-length', info.size);
  if (req.method === 'HEAD') {
    res.end();
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

function decodeSafe(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}
