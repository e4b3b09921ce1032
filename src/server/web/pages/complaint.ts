/**
 * /admin/complaints/{id} (OPS-01): the forms of a complaint (set its status, add an internal note, answer
 * by mail; each audited, each back to the page with `?done=`) and what the page shows. A member's report
 * (SAFE-01) adds what the moderator can do to the reported member from here: warn, ban, remove photos.
 */
import type { StaffMember } from '../../staff/accounts';
import { addComplaintNote, answerComplaint, complaintDetail, isComplaintStatus, reportedMemberOf, setComplaintStatus } from '../../staff/complaints-admin';
import { banMember } from '../../staff/members';
import { removeMemberPhotos, warnMember } from '../../staff/moderation';
import { invalid, redirect, type MultiActionSpec } from '../form-action';
import type { RequestContext } from '../request-context';

type Ctx = Pick<RequestContext, 'app' | 't' | 'lang'>;

export const COMPLAINT_DONE = ['status', 'note', 'answer', 'warn', 'ban', 'remove_photos'] as const;

export function complaintForms(ctx: Ctx, staff: StaffMember, id: number): MultiActionSpec<undefined, (typeof COMPLAINT_DONE)[number]> {
  const { app, t } = ctx;
  const here = `/admin/complaints/${id}`;
  /** The member a report names, or null (a form complaint, or no such complaint). */
  const reported = () => reportedMemberOf(app.db, id);
  const noReport = () => invalid(404, { formError: t('staff_safety:error_not_a_report') });
  return {
    field: 'action',
    actions: {
      status: async (form) => {
        const status = form.text('status');
        if (!isComplaintStatus(status)) return invalid(400, { formError: t('errors:invalid_choice') });
        return (await setComplaintStatus(app, staff, id, status)) ? redirect(`${here}?done=status`) : invalid(404, { formError: t('errors:not_found_api') });
      },
      note: async (form) => {
        const result = await addComplaintNote(app, staff, id, form.text('text'));
        return result === 'ok' ? redirect(`${here}?done=note`) : invalid(result === 'empty' ? 400 : 404, { formError: t(`staff:complaint_error_${result}`) });
      },
      answer: async (form) => {
        const result = await answerComplaint(app, staff, id, form.text('text'));
        return result === 'ok' ? redirect(`${here}?done=answer`) : invalid(result === 'empty' ? 400 : result === 'not_found' ? 404 : 502, { formError: t(`staff:complaint_error_${result}`) });
      },
      // SAFE-01: acting on the reported member (each audited by its service, each noted on this complaint).
      warn: async () => {
        const member = await reported();
        if (member === null) return noReport();
        const result = await warnMember(app, staff, member, id);
        return result === 'ok' ? redirect(`${here}?done=warn`) : invalid(result === 'not_found' ? 404 : 502, { formError: t(`staff_safety:error_warn_${result}`) });
      },
      ban: async (form) => {
        const member = await reported();
        if (member === null) return noReport();
        const result = await banMember(app, staff, member, form.text('reason'));
        if (result.type !== 'ok') return invalid(400, { formError: t(`staff:error_${result.reason}`) });
        await addComplaintNote(app, staff, id, `banned member #${member}: ${form.text('reason').trim().slice(0, 500)}`);
        return redirect(`${here}?done=ban`);
      },
      remove_photos: async () => {
        const member = await reported();
        if (member === null) return noReport();
        await removeMemberPhotos(app, staff, member, id);
        return redirect(`${here}?done=remove_photos`);
      },
    },
    otherwise: () => invalid(400, { formError: t('errors:invalid_choice') }),
  };
}

/** The complaint with its notes, the time format and the notice of a done form; null when there is no such complaint. */
export async function complaintView(ctx: Ctx, id: number, url: URL) {
  const detail = await complaintDetail(ctx.app.db, id, ctx.app.clock.now());
  if (!detail) return null;
  return {
    ...detail,
    time: new Intl.DateTimeFormat(ctx.lang, { dateStyle: 'short', timeStyle: 'short' }),
    done: COMPLAINT_DONE.find((d) => d === url.searchParams.get('done')),
  };
}
