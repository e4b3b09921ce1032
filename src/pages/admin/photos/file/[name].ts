/**
 * GET /admin/photos/file/{name} (OPS-01): a member photo's file for moderators and admins, whatever its
 * state and site — the queue shows photos nobody else may see yet (/photos/{name} serves a waiting photo
 * to its owner only, and only under its own site's host). Never cached outside the staff member's browser.
 */
import type { APIRoute } from 'astro';
import { requireStaff } from '../../../../server/web/staff-guard';
import { isMemberPhotoFile } from '../../../../server/staff/photos-admin';
import { PHOTO_NAME } from '../../../../server/photos/store';

const TYPES = { webp: 'image/webp', jpg: 'image/jpeg', png: 'image/png' } as const;
const notFound = () => new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });

export const GET: APIRoute = async (context) => {
  const staff = await requireStaff(context, ['moderator', 'admin']);
  if (staff instanceof Response) return staff;
  const name = context.params.name ?? '';
  if (!PHOTO_NAME.test(name) || !(await isMemberPhotoFile(context.locals.app.db, name))) return notFound();
  const file = await context.locals.app.photos.get(name);
  if (!file) return notFound();
  const ext = name.slice(name.lastIndexOf('.') + 1) as keyof typeof TYPES;
  return new Response(new Uint8Array(file.body), {
    headers: { 'content-type': TYPES[ext], 'content-length': String(file.size), 'cache-control': 'private, max-age=600', 'x-content-type-options': 'nosniff' },
  });
};
