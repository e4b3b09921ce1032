/**
 * PAY. (pay.nl) adapter: the real provider, used when its keys are configured
 * (docs/decisions/033-payment-provider.md). PAY.'s Order API ("TGU"):
 * - create: `POST {api}/v1/orders` (HTTP Basic: token code AT-… and API token) with serviceId,
 *   amount `{ value: cents, currency }`, description, reference, returnUrl, exchangeUrl and
 *   `paymentMethod: { id, input: { issuerId } }`; the answer holds `id` and `links.redirect`;
 * - status: `GET {api}/v1/orders/{id}/status`, `status: { code, action }`, amount in cents;
 * - exchange (webhook): PAY. calls the exchangeUrl with the order id; signed exchanges carry
 *   `Signature`, `Signature-KeyID`, `Signature-Method: HMAC`, `Signature-Algorithm: sha256`, the
 *   signature being sha256 over `keyId:secret:body` (PAY.'s request-signing library);
 * - refund: `PATCH {api}/v1/transactions/{id}/refund` with the amount.
 * The adapter never trusts an exchange's status fields: the service fetches the status.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { PaymentStatus } from '../../db/schema';
import {
  ProviderError,
  standardMethods,
  type CreatePaymentInput,
  type CreatedPayment,
  type MethodOffer,
  type PaymentMethod,
  type PaymentProvider,
  type ProviderPaymentState,
  type WebhookCheck,
  type WebhookRequest,
} from './provider';

export interface PaynlConfig {
  /** AT-xxxx-xxxx */
  tokenCode: string;
  apiToken: string;
  /** SL-xxxx-xxxx */
  serviceId: string;
  /** https://connect.pay.nl (a local fake in tests). */
  apiUrl: string;
  /** Refuse unsigned exchanges (on by default). */
  requireSignature?: boolean;
  fetch?: typeof fetch;
}

/** PAY.'s payment-method ids for our methods. */
export const PAYNL_METHOD_IDS: Record<PaymentMethod, number> = { ideal: 10, card: 706, directdebit: 137, bancontact: 436 };

/** PAY. status actions and codes → our statuses. Unknown and in-between states stay pending. */
export function paynlStatus(status: { code?: unknown; action?: unknown } | undefined): PaymentStatus {
  const action = String(status?.action ?? '').toUpperCase();
  const code = Number(status?.code);
  if (action === 'PAID' || code === 100) return 'paid';
  if (action === 'CANCEL' || action === 'CANCELLED' || code === -90) return 'cancelled';
  if (action === 'EXPIRED' || code === -80) return 'expired';
  if (action === 'DENIED' || action === 'FAILURE' || action === 'DECLINED' || code === -63 || code === -60 || code === -64) return 'failed';
  return 'pending';
}

const ORDER_ID = /^[A-Za-z0-9-]{6,64}$/;

export class PaynlProvider implements PaymentProvider {
  readonly name = 'paynl';
  private readonly send: typeof fetch;

  constructor(private readonly config: PaynlConfig) {
    this.send = config.fetch ?? fetch;
  }

