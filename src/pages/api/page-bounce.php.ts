/** POST /api/page-bounce.php (CLI-05): a visitor who arrived with `lb` left without going further. */
import { z } from 'zod';
import { pageEvents } from '../../db/schema';
import { endpoint, methodNotAllowed, readJson } from '../../server/web/api';

const bounce = z.object({
  path: z.string().startsWith('/').max(500),
  duration_ms: z.number().int().min(0).max(86_400_000),
});

export const POST = endpoint(async ({ locals, request }) => {
  const input = await readJson(request, bounce);
  await locals.app.db.insert(pageEvents).values({
    siteId: locals.site.settings.id,
    userId: locals.user?.id ?? null,
    kind: 'bounce',
    path: input.path,
    durationMs: input.duration_ms,
  });
  return new Response(null, { status: 204 });
});

export const ALL = methodNotAllowed;
