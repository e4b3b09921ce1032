/**
 * The view model of the order result /credits/order/{id} (CRD-02, CRD-05, CRD-08), where the payer
 * returns from the checkout: the member's own payment (another member's is not found), asked of its
 * provider again while pending (so a lost webhook does not keep it pending), the balance once paid, the
 * price and the tone of its status.
 */
import { balance } from '../../credits/ledger';
import { formatMoney } from '../../credits/packages';
import type { CurrentUser } from '../../members/account';
import { memberPayment, refresh, type Payment } from '../../payments/service';
import { parseId } from '../../../shared/ids';
import type { RequestContext } from '../request-context';
import { servicesFor } from '../services';

type Ctx = Pick<RequestContext, 'app' | 'lang' | 'log' | 'linkOrigin' | 'responseDone'>;

/** The member's payment the URL names, or null (not found). */
export async function orderPayment(ctx: Pick<RequestContext, 'app'>, user: Pick<CurrentUser, 'id'>, idParam: string | undefined): Promise<Payment | null> {
  const id = parseId(idParam);
  return id === null ? null : memberPayment(ctx.app.db, user.id, id);
}

/** `changed`: a form on the page was posted (the payment is read again). */
export async function creditOrderPage(ctx: Ctx, user: Pick<CurrentUser, 'id' | 'credits'>, read: Payment, changed: boolean) {
  const { app, lang } = ctx;
  let payment = changed ? ((await memberPayment(app.db, user.id, read.id)) ?? read) : read;
  if (payment.status === 'pending') {
    const deps = await servicesFor(ctx);
    const provider = deps.providers.byName(payment.provider);
    if (provider) {
      try {
        const result = await refresh(deps, provider, payment);
        if (result.type === 'applied') payment = result.payment;
      } catch (err) {
        ctx.log.warn({ err, paymentId: payment.id }, 'order page: provider status not available');
      }
    }
  }
  const status = payment.status;
  return {
    payment,
    status,
    credits: status === 'paid' ? await balance(app.db, user.id) : user.credits,
    price: formatMoney(payment.amountCents, payment.currency, lang),
    tone: status === 'paid' ? 'success' : status === 'pending' ? 'info' : 'danger',
    retry: payment.packageId ? `/credits?package=${payment.packageId}` : '/credits',
  };
}
