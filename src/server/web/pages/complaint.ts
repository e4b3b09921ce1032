/**
 * /admin/complaints/{id} (OPS-01): the forms of a complaint (set its status, add an internal note, answer
 * by mail; each audited, each back to the page with `?done=`) and what the page shows.
 */
import type { StaffMember } from '../../staff/accounts';
import { addComplaintNote, answerComplaint, complaintDetail, isComplaintStatus, setComplaintStatus } from '../../staff/complaints-admin';
import { invalid, redirect, type MultiActionSpec } from '../form-action';
import type { RequestContext } from '../request-context';

type Ctx = Pick<RequestContext, 'app' | 't' | 'lang'>;

export function complaintForms(ctx: Ctx, staff: StaffMember, id: number): MultiActionSpec<undefined, 'status' | 'note' | 'answer'> {
  const { app, t } = ctx;
  const here = `/admin/complaints/${id}`;
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
    },
    otherwise: () => invalid(400, { formError: t('errors:invalid_choice') }),
  };
}

/** The complaint with its notes, the time format and the notice of a done form; null when there is no such complaint. */
export async function complaintView(ctx: Ctx, id: number, url: URL) {
  const detail = await complaintDetail(ctx.app.db, id);
  if (!detail) return null;
  return {
    ...detail,
    time: new Intl.DateTimeFormat(ctx.lang, { dateStyle: 'short', timeStyle: 'short' }),
    done: ['status', 'note', 'answer'].find((d) => d === url.searchParams.get('done')),
  };
}
