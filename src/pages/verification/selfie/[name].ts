/**
 * GET /verification/selfie/{name} (VER-01): the member's own verification selfie, to its owner only (a
 * signed-in member whose selfie it is), never cached anywhere (`no-store`). Anyone else gets 404, as if
 * it did not exist; moderators open it at /admin/verifications/file/{name}.
 */
import type { APIRoute } from 'astro';
import { isOwnSelfie } from '../../../server/photos/verification';
import { PHOTO_NAME, photoType } from '../../../server/photos/store';

const notFound = () => new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });

export const GET: APIRoute = async ({ params, locals }) => {
  const name = params.name ?? '';
  if (!locals.user || !PHOTO_NAME.test(name) || !(await isOwnSelfie(locals.app.db, locals.user.id, name))) return notFound();
  const file = await locals.app.photos.get(name);
  if (!file) return notFound();
  return new Response(new Uint8Array(file.body), {
    headers: { 'content-type': photoType(name), 'content-length': String(file.size), 'cache-control': 'private, no-store', 'x-content-type-options': 'nosniff' },
  });
};
