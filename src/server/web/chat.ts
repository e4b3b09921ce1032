/**
 * The chat on the web (CHT-01..11): the prices of the request's site, the JSON of conversations, the
 * refusals as stable API error codes, and the chat screen's composer as a server form (decision 023)
 * for browsers without JavaScript: the page renders a client id into the form, so sending the same form twice (a reload, a
 * double click) is the same message, charged once. Refusals render the screen again with their text;
 * 'not enough credits' with the way to /credits.
 */
import { servicesFor } from './services';
import { signupMessageAnswered } from '../chat/signup-message';
import { sendMessage } from '../chat/send';
import type { RequestContext } from './request-context';
import { invalid, redirect, type SingleActionSpec } from './form-action';
import { ApiError } from './api';
import { mainImage } from './likes';
import type { Settings as SiteSettings } from '../../shared/settings';
import { type ChatPartner, type ChatSummary, type ConversationView } from '../chat/conversations';
import type { ChatPrices, SendRefusal } from '../chat/send';

const REFUSAL_STATUS: Record<string, number> = {
  member_not_found: 404,
  insufficient_credits: 402,
  conversation_limit: 403,
  verification_required: 403,
  recipient_unconfirmed: 409,
  client_id_reused: 409,
};

export function chatForm(ctx: Pick<RequestContext, 'app' | 't' | 'user' | 'site' | 'log' | 'linkOrigin' | 'responseDone'>, partnerId: number): SingleActionSpec<{ body: string }> {
  return {
    handle: async (form) => {
      const { user, t } = ctx;
      if (!user) return redirect(`/signup?required=chat&member=${partnerId}`);
      const body = form.text('body');
      const result = await sendMessage(await servicesFor(ctx), { siteId: ctx.site.settings.id, userId: user.id, paidUser: user.paid_user }, pricesOf(ctx.site.settings), {
        to: partnerId,
        clientId: form.text('client_id'),
        kind: 'text',
        body,
      });
      if (result.type === 'sent') {
        await signupMessageAnswered(ctx.app.db, user.id, partnerId);
        return redirect(`/chats/${result.message.conversationId}`);
      }
      return invalid(REFUSAL_STATUS[result.reason] ?? 400, { formError: t(`errors:${result.reason}`), reason: result.reason, data: { body } });
    },
  };
}

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
    messages: c.lastMessage ? [{ id: c.lastMessage.id, sender: c.lastMessage.senderId, kind: c.lastMessage.kind, body: c.lastMessage.body, created_at: c.lastMessage.createdAt.toISOString() }] : [],
  };
}

export function conversationJson(prefix: string, v: ConversationView) {
  return { id: v.id, profile: partnerJson(prefix, v.partner), num_unread_messages: v.unread, seen_through: v.seenThrough, started_by_me: v.startedByMe };
}

/** A send's refusal as the API's error. */
export function sendRefusal(reason: SendRefusal, extra?: { balance?: number; cost?: number }): ApiError {
  return new ApiError(reason === 'self_not_allowed' ? 'self_not_allowed' : reason, undefined, extra && extra.balance !== undefined ? { balance: extra.balance, cost: extra.cost } : undefined);
}
