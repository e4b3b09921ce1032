/**
 * Credits on the web: the member as the discount rules see them, the answer to a refused start (status
 * and translated text), and the credit purchase forms (CRD-02, CRD-06; decision 023):
 * - /credits: package, method, bank and code chosen → 303 to the confirm step /credits/{id}/{method};
 *   a code not found or used is refused here with its text.
 * - /credits/{id}/{method}: the confirm form → the payment starts (price from our package only) and
 *   the payer goes to the provider's checkout.
 */
import { servicesFor } from './services';
import type { CurrentUser } from '../members/account';
import { checkCode } from '../payments/discounts';
import { isPaymentMethod } from '../payments/provider';
import { cancelPayment, findPackage, startPayment } from '../payments/service';
import { directDebitLimit, mandateForPayment } from './directdebit';
import type { RequestContext } from './request-context';
import { invalid, redirect, type SingleActionSpec } from './form-action';
import { requestWantsPage } from './answer-kind';
import { json } from './api';
import { API_ERRORS } from '../../shared/api-errors';
import { parseId } from '../../shared/ids';
import type { DiscountMember } from '../payments/discounts';
import type { StartRefusal } from '../payments/service';

type Ctx = Pick<RequestContext, 'app' | 't' | 'site' | 'log' | 'linkOrigin' | 'responseDone'>;
type Member = Pick<CurrentUser, 'id' | 'paid_user' | 'signup_date' | 'profile'>;

/** The choice form of /credits. */
export function creditsChoiceForm(ctx: Ctx, user: Member): SingleActionSpec {
  return {
    handle: async (form) => {
      const deps = await servicesFor(ctx);
      if (!deps.providers.current) return paymentsUnavailable(ctx);
      const fieldErrors: Record<string, string> = {};
      const packageId = parseId(form.text('package'));
      const method = form.text('method');
      const issuer = form.text('issuer').trim();
      const code = form.text('code').trim();
      const pkg = packageId === null ? null : await findPackage(ctx.app.db, ctx.site.settings.id, packageId);
      if (!pkg) fieldErrors.package = ctx.t('credits:refused_package_not_found');
      const offer = (await deps.providers.current.listMethods(user.profile.country)).find((o) => o.id === method);
      if (!isPaymentMethod(method) || !offer) fieldErrors.method = ctx.t('credits:refused_method_unavailable');
      else if (offer.issuers.length > 0 && !offer.issuers.some((i) => i.id === issuer)) fieldErrors.issuer = ctx.t(issuer ? 'credits:refused_issuer_unknown' : 'credits:refused_issuer_required');
      if (code) {
        const checked = await checkCode(ctx.app.db, { member: discountMember(user), siteId: ctx.site.settings.id, code, now: ctx.app.clock.now() });
        if (!checked.ok) fieldErrors.code = ctx.t(`errors:${checked.reason}`);
      }
      if (Object.keys(fieldErrors).length > 0) return invalid(400, { fieldErrors });
      const query = new URLSearchParams();
      if (issuer && offer!.issuers.length > 0) query.set('issuer', issuer);
      if (code) query.set('code', code);
      const search = query.size > 0 ? `?${query}` : '';
      return redirect(`/credits/${pkg!.id}/${method}${search}`);
    },
  };
}

