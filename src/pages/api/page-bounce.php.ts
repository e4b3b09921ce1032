/** POST /api/page-bounce.php (CLI-05): a visitor who arrived with `lb` left without going further. */
import { z } from 'zod';
import { recordPageEvent } from '../../server/landers/page-events';
import { endpoint, methodNotAllowed, readJson } from '../../server/web/api';

const bounce = z.object({
  path: z.string().startsWith('/').max(500),
  duration_ms: z.number().int().min(0).max(86_400_000),
});

export const POST = endpoint(async ({ locals, request }) => {
  const input = await readJson(request, bounce);
  await recordPageEvent(locals.app.db, { siteId: locals.site.settings.id, userId: locals.user?.id ?? null }, { kind: 'bounce', path: input.path, durationMs: input.duration_ms });
  return new Response(null, { status: 204 });
});

export const ALL = methodNotAllowed;
