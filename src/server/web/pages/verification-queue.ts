/**
 * /admin/verifications (VER-01; decision 088): the verification queue's forms (approve with the main
 * photo compared, or reject with a reason from the fixed list; one selfie at a time, each decision
 * audited and mailed to the member in their language) and what the page shows: the waiting selfies
 * oldest first with the pose asked and the member's photos, the outcome of the last decision, and
 * where the focus goes next.
 */
import { isVerificationRejectionReason } from '../../../shared/verification';
import type { StaffMember } from '../../staff/accounts';
import { decideVerification, verificationQueue, type VerificationDecision } from '../../staff/verification-admin';
import { waitingPhotoCount } from '../../staff/photos-admin';
import { parseId } from '../../../shared/ids';
import { invalid, redirect, type MultiActionSpec, type PostedForm } from '../form-action';
import type { RequestContext } from '../request-context';

type Ctx = Pick<RequestContext, 'app' | 't' | 'lang'>;

export const VERIFICATION_OUTCOMES = ['approved', 'rejected', 'skipped', 'main_photo_changed', 'not_allowed'] as const;
type Outcome = (typeof VERIFICATION_OUTCOMES)[number];

export function verificationQueueForms(ctx: Ctx, staff: StaffMember): MultiActionSpec<undefined, 'approve' | 'reject'> {
  const { app, t } = ctx;
  const decide = async (form: PostedForm, decision: VerificationDecision) => {
    const id = parseId(form.text('id'));
    if (id === null) return invalid(400, { formError: t('staff_verification:errors.none_selected') });
    const result = await decideVerification(app, staff, id, decision);
    const outcome: Outcome = result.type === 'done' ? (decision.type === 'approve' ? 'approved' : 'rejected') : result.type;
    return redirect(`/admin/verifications?outcome=${outcome}&after=${id}${result.type === 'done' && !result.mailed ? '&mail_failed=1' : ''}`);
  };
  return {
    field: 'action',
    actions: {
      approve: (form) => {
        const photoId = parseId(form.text('photo'));
        if (photoId === null) return invalid(400, { formError: t('staff_verification:errors.no_main_photo') });
        return decide(form, { type: 'approve', photoId });
      },
      reject: (form) => {
        const reason = form.text('reason');
        if (!isVerificationRejectionReason(reason)) return invalid(400, { formError: t('staff_photos:errors.reason_required') });
        return decide(form, { type: 'reject', reason });
      },
    },
    otherwise: () => invalid(400, { formError: t('errors:invalid_choice') }),
  };
}

export async function verificationQueueView(ctx: Ctx, url: URL) {
  const [queue, photosWaiting] = await Promise.all([verificationQueue(ctx.app.db), waitingPhotoCount(ctx.app.db)]);
  const given = url.searchParams.get('outcome');
  const outcome = (VERIFICATION_OUTCOMES as readonly string[]).includes(given ?? '') ? (given as Outcome) : null;
  const after = parseId(url.searchParams.get('after')) ?? 0;
  return {
    queue,
    photosWaiting,
    outcome,
    outcomeText: outcome ? ctx.t(`staff_verification:outcome.${outcome}`) : null,
    mailFailed: url.searchParams.get('mail_failed') === '1',
    time: new Intl.DateTimeFormat(ctx.lang, { dateStyle: 'short', timeStyle: 'short' }),
    selfie: (name: string) => `/admin/verifications/file/${name}`,
    photo: (name: string) => `/admin/photos/file/${name}`,
    focusIndex:
      outcome === null
        ? -1
        : Math.max(
            0,
            queue.selfies.findIndex((s) => s.id > after),
          ),
  };
}
