/** POST /api/page-hidden.php (CLI-06): the beacon a page sends when it becomes hidden (empty JSON body). */
import { pageEvents } from '../../db/schema';
import { endpoint, methodNotAllowed, readJson } from '../../server/http/api';
import { pageHiddenBody } from '../../shared/api/page-events';

export const POST = endpoint(async ({ locals, request }) => {
  await readJson(request, pageHiddenBody);
  const referer = request.headers.get('referer');
  const path = referer ? safePath(referer) : '';
  await locals.app.db.insert(pageEvents).values({ siteId: locals.site.settings.id, userId: locals.user?.id ?? null, kind: 'hidden', path });
  return new Response(null, { status: 204 });
});

function safePath(referer: string): string {
  try {
    return new URL(referer).pathname.slice(0, 500);
  } catch {
    return '';
  }
}

export const ALL = methodNotAllowed;
