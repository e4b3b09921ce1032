/** POST /api/page-hidden.php (CLI-06): the beacon a page sends when it becomes hidden (empty JSON body). */
import { recordPageEvent, refererPath } from '../../server/landers/page-events';
import { endpoint, methodNotAllowed, readJson } from '../../server/web/api';
import { pageHiddenBody } from '../../shared/api/page-events';

export const POST = endpoint(async ({ locals, request }) => {
  await readJson(request, pageHiddenBody);
  const path = refererPath(request.headers.get('referer'));
  await recordPageEvent(locals.app.db, { siteId: locals.site.settings.id, userId: locals.user?.id ?? null }, { kind: 'hidden', path });
  return new Response(null, { status: 204 });
});

export const ALL = methodNotAllowed;
