/**
 * /api/chat.php, one conversation (CHT-02, CHT-03, CHT-05, CHT-06, CHT-11, GFT-01):
 * - GET `?id=` (or `?member=` for the conversation with a member) and `before=` a message id: the
 *   conversation and a page of its messages, oldest first, with `more` when older ones exist.
 * - POST `{ to, client_id, kind, body, attachment }` sends a message; a retry with the same `client_id`
 *   answers the first message, charged once (200 instead of 201).
 * - PUT `{ conversation }` marks it read: unread 0 and 'seen' for the other side (CHT-03, CHT-10).
 * - DELETE `{ conversation }` or `{ profile }` removes it (or every conversation with that member) from
 *   the member's list; the other side keeps the history (CHT-06).
 * Another member's conversation, a blocked one or an unknown id are all `conversation_not_found` (404).
 */
import { servicesFor } from '../../server/web/services';
import { ApiError, endpoint, json, methodNotAllowed, readJson, readQuery } from '../../server/web/api';
import { conversationFor, conversationWith, history, markRead, removeChats } from '../../server/chat/conversations';
import { conversationJson, pricesOf, sendRefusal } from '../../server/web/chat';
import { sendMessage } from '../../server/chat/send';
import { messageJson } from '../../server/session/stream';
import { resolveAttachment } from '../../server/chat/attachments';
import { requireMember } from '../../server/web/request-context';
import {
  conversationQuery,
  readConversationBody,
  removeChatBody,
  sendMessageBody,
  type ConversationAnswer,
  type ReadConversationAnswer,
  type RemoveChatAnswer,
  type SentMessageAnswer,
} from '../../shared/api/chat';

export const GET = endpoint(async ({ locals, url }) => {
  const user = requireMember(locals, url.pathname);
  const q = readQuery(url, conversationQuery);
  const member = { siteId: locals.site.settings.id, userId: user.id };
  const view = 'id' in q ? await conversationFor(locals.app.db, member, q.id) : await conversationWith(locals.app.db, member, q.member);
  if (!view) throw new ApiError('conversation_not_found');
  const page = await history(locals.app.db, view, q.before === undefined ? {} : { before: q.before });
  return json({ conversation: conversationJson(locals.site.settings.cdn_prefix, view), messages: page.messages.map((m) => messageJson(m, user.id)), more: page.more } satisfies ConversationAnswer);
});

export const POST = endpoint(async ({ locals, request, url }) => {
  const user = requireMember(locals, url.pathname);
  const input = await readJson(request, sendMessageBody);
  // A gift must be one of the catalogue; a gif is looked up at its provider and stored with its URL.
  const attachment = await resolveAttachment(locals.app.config, input.kind, input.attachment ?? null);
  if (attachment.type === 'invalid') throw new ApiError('validation_failed', { attachment: 'invalid_choice' });
  const result = await sendMessage(await servicesFor(locals), { siteId: locals.site.settings.id, userId: user.id, paidUser: user.paid_user }, pricesOf(locals.site.settings), {
    to: input.to,
    clientId: input.client_id,
    kind: input.kind,
    body: input.body,
    attachment: attachment.value,
  });
  if (result.type === 'refused') throw sendRefusal(result.reason, result);
  return json({ message: messageJson(result.message, user.id), balance: result.balance, replayed: result.replayed } satisfies SentMessageAnswer, { status: result.replayed ? 200 : 201 });
});

export const PUT = endpoint(async ({ locals, request, url }) => {
  const user = requireMember(locals, url.pathname);
  const { conversation } = await readJson(request, readConversationBody);
  const member = { siteId: locals.site.settings.id, userId: user.id };
  const view = await conversationFor(locals.app.db, member, conversation);
  if (!view) throw new ApiError('conversation_not_found');
  const read = await markRead(locals.app, member, view);
  return json({ ok: true, conversation, read_through: read.through, changed: read.changed } satisfies ReadConversationAnswer);
});

export const DELETE = endpoint(async ({ locals, request, url }) => {
  const user = requireMember(locals, url.pathname);
  const which = await readJson(request, removeChatBody);
  const member = { siteId: locals.site.settings.id, userId: user.id };
  const removed = await removeChats(locals.app, member, 'conversation' in which ? { conversationId: which.conversation } : { profileId: which.profile });
  if (removed.length === 0 && 'conversation' in which) throw new ApiError('conversation_not_found');
  return json({ ok: true, removed } satisfies RemoveChatAnswer);
});

export const ALL = methodNotAllowed;
