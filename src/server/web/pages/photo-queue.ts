/**
 * /admin/photos (OPS-01, PHO-02; decision 043): the queue's forms (approve, or reject with a reason from
 * the fixed list; one photo or several checked at once; each decision audited) and what the page shows:
 * the waiting photos oldest first, the counts of the last decision, and which photo gets the focus next
 * (the one after the decided one in the queue, else the first).
 */
import { isRejectionReason } from '../../photos/manage';
import type { StaffMember } from '../../staff/accounts';
import { moderatePhotos, photoQueue, type Decision } from '../../staff/photos-admin';
import { parseId } from '../../../shared/ids';
import { invalid, redirect, type MultiActionSpec, type PostedForm } from '../form-action';
import type { RequestContext } from '../request-context';

type Ctx = Pick<RequestContext, 'app' | 't' | 'lang'>;

export function photoQueueForms(ctx: Ctx, staff: StaffMember): MultiActionSpec<undefined, 'approve' | 'reject'> {
  const { app, t } = ctx;
  const decide = async (form: PostedForm, decision: Decision) => {
    const ids = form
      .all('ids')
      .map(parseId)
      .filter((id) => id !== null);
    if (ids.length === 0) return invalid(400, { formError: t('staff_photos:errors.none_selected') });
    const result = await moderatePhotos(app, staff, ids, decision);
    return redirect(`/admin/photos?done=${result.done.length}&skipped=${result.skipped.length}&mail_failed=${result.mailFailed.length}&after=${Math.max(...ids)}`);
  };
  return {
    field: 'action',
    actions: {
      approve: (form) => decide(form, { type: 'approve' }),
      reject: (form) => {
        const reason = form.text('reason');
        if (!isRejectionReason(reason)) return invalid(400, { formError: t('staff_photos:errors.reason_required') });
        return decide(form, { type: 'reject', reason });
      },
    },
    otherwise: () => invalid(400, { formError: t('errors:invalid_choice') }),
  };
}

export async function photoQueueView(ctx: Ctx, url: URL) {
  const queue = await photoQueue(ctx.app.db);
  const count = (name: string) => (/^\d{1,4}$/.test(url.searchParams.get(name) ?? '') ? Number(url.searchParams.get(name)) : null);
  const done = count('done');
  const after = parseId(url.searchParams.get('after')) ?? 0;
  return {
    queue,
    time: new Intl.DateTimeFormat(ctx.lang, { dateStyle: 'short', timeStyle: 'short' }),
    done,
    skipped: count('skipped') ?? 0,
    mailFailed: count('mail_failed') ?? 0,
    file: (name: string) => `/admin/photos/file/${name}`,
    focusIndex:
      done === null
        ? -1
        : Math.max(
            0,
            queue.photos.findIndex((p) => p.id > after),
          ),
  };
}
