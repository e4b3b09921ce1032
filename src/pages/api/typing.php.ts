/**
 * /api/typing.php (CHT-10): POST `{ conversation }` while the member types; the other member's stream
 * shows 'typing…' for a few seconds. Nothing is stored, and nothing is sent for a member who switched
 * read receipts and typing off.
 */
import { chatSignalsOf } from '../../server/accounts/preferences';
import { ApiError, endpoint, methodNotAllowed, readJson } from '../../server/web/api';
import { conversationFor } from '../../server/chat/conversations';
import { requireMember } from '../../server/web/request-context';
import { typingBody } from '../../shared/api/typing';

export const POST = endpoint(async ({ locals, request, url }) => {
  const user = requireMember(locals, url.pathname);
  const { conversation } = await readJson(request, typingBody);
  const view = await conversationFor(locals.app.db, { siteId: locals.site.settings.id, userId: user.id }, conversation);
  if (!view) throw new ApiError('conversation_not_found');
  if (await chatSignalsOf(locals.app, user.id)) await locals.app.bus.publish('chat.typing', { conversationId: view.id, typistId: user.id, otherId: view.partner.id });
  return new Response(null, { status: 204 });
});

export const ALL = methodNotAllowed;
