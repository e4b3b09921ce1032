/**
 * The chat screen's composer as a server form (CHT-05, CHT-11; decision 023), for browsers without
 * JavaScript: the page renders a client id into the form, so sending the same form twice (a reload, a
 * double click) is the same message, charged once. Refusals render the screen again with their text;
 * 'not enough credits' with the way to /credits.
 */
import { servicesFor } from '../services';
import { signupMessageAnswered } from '../../chat/signup-message';
import { pricesOf } from '../chat-deps';
import { sendMessage } from '../../chat/send';
import type { RequestContext } from '../request-context';
import { invalid, redirect, type SingleActionSpec } from '../form-action';

const REFUSAL_STATUS: Record<string, number> = {
  member_not_found: 404,
  insufficient_credits: 402,
  conversation_limit: 403,
  recipient_unconfirmed: 409,
  client_id_reused: 409,
};

export function chatForm(ctx: Pick<RequestContext, 'app' | 't' | 'user' | 'site' | 'log' | 'linkOrigin' | 'responseDone'>, partnerId: number): SingleActionSpec<{ body: string }> {
  return {
    handle: async (form) => {
      const { user, t } = ctx;
      if (!user) return redirect(`/signup?required=chat&member=${partnerId}`);
      const body = form.text('body');
      const result = await sendMessage(
        await servicesFor(ctx),
        { siteId: ctx.site.settings.id, userId: user.id, paidUser: user.paid_user },
        pricesOf(ctx.site.settings),
        { to: partnerId, clientId: form.text('client_id'), kind: 'text', body },
      );
      if (result.type === 'sent') {
        await signupMessageAnswered(ctx.app.db, user.id, partnerId);
        return redirect(`/chats/${result.message.conversationId}`);
      }
      return invalid(REFUSAL_STATUS[result.reason] ?? 400, { formError: t(`errors:${result.reason}`), reason: result.reason, data: { body } });
    },
  };
}