/** The confirm form of /credits/{id}/{method}: starts the payment. */
export function creditsPayForm(ctx: Ctx, user: Member, input: { packageId: number; method: string }): SingleActionSpec<{ openPaymentId: number } | undefined> {
  return {
    handle: async (form) => {
      const deps = await servicesFor(ctx);
      if (!deps.providers.current) return paymentsUnavailable(ctx);
      // Direct debit (DD-01): the member's own active mandate, looked up here, never taken from the form.
      let mandateReference: string | null = null;
      if (input.method === 'directdebit') {
        const mandate = await mandateForPayment(ctx, user.id);
        if (mandate.type === 'blocked') return invalid(403, { formError: ctx.t('directdebit:blocked'), reason: 'directdebit_blocked' });
        if (mandate.type === 'none') return redirect(`/directdebit?package=${input.packageId}`);
        mandateReference = mandate.reference;
      }
      const result = await startPayment(deps, {
        siteId: ctx.site.settings.id,
        siteName: ctx.site.settings.name,
        member: discountMember(user),
        country: user.profile.country,
        packageId: input.packageId,
        method: input.method,
        issuer: form.text('issuer') || null,
        code: form.text('code') || null,
        idempotencyKey: form.text('key'),
        // The registered origin, never a forged Host header: the provider is sent here (webhook) and so is the payer.
        origin: ctx.linkOrigin,
        mandateReference,
        directDebitLimit: directDebitLimit(ctx),
      });
      if (result.type === 'error') {
        return invalid(refusalStatus(result.reason), {
          formError: ctx.t(refusalKey(result.reason)),
          reason: result.reason,
          data: result.openPayment ? { openPaymentId: result.openPayment.id } : undefined,
        });
      }
      return redirect(result.checkoutUrl ?? `/credits/order/${result.payment.id}`);
    },
  };
}

/** SEC-14: no provider is configured, so nothing can be bought; the form is refused with the reason. */
function paymentsUnavailable(ctx: Ctx) {
  return invalid<never>(refusalStatus('payments_unavailable'), { formError: ctx.t(refusalKey('payments_unavailable')), reason: 'payments_unavailable' });
}

/**
 * A refused credits form posted by a script (JSON or XHR, not a browser's form post): the API's JSON error
 * `{ error, message }` for the reasons that are API codes (SEC-14 `payments_unavailable`, SEC-16
 * `discount_in_use`), instead of the page. Null for a browser, which gets the page with the error.
 */
export function refusalForScript(request: Request, result: { status: number; reason?: string; formError: string | null }): Response | null {
  if (requestWantsPage(request) || !result.reason || !(result.reason in API_ERRORS)) return null;
  return json({ error: result.reason, message: result.formError ?? result.reason }, { status: result.status });
}

/**
 * The cancel button of a pending payment on its order page: our side closes it and frees the one-use
 * offers it held (SEC-16); should the provider still report it paid, it is credited then (SEC-18).
 */
export function cancelPaymentForm(ctx: Ctx, user: Pick<Member, 'id'>, paymentId: number): SingleActionSpec {
  return {
    handle: async () => {
      const result = await cancelPayment({ db: ctx.app.db, clock: ctx.app.clock }, user.id, paymentId);
      if (result.type === 'not_found') return invalid(404, { formError: ctx.t('credits:refused_invalid_request') });
      if (result.type === 'not_pending') return invalid(409, { formError: ctx.t('credits:cancel_too_late'), reason: 'not_pending' });
      return redirect(`/credits/order/${paymentId}`);
    },
  };
}

export function discountMember(user: Pick<CurrentUser, 'id' | 'paid_user' | 'signup_date'>): DiscountMember {
  return { id: user.id, paid_user: user.paid_user, signup_date: user.signup_date };
}

/** HTTP status of a refused start. */
export function refusalStatus(reason: StartRefusal): number {
  if (reason === 'payments_unavailable') return 503;
  if (reason === 'discount_in_use') return 409;
  if (reason === 'package_not_found') return 404;
  if (reason === 'provider_unavailable') return 502;
  if (reason === 'directdebit_limit_reached') return 403;
  return 400;
}

/** The translation key of a refused start: discount refusals share the API's error texts. */
export function refusalKey(reason: StartRefusal): string {
  if (reason.startsWith('directdebit_')) return `directdebit:${reason.slice('directdebit_'.length)}`;
  return reason.startsWith('discount_') || reason === 'payments_unavailable' ? `errors:${reason}` : `credits:refused_${reason}`;
}

/** A fresh idempotency key for a confirm form. */
export function newPaymentKey(): string {
  return crypto.randomUUID();
}
