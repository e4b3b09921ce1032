/**
 * What the credits pages and endpoints share: the payment deps of a request, the member as the
 * discount rules see them, the VAT in a price, and the translated refusal of a start.
 */
import type { RequestContext } from './request-context';
import type { CurrentUser } from '../members/account';
import type { DiscountMember } from '../payments/discounts';
import { paymentProviders } from '../payments/registry';
import type { PaymentDeps, StartRefusal } from '../payments/service';

export async function paymentDeps(ctx: Pick<RequestContext, 'app'>): Promise<PaymentDeps> {
  const { app } = ctx;
  return { db: app.db, clock: app.clock, providers: await paymentProviders(app), log: app.log };
}

export function discountMember(user: Pick<CurrentUser, 'id' | 'paid_user' | 'signup_date'>): DiscountMember {
  return { id: user.id, paid_user: user.paid_user, signup_date: user.signup_date };
}

/**
 * VAT rates in basis points by the member's country (digital services to consumers in the EU are taxed
 * where the consumer lives, OSS); prices include VAT. Countries not listed use the Dutch rate.
 */
const VAT_BASIS_POINTS: Record<string, number> = {
  NL: 2100, BE: 2100, DE: 1900, AT: 2000, FR: 2000, IT: 2200, ES: 2100, PL: 2300, DK: 2500, FI: 2550, SE: 2500, LU: 1700, IE: 2300, PT: 2300, NO: 2500,
};

export function vatRate(country: string): number {
  return VAT_BASIS_POINTS[country.toUpperCase()] ?? 2100;
}

/** The VAT included in a gross amount: gross × rate / (1 + rate), rounded to the cent. */
export function vatIncluded(grossCents: number, basisPoints: number): number {
  return Math.round((grossCents * basisPoints) / (10_000 + basisPoints));
}

/** "21%" / "25,5%" in the language. */
export function formatRate(basisPoints: number, lang: string): string {
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 2 }).format(basisPoints / 10_000);
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
