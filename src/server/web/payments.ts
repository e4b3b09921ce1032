/**
 * What the credits pages and endpoints share: the member as the discount rules see them and the
 * answer to a refused start (status and translated text).
 */
import type { CurrentUser } from '../members/account';
import type { DiscountMember } from '../payments/discounts';
import type { StartRefusal } from '../payments/service';

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
