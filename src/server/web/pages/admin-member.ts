/**
 * /admin/members/{id} (OPS-01): what staff may do to one member, as server forms, each audited — ban or
 * unban (moderators and admins); grant or take credits with a reason, block or lift direct debit (DD-03)
 * and refund a payment within the site's refund_days (admins) — and what the page shows: the account,
 * profile, payments, ledger, complaints, bans and the direct-debit state.
 */
import { audit } from '../../audit';
import { refundPayment } from '../../payments/service';
import type { StaffMember } from '../../staff/accounts';
import { blockMemberDirectDebit, liftMemberDirectDebit, memberDirectDebit } from '../../staff/directdebit-admin';
import { adjustCredits, banMember, memberDetail, unbanMember } from '../../staff/members';
import { parseId } from '../../../shared/ids';
import { invalid, redirect, type MultiActionSpec } from '../form-action';
import type { RequestContext } from '../request-context';
import { servicesFor } from '../services';

type Ctx = Pick<RequestContext, 'app' | 't' | 'lang' | 'log' | 'linkOrigin' | 'responseDone'>;

export function adminMemberForms(ctx: Ctx, staff: StaffMember, id: number): MultiActionSpec<undefined, 'ban' | 'unban' | 'credits' | 'dd_block' | 'dd_unblock' | 'refund'> {
  const { app, t } = ctx;
  const here = `/admin/members/${id}`;
  const adminOnly = () => invalid(403, { formError: t('staff:admins_only') });
  return {
    field: 'action',
    actions: {
      ban: async (form) => {
        const result = await banMember(app, staff, id, form.text('reason'));
        return result.type === 'ok' ? redirect(`${here}?done=ban`) : invalid(400, { formError: t(`staff:error_${result.reason}`) });
      },
      unban: async () => {
        const result = await unbanMember(app, staff, id);
        return result.type === 'ok' ? redirect(`${here}?done=unban`) : invalid(400, { formError: t(`staff:error_${result.reason}`) });
      },
      credits: async (form) => {
        if (staff.role !== 'admin') return adminOnly();
        const amount = /^-?\d{1,6}$/.test(form.text('amount').trim()) ? Number(form.text('amount').trim()) : NaN;
        const result = await adjustCredits(app, staff, id, { amount, reason: form.text('reason'), key: form.text('key') });
        return result.type === 'ok' ? redirect(`${here}?done=credits`) : invalid(400, { formError: t(`staff:error_${result.reason}`) });
      },
      // DD-03: the member's direct-debit block, by admins, audited.
      dd_block: async (form) => {
        if (staff.role !== 'admin') return adminOnly();
        const result = await blockMemberDirectDebit(app, staff, id, form.text('reason'));
        return result.type === 'ok' ? redirect(`${here}?done=dd_block`) : invalid(400, { formError: t(`staff_dd:error_${result.reason}`) });
      },
      dd_unblock: async () => {
        if (staff.role !== 'admin') return adminOnly();
        const result = await liftMemberDirectDebit(app, staff, id);
        return result.type === 'ok' ? redirect(`${here}?done=dd_unblock`) : invalid(400, { formError: t(`staff_dd:error_${result.reason}`) });
      },
      refund: async (form) => {
        if (staff.role !== 'admin') return adminOnly();
        const paymentId = parseId(form.text('payment'));
        if (paymentId === null) return invalid(400, { formError: t('staff:refund_not_found') });
        const result = await refundPayment(await servicesFor(ctx), paymentId);
        if (result.type !== 'ok') return invalid(400, { formError: t(`staff:refund_${result.reason}`) });
        await audit(app.db, { staffId: staff.id, action: 'payment.refund', targetType: 'payment', targetId: paymentId, after: { refundId: result.refundId, member: id } });
        return redirect(`${here}?done=refund`);
      },
    },
    otherwise: () => invalid(400, { formError: t('errors:invalid_choice') }),
  };
}

/** The member as the page shows them; null when there is no such member. */
export async function adminMemberView(ctx: Ctx, staff: StaffMember, id: number, url: URL) {
  const { app, lang } = ctx;
  const [detail, dd] = await Promise.all([memberDetail(app.db, id), memberDirectDebit(app.db, id)]);
  if (!detail) return null;
  return {
    detail,
    account: detail.account,
    dd,
    done: url.searchParams.get('done'),
    time: new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'short' }),
    isAdmin: staff.role === 'admin',
  };
}