  private async call(method: string, path: string, body?: unknown): Promise<PaynlAnswer> {
    const auth = Buffer.from(`${this.config.tokenCode}:${this.config.apiToken}`).toString('base64');
    let res: Response;
    try {
      res = await this.send(new URL(path, this.config.apiUrl), {
        method,
        headers: { accept: 'application/json', authorization: `Basic ${auth}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (err) {
      throw new ProviderError(`PAY. unreachable: ${(err as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok) throw new ProviderError(`PAY. answered ${res.status} on ${method} ${path}`, res.status);
    try {
      return text ? JSON.parse(text) : {};
    } catch {
      throw new ProviderError(`PAY. answered no JSON on ${method} ${path}`, res.status);
    }
  }

  async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
    const paymentMethod: Record<string, unknown> = { id: PAYNL_METHOD_IDS[input.method] };
    if (input.issuer) paymentMethod.input = { issuerId: input.issuer };
    if (input.method === 'directdebit' && input.mandateReference) paymentMethod.input = { ...(paymentMethod.input as object), mandateId: input.mandateReference };
    const data = await this.call('POST', '/v1/orders', {
      serviceId: this.config.serviceId,
      amount: { value: input.amountCents, currency: input.currency },
      description: input.description,
      reference: input.idempotencyKey.replace(/[^A-Za-z0-9]/g, '').slice(0, 32),
      returnUrl: input.returnUrl,
      exchangeUrl: input.webhookUrl,
      paymentMethod,
    });
    const id = data?.id;
    if (typeof id !== 'string' || !ORDER_ID.test(id)) throw new ProviderError('PAY. create order: no order id');
    const redirect = data?.links?.redirect ?? data?.links?.checkout ?? null;
    return { providerPaymentId: id, checkoutUrl: typeof redirect === 'string' ? redirect : null };
  }

  async fetchStatus(providerPaymentId: string): Promise<ProviderPaymentState> {
    if (!ORDER_ID.test(providerPaymentId)) throw new ProviderError('PAY.: bad order id');
    const data = await this.call('GET', `/v1/orders/${encodeURIComponent(providerPaymentId)}/status`);
    const value = Number(data?.amount?.value);
    if (!Number.isSafeInteger(value)) throw new ProviderError('PAY. status: no amount');
    return { providerPaymentId, status: paynlStatus(data?.status), amountCents: value, currency: String(data?.amount?.currency ?? '') };
  }

  /** The signature PAY. puts on an exchange: sha256 hex of `keyId:secret:body`. */
  static signature(keyId: string, secret: string, body: string): string {
    return createHash('sha256').update(`${keyId}:${secret}:${body}`).digest('hex');
  }

  async verifyWebhook(request: WebhookRequest): Promise<WebhookCheck> {
    const signature = request.headers.get('signature');
    const keyId = request.headers.get('signature-keyid');
    const method = (request.headers.get('signature-method') ?? '').toUpperCase();
    const algorithm = (request.headers.get('signature-algorithm') ?? '').toLowerCase();
    if (signature || this.config.requireSignature !== false) {
      if (!signature || method !== 'HMAC' || algorithm !== 'sha256' || keyId !== this.config.tokenCode) return { ok: false, reason: 'bad_signature' };
      const expected = PaynlProvider.signature(keyId, this.config.apiToken, request.body);
      if (!/^[0-9a-f]{64}$/i.test(signature) || !timingSafeEqual(Buffer.from(signature.toLowerCase(), 'hex'), Buffer.from(expected, 'hex'))) return { ok: false, reason: 'bad_signature' };
    }
    const id = exchangeOrderId(request);
    return id ? { ok: true, providerPaymentId: id } : { ok: false, reason: 'malformed' };
  }

  async refund(providerPaymentId: string, amountCents: number, currency: string): Promise<{ refundId: string }> {
    const data = await this.call('PATCH', `/v1/transactions/${encodeURIComponent(providerPaymentId)}/refund`, { amount: { value: amountCents, currency } });
    const id = data?.id ?? data?.refundId ?? `${providerPaymentId}-refund`;
    return { refundId: String(id) };
  }

  async listMethods(country: string): Promise<MethodOffer[]> {
    return standardMethods(country);
  }
}

/** What PAY. answers, as far as this provider reads it: every field is checked before it is used. */
interface PaynlAnswer {
  id?: unknown;
  refundId?: unknown;
  status?: { code?: unknown; action?: unknown };
  links?: { redirect?: unknown; checkout?: unknown };
  amount?: { value?: unknown; currency?: unknown };
}

/** The order id of an exchange: JSON `{ object: { id } }` or `{ id }`, or form/query `order_id` / `id`. */
function exchangeOrderId(request: WebhookRequest): string | null {
  const candidates: unknown[] = [];
  const type = request.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      const body = JSON.parse(request.body) as { object?: { id?: unknown; orderId?: unknown }; id?: unknown; order_id?: unknown };
      candidates.push(body?.object?.id, body?.id, body?.order_id);
    } catch {
      return null;
    }
  } else {
    const form = new URLSearchParams(request.body);
    candidates.push(form.get('object[id]'), form.get('order_id'), form.get('id'));
  }
  candidates.push(request.url.searchParams.get('order_id'));
  const id = candidates.find((c) => typeof c === 'string' && ORDER_ID.test(c));
  return (id as string | undefined) ?? null;
}
