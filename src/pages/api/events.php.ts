/**
 * /api/events.php (CHT-08): the signed-in member's live stream, Server-Sent Events (src/server/chat/stream.ts).
 * `Last-Event-ID` (or `?last=` for a client that cannot set it) resumes after a reconnect. Not compressed,
 * never cached; a draining process refuses new streams (503) so the browser retries another.
 */
import { endpoint, errorResponse, methodNotAllowed } from '../../server/web/api';
import { openMemberStream, parseLastEventId } from '../../server/session/stream';
import { requireMember } from '../../server/web/request-context';

export const GET = endpoint(async (context) => {
  const { locals, request, url } = context;
  const user = requireMember(locals, url.pathname);
  if (locals.app.draining) return errorResponse(context, 'service_unavailable');
  const stream = openMemberStream({
    app: locals.app,
    member: { siteId: locals.site.settings.id, userId: user.id },
    lastEventId: parseLastEventId(request.headers.get('last-event-id') ?? url.searchParams.get('last')),
    signal: request.signal,
  });
  return new Response(stream, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      'x-accel-buffering': 'no',
    },
  });
});

export const ALL = methodNotAllowed;
