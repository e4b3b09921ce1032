/**
 * /api/chats.php (CHT-01): GET the signed-in member's conversations, newest first — each with the other
 * member's profile, its last message in `messages` and `num_unread_messages` — and `unread_total`, the
 * navigation badge's number (conversations blocked either way or removed by the member are left out).
 */
import { endpoint, json, methodNotAllowed } from '../../server/web/api';
import { listChats, unreadTotal } from '../../server/chat/conversations';
import { chatSummaryJson } from '../../server/web/chat';
import { requireMember } from '../../server/web/request-context';
import type { Answer } from '../../shared/api/contract';

export const GET = endpoint(async ({ locals, url }) => {
  const user = requireMember(locals, url.pathname);
  const member = { siteId: locals.site.settings.id, userId: user.id };
  const [chats, unread] = await Promise.all([listChats(locals.app.db, member), unreadTotal(locals.app.db, member)]);
  const prefix = locals.site.settings.cdn_prefix;
  return json({ chats: chats.map((c) => chatSummaryJson(prefix, c)), unread_total: unread } satisfies Answer<'getChats', 200>);
});

export const ALL = methodNotAllowed;
