/** GET /photos/{name}: stored images, each checked against its photo row, the site and the viewer (MEM-04, SEC-07). */
import type { APIRoute } from 'astro';
import { photoAccess } from '../../server/photos/access';
import { PHOTO_NAME } from '../../server/photos/store';

const TYPES = { webp: 'image/webp', jpg: 'image/jpeg', png: 'image/png' } as const;
const notFound = () => new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });

export const GET: APIRoute = async ({ params, locals }) => {
  const name = params.name ?? '';
  if (!PHOTO_NAME.test(name)) return notFound();
  const access = await photoAccess(locals.app.db, name, locals.site.settings.id, locals.user);
  if (access.type === 'denied') return notFound();
  const file = await locals.app.photos.get(name);
  if (!file) return notFound();
  const ext = name.slice(name.lastIndexOf('.') + 1) as keyof typeof TYPES;
  return new Response(new Uint8Array(file.body), {
    headers: {
      'content-type': TYPES[ext],
      'content-length': String(file.size),
      // File names are never reused, so a public file can be cached for a year.
      'cache-control': access.type === 'public' ? 'public, max-age=31536000, immutable' : 'private, max-age=3600',
      'x-content-type-options': 'nosniff',
    },
  });
};
