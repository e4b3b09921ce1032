/**
 * /admin/operator/{id} (OPS-02, OPS-05): the forms of one conversation between a member and a fictional
 * profile (take it, release it, reply as the profile, send the site's disclosure, add a note; each
 * audited) and what the page shows: the history beside both sides' facts and shared notes, the lock,
 * and a reply kept when a flagged phrase asks for confirmation.
 */
import { randomUUID } from 'node:crypto';
import { CLIENT_ID } from '../../chat/send';
import type { StaffMember } from '../../staff/accounts';
import { addOperatorNote, conversationHistory, disclosureFor, notesAbout, operatorConversation, releaseConversation, replyAsFictional, takeConversation } from '../../staff/operator';
import { invalid, redirect, type MultiActionSpec, type RefusedPost } from '../form-action';
import type { RequestContext } from '../request-context';
import { servicesFor } from '../services';

type Ctx = Pick<RequestContext, 'app' | 't' | 'lang' | 'log' | 'linkOrigin' | 'responseDone'>;
/** A reply the form keeps to show again (a flagged phrase asks for confirmation). */
type KeptReply = { text: string; clientId: string };
type Conversation = NonNullable<Awaited<ReturnType<typeof operatorConversation>>>;

export function operatorConversationForms(ctx: Ctx, staff: StaffMember, id: number, found: Conversation): MultiActionSpec<KeptReply, 'take' | 'release' | 'reply' | 'disclose' | 'note'> {
  const { app, t } = ctx;
  const here = `/admin/operator/${id}`;
  const replyDeps = async () => ({ ...app, chat: await servicesFor(ctx), flagged: app.config.operatorFlaggedPhrases });
  const replyError = (reason: string) => t(`staff_operator:error_${reason}`, { defaultValue: t('staff_operator:error_refused') });
  return {
    field: 'action',
    actions: {
      take: async () => {
        const taken = await takeConversation(app, staff, id);
        if (taken.type === 'taken') return redirect(`${here}?done=take`);
        if (taken.type === 'locked') return invalid(409, { formError: t('staff_operator:error_locked', { name: taken.by }), reason: 'locked' });
        return invalid(404, { formError: t('staff_operator:error_not_found') });
      },
      release: async () =>
        (await releaseConversation(app, staff, id)) ? redirect('/admin/operator?done=release') : invalid(409, { formError: t('staff_operator:error_not_locked'), reason: 'not_locked' }),
      reply: async (form) => {
        const text = form.text('text');
        const clientId = form.text('client_id');
        if (!CLIENT_ID.test(clientId)) return invalid(400, { formError: t('staff_operator:error_refused') });
        const result = await replyAsFictional(await replyDeps(), staff, id, { text, clientId, confirmFlagged: form.text('confirm') === '1' });
        if (result.type === 'sent') return redirect('/admin/operator?done=reply');
        if (result.type === 'flagged') return invalid(422, { formError: t('staff_operator:flagged', { phrases: result.phrases.join(', ') }), reason: 'flagged', data: { text, clientId } });
        const status = result.type === 'not_locked' ? 409 : result.type === 'not_found' ? 404 : 400;
        return invalid(status, { formError: replyError(result.type === 'refused' ? result.reason : result.type), reason: result.type, data: { text, clientId } });
      },
      disclose: async (form) => {
        const clientId = form.text('client_id');
        if (!CLIENT_ID.test(clientId)) return invalid(400, { formError: t('staff_operator:error_refused') });
        const result = await replyAsFictional(await replyDeps(), staff, id, { text: await disclosureFor(app, found), clientId, disclosure: true });
        if (result.type === 'sent') return redirect(`${here}?done=disclose`);
        return invalid(result.type === 'not_locked' ? 409 : 400, { formError: replyError(result.type === 'refused' ? result.reason : result.type), reason: result.type });
      },
      note: async (form) => {
        const about = form.text('about') === 'fictional' ? 'fictional' : 'member';
        const result = await addOperatorNote(app, staff, id, about, form.text('text'));
        return result === 'ok'
          ? redirect(`${here}?done=note#notes-${about}`)
          : invalid(result === 'empty' ? 400 : 404, { formError: t(`staff_operator:error_${result === 'empty' ? 'empty' : 'not_found'}`) });
      },
    },
    otherwise: () => invalid(400, { formError: t('errors:invalid_choice') }),
  };
}

/** What the page shows after its forms had their say; null when the conversation is gone (the member's account erased meanwhile). */
export async function operatorConversationView(ctx: Ctx, staff: StaffMember, id: number, url: URL, posted: RefusedPost<KeptReply> | null) {
  const { app, t, lang } = ctx;
  const conversation = await operatorConversation(app.db, id, app.clock.now());
  if (!conversation) return null;
  const [history, memberNotes, fictionalNotes, disclosure] = await Promise.all([
    conversationHistory(app.db, id),
    notesAbout(app.db, conversation.member.id),
    notesAbout(app.db, conversation.fictional.id),
    disclosureFor(app, conversation),
  ]);
  const kept = posted?.result.data;
  const flagged = posted?.result.reason === 'flagged';
  return {
    conversation,
    mine: conversation.lock?.staffId === staff.id,
    history,
    disclosure,
    time: new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'short' }),
    clock: new Intl.DateTimeFormat(lang, { timeStyle: 'short' }),
    done: ['take', 'disclose', 'note'].find((d) => d === url.searchParams.get('done')),
    kept,
    flagged,
    clientId: flagged && kept?.clientId ? kept.clientId : randomUUID(),
    sides: [
      { key: 'fictional', person: conversation.fictional, notes: fictionalNotes, title: t('staff_operator:fictional_facts') },
      { key: 'member', person: conversation.member, notes: memberNotes, title: t('staff_operator:member_facts') },
    ] as const,
  };
}
