/**
 * The view model of /credits/{id}/{paymentmethod} (CRD-02, CRD-05): the confirm step of a package —
 * package, price, discount, the method's transaction costs and the total — with what refuses the pay
 * button: no payment provider (SEC-14, status 503), a discount held by an open payment (SEC-16), a member
 * blocked for direct debit or over its limit (DD-02, CRD-08), a bad discount code, a missing issuer.
 * The price comes from our package only; nothing the browser sends changes it.
 */
import { formatMoney } from '../../credits/packages';
import { directDebitLimitReached } from '../../directdebit/limit';
import type { CurrentUser } from '../../members/account';
import { isPaymentMethod } from '../../payments/provider';
import { findPackage, openPaymentHolding, quote, resolveDiscount } from '../../payments/service';
import { discountMember, newPaymentKey, refusalKey } from '../credits';
import { parseId } from '../../../shared/ids';
import { directDebitLimit, mandateForPayment } from '../directdebit';
import type { RefusedPost } from '../form-action';
import type { RequestContext } from '../request-context';
import { servicesFor } from '../services';

type Mandate = Awaited<ReturnType<typeof mandateForPayment>>;

/**
 * Where a request for `/credits/{id}/{method}` goes before any form is handled: a bad id is not found;
 * without a method a GET goes back to /credits with the package chosen; direct debit without an active
 * mandate (DD-01) goes to /directdebit?package={id} first. Otherwise the order the page is about.
 */
export async function creditPaymentRoute(ctx: Pick<RequestContext, 'app'>, user: Pick<CurrentUser, 'id'>, params: { id?: string; method?: string }, requestMethod: string) {
  const packageId = parseId(params.id);
  const method = params.method ?? '';
  if (packageId === null) return { type: 'not_found' as const };
  if (method === '' && requestMethod === 'GET') return { type: 'redirect' as const, to: `/credits?package=${packageId}` };
  const mandate = method === 'directdebit' ? await mandateForPayment(ctx, user.id) : null;
  if (mandate?.type === 'none' && requestMethod === 'GET') return { type: 'redirect' as const, to: `/directdebit?package=${packageId}` };
  return { type: 'order' as const, packageId, method, mandate };
}

/** `not_found` when nothing can be shown for an unposted page (no such package, or a method the provider lacks). */
export async function creditPaymentPage(
  ctx: Pick<RequestContext, 'app' | 'site' | 't' | 'lang' | 'log' | 'linkOrigin' | 'responseDone'>,
  user: Pick<CurrentUser, 'id' | 'paid_user' | 'signup_date' | 'profile'>,
  order: { packageId: number; method: string; mandate: Mandate | null },
  posted: RefusedPost<{ openPaymentId: number } | undefined> | null,
  url: URL,
) {
  const { app, site, t, lang } = ctx;
  const { packageId, method, mandate } = order;
  const pkg = await findPackage(app.db, site.settings.id, packageId);
  const deps = await servicesFor(ctx);
  // SEC-14: without a payment provider the page says that nothing can be bought (no summary, no button).
  const provider = deps.providers.current;
  const offer = provider && isPaymentMethod(method) ? (await provider.listMethods(user.profile.country)).find((o) => o.id === method) : undefined;
  if (!posted && (!pkg || (provider && !offer))) return { type: 'not_found' as const };
  const status = posted && !pkg ? 404 : !provider && !posted ? 503 : 200;

  const issuerId = posted?.form?.text('issuer') || url.searchParams.get('issuer') || '';
  const code = posted?.form?.text('code') || url.searchParams.get('code') || '';
  const issuer = offer?.issuers.find((i) => i.id === issuerId) ?? null;
  const discount = pkg ? await resolveDiscount(app.db, { member: discountMember(user), siteId: site.settings.id, code, now: app.clock.now() }) : null;
  const price = pkg && offer && discount?.ok ? quote(pkg, discount.discount, offer.transactionCostCents) : null;
  const overLimit = Boolean(
    price && offer?.id === 'directdebit' && (await directDebitLimitReached(app.db, { memberId: user.id, amountCents: price.amountCents, limit: directDebitLimit(ctx), now: app.clock.now() })),
  );
  const directDebitRefusal = mandate?.type === 'blocked' ? t('directdebit:blocked') : overLimit ? t('directdebit:limit_reached') : null;
  // SEC-16: the one-use discount is held by the member's open payment: finish or cancel that one first.
  const heldBy = posted?.result.data?.openPaymentId ?? (price?.discount && discount?.ok ? (await openPaymentHolding(app.db, user.id, discount.offers))?.id : undefined);
  const providerRefusal = provider ? null : t(refusalKey('payments_unavailable'));
  const issuerMissing = Boolean(offer && offer.issuers.length > 0 && !issuer);
  const formError =
    posted?.result.formError ??
    providerRefusal ??
    (heldBy ? t(refusalKey('discount_in_use')) : null) ??
    directDebitRefusal ??
    (discount && !discount.ok ? t(refusalKey(discount.reason)) : null) ??
    (issuerMissing ? t('credits:refused_issuer_required') : null);
  let formReason = posted?.result.reason;
  if (formReason === undefined) {
    if (providerRefusal) formReason = 'payments_unavailable';
    else if (heldBy) formReason = 'discount_in_use';
    else if (mandate?.type === 'blocked') formReason = 'directdebit_blocked';
    else if (overLimit) formReason = 'directdebit_limit_reached';
    else formReason = 'invalid';
  }
  return {
    type: 'page' as const,
    status,
    pkg,
    offer,
    code,
    issuer,
    discount,
    price,
    heldBy,
    formError,
    formReason,
    canPay: !issuerMissing && !directDebitRefusal && !heldBy && Boolean(provider),
    money: (cents: number) => formatMoney(cents, pkg?.currency ?? 'EUR', lang),
    key: newPaymentKey(),
  };
}
