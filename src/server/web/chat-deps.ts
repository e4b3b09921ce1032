/**
 * The chat service as the web layer uses it: the prices of the request's site and the JSON of
 * conversations (CHT-01). Refusals map to stable API error codes.
 */
import { ApiError } from './api';
import { mainImage } from './likes';
import type { Settings as SiteSettings } from '../../shared/settings';
import { type ChatPartner, type ChatSummary, type ConversationView } from '../chat/conversations';
import type { ChatPrices, SendRefusal } from '../chat/send';

export function pricesOf(settings: Pick<SiteSettings, 'message_credits' | 'photo_credits' | 'gift_credits' | 'message_length'>): ChatPrices {
  return { message_credits: settings.message_credits, photo_credits: settings.photo_credits, gift_credits: settings.gift_credits, message_length: settings.message_length };
}

export function partnerJson(prefix: string, p: ChatPartner) {
  return { id: p.id, name: p.name, fictional: p.fictional, confirmed: p.confirmed, main_image: mainImage(prefix, p) };
}

/** A conversation in `GET /api/chats.php` (CHT-01): its last message in `messages`. */
export function chatSummaryJson(prefix: string, c: ChatSummary) {
  return {
    id: c.id,
    profile: partnerJson(prefix, c.partner),
    num_unread_messages: c.unread,
    last_message_at: c.lastMessageAt?.toISOString() ?? null,
    messages: c.lastMessage
      ? [{ id: c.lastMessage.id, sender: c.lastMessage.senderId, kind: c.lastMessage.kind, body: c.lastMessage.body, created_at: c.lastMessage.createdAt.toISOString() }]
      : [],
  };
}

export function conversationJson(prefix: string, v: ConversationView) {
  return { id: v.id, profile: partnerJson(prefix, v.partner), num_unread_messages: v.unread, seen_through: v.seenThrough, started_by_me: v.startedByMe };
}

/** A send's refusal as the API's error. */
export function sendRefusal(reason: SendRefusal, extra?: { balance?: number; cost?: number }): ApiError {
  return new ApiError(reason === 'self_not_allowed' ? 'self_not_allowed' : reason, undefined, extra && extra.balance !== undefined ? { balance: extra.balance, cost: extra.cost } : undefined);
}
