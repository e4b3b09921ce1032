/** POST /api/page-bounce.php (CLI-05): a visitor who arrived with `lb` left without going further. */
import { recordPageEvent } from '../../server/landers/page-events';
import { endpoint, methodNotAllowed, readJson } from '../../server/web/api';
import { pageBounceBody } from '../../shared/api/page-events';

export const POST = endpoint(async ({ locals, request }) => {
  const input = await readJson(request, pageBounceBody);
  await recordPageEvent(locals.app.db, { siteId: locals.site.settings.id, userId: locals.user?.id ?? null }, { kind: 'bounce', path: input.path, durationMs: input.duration_ms });
  return new Response(null, { status: 204 });
});

export const ALL = methodNotAllowed;
