/**
 * The payment provider seam (CRD-02, CRD-05, CRD-09): everything the payments service asks of a
 * provider. The default is the built-in simulated checkout (./simulated.ts); a real provider is used
 * when its keys are configured (./paynl.ts, docs/decisions/033-payment-provider.md).
 */
import type { PaymentStatus } from '../../db/schema';

export type { PaymentStatus };

/** Methods the site offers; a provider lists the ones it has for a country. */
export const PAYMENT_METHODS = ['ideal', 'card', 'directdebit', 'bancontact'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export function isPaymentMethod(value: unknown): value is PaymentMethod {
  return typeof value === 'string' && (PAYMENT_METHODS as readonly string[]).includes(value);
}

export interface Issuer {
  id: string;
  name: string;
}

export interface MethodOffer {
  id: PaymentMethod;
  /** Transaction costs of this method in cents, added to the price and shown before paying (CRD-05). */
  transactionCostCents: number;
  /** Banks to choose from (iDEAL); empty when the method has no choice. */
  issuers: Issuer[];
}

export interface CreatePaymentInput {
  amountCents: number;
  currency: string;
  method: PaymentMethod;
  issuer?: string | null;
  description: string;
  /** Where the payer comes back to after paying (our order result page). */
  returnUrl: string;
  /** Where the provider reports a change (our webhook endpoint). */
  webhookUrl: string;
  /** Our key: the provider creates one payment for it, however often it is sent. */
  idempotencyKey: string;
  /** The SEPA direct-debit mandate to collect on (method 'directdebit'). */
  mandateReference?: string | null;
}

export interface CreatedPayment {
  providerPaymentId: string;
  /** Where to send the payer; null when nothing is to be done by them (a direct debit). */
  checkoutUrl: string | null;
}

export interface ProviderPaymentState {
  providerPaymentId: string;
  status: PaymentStatus;
  amountCents: number;
  currency: string;
}

/** A webhook request as it arrived: the raw body (signatures are over bytes) and the headers. */
export interface WebhookRequest {
  headers: Headers;
  body: string;
  url: URL;
}

export type WebhookCheck = { ok: true; providerPaymentId: string } | { ok: false; reason: 'bad_signature' | 'malformed' };

export interface PaymentProvider {
  /** Stored with each payment ('simulated', 'paynl'). */
  readonly name: string;
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  /** The provider's own word on a payment: the only status the service ever applies. */
  fetchStatus(providerPaymentId: string): Promise<ProviderPaymentState>;
  /** Checks a webhook's signature and reads which payment it is about (never its status). */
  verifyWebhook(request: WebhookRequest): Promise<WebhookCheck>;
  refund(providerPaymentId: string, amountCents: number, currency: string): Promise<{ refundId: string }>;
  listMethods(country: string): Promise<MethodOffer[]>;
}

export class ProviderError extends Error {
  constructor(
    message: string,
    public readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** The Dutch iDEAL banks (issuer choice, CRD-02). */
export const IDEAL_ISSUERS: Issuer[] = [
  { id: 'ABNANL2A', name: 'ABN AMRO' },
  { id: 'ASNBNL21', name: 'ASN Bank' },
  { id: 'BUNQNL2A', name: 'bunq' },
  { id: 'INGBNL2A', name: 'ING' },
  { id: 'KNABNL2H', name: 'Knab' },
  { id: 'RABONL2U', name: 'Rabobank' },
  { id: 'RBRBNL21', name: 'RegioBank' },
  { id: 'REVOLT21', name: 'Revolut' },
  { id: 'SNSBNL2A', name: 'SNS' },
  { id: 'TRIONL2U', name: 'Triodos Bank' },
];

/** SEPA countries where direct debit is offered to members (the sites' countries). */
const SEPA_COUNTRIES = new Set(['NL', 'BE', 'DE', 'AT', 'FR', 'IT', 'ES', 'PL', 'DK', 'FI', 'SE', 'NO', 'LU', 'IE', 'PT']);

/**
 * The methods and their costs for a member's country, shared by the simulated checkout and the PAY.
 * adapter (the costs are the site's tariff per method, in cents).
 */
export function standardMethods(country: string): MethodOffer[] {
  const c = country.toUpperCase();
  const offers: MethodOffer[] = [];
  if (c === 'NL') offers.push({ id: 'ideal', transactionCostCents: 29, issuers: IDEAL_ISSUERS });
  if (c === 'BE') offers.push({ id: 'bancontact', transactionCostCents: 39, issuers: [] });
  offers.push({ id: 'card', transactionCostCents: 49, issuers: [] });
  if (SEPA_COUNTRIES.has(c)) offers.push({ id: 'directdebit', transactionCostCents: 19, issuers: [] });
  return offers;
}
