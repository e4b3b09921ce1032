/**
 * GET /photos/{name}: stored images, each checked against its photo row, the site and the viewer (MEM-04, SEC-07).
 * Served through the app from either store (the local folder or the S3 bucket, decision 082), with an
 * ETag and Last-Modified so a browser (or a CDN, for public photos) asks again with a conditional request
 * and gets a 304 — after the same access checks — instead of the bytes.
 */
import type { APIRoute } from 'astro';
import { photoAccess } from '../../server/photos/access';
import { PHOTO_NAME, photoType } from '../../server/photos/store';

const notFound = () => new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });

export const GET: APIRoute = async ({ params, locals, request }) => {
  const name = params.name ?? '';
  if (!PHOTO_NAME.test(name)) return notFound();
  const access = await photoAccess(locals.app.db, name, locals.site.settings.id, locals.user);
  if (access.type === 'denied') return notFound();
  const file = await locals.app.photos.get(name);
  if (!file) return notFound();
  // File names are never reused, so size and time of writing tell versions apart (a blurred copy is a new name).
  const etag = `"${file.size.toString(36)}-${file.modified.getTime().toString(36)}"`;
  const headers = {
    etag,
    'last-modified': file.modified.toUTCString(),
    // A public file can be cached for a year; a private one (premium, waiting for review) by the browser only.
    'cache-control': access.type === 'public' ? 'public, max-age=31536000, immutable' : 'private, max-age=3600',
    'x-content-type-options': 'nosniff',
  };
  if (notModified(request.headers, etag, file.modified)) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(file.body), { headers: { ...headers, 'content-type': photoType(name), 'content-length': String(file.size) } });
};

/** RFC 9110 §13.1: If-None-Match wins over If-Modified-Since. */
function notModified(headers: Headers, etag: string, modified: Date): boolean {
  const match = headers.get('if-none-match');
  if (match !== null) return match.split(',').some((tag) => tag.trim() === etag || tag.trim() === `W/${etag}` || tag.trim() === '*');
  const since = Date.parse(headers.get('if-modified-since') ?? '');
  return Number.isFinite(since) && Math.floor(modified.getTime() / 1000) * 1000 <= since;
}
