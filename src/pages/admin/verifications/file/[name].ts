/**
 * GET /admin/verifications/file/{name} (VER-01): a verification selfie for moderators and admins, never
 * cached (`no-store`): the selfie is kept only until 30 days after the decision.
 */
import type { APIRoute } from 'astro';
import { requireStaff } from '../../../../server/web/staff-guard';
import { isSelfieFile } from '../../../../server/staff/verification-admin';
import { PHOTO_NAME, photoType } from '../../../../server/photos/store';

const notFound = () => new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });

export const GET: APIRoute = async (context) => {
  const staff = await requireStaff(context, ['moderator', 'admin']);
  if (staff instanceof Response) return staff;
  const name = context.params.name ?? '';
  if (!PHOTO_NAME.test(name) || !(await isSelfieFile(context.locals.app.db, name))) return notFound();
  const file = await context.locals.app.photos.get(name);
  if (!file) return notFound();
  return new Response(new Uint8Array(file.body), {
    headers: { 'content-type': photoType(name), 'content-length': String(file.size), 'cache-control': 'private, no-store', 'x-content-type-options': 'nosniff' },
  });
};
