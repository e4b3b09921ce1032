/**
 * The built-in simulated checkout: the default payment provider, so the demo and the tests take the
 * real code path end to end with no account anywhere (issue 11). Its "provider side" is its own table
 * (`simulated_checkouts`): `createPayment` adds a row and points the payer at our page
 * /checkout/simulated/{id}; there the payer picks paid, failed, cancelled, pending or expired; `choose`
 * records it and sends a real, signed HTTP webhook to the webhook URL, exactly as a provider would.
 * Webhooks carry only the id (HMAC-SHA256 of the body in `x-simulated-signature`); the status is read
 * back with `fetchStatus`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq, and } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { appSecrets, simulatedCheckouts, type PaymentStatus } from '../../db/schema';
import type { Logger } from '../logger';
import {
  ProviderError,
  standardMethods,
  type CreatePaymentInput,
  type CreatedPayment,
  type MethodOffer,
  type PaymentProvider,
  type ProviderPaymentState,
  type WebhookCheck,
  type WebhookRequest,
} from './provider';

export const SIMULATED_SIGNATURE_HEADER = 'x-simulated-signature';
const SECRET_KEY = 'simulated_payments_secret';
const ID_SHAPE = /^sim_[A-Za-z0-9_-]{16,40}$/;

export class SimulatedProvider implements PaymentProvider {
  readonly name = 'simulated';

  private constructor(
    private readonly db: Db,
    private readonly secret: Buffer,
    private readonly log?: Logger,
    private readonly send: typeof fetch = fetch,
  ) {}

  /** Loads (or makes, once) the signing secret in app_secrets, like the device-cookie secret. */
  static async create(deps: { db: Db; log?: Logger; fetch?: typeof fetch }): Promise<SimulatedProvider> {
    await deps.db
      .insert(appSecrets)
      .values({ key: SECRET_KEY, value: randomBytes(32).toString('base64url') })
      .onConflictDoNothing({ target: appSecrets.key });
    const [row] = await deps.db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.key, SECRET_KEY)).limit(1);
    return new SimulatedProvider(deps.db, Buffer.from(row!.value, 'base64url'), deps.log, deps.fetch);
  }

  async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
    const [existing] = await this.db.select().from(simulatedCheckouts).where(eq(simulatedCheckouts.idempotencyKey, input.idempotencyKey)).limit(1);
    const id = existing?.id ?? `sim_${randomBytes(15).toString('base64url')}`;
    if (!existing) {
      await this.db
        .insert(simulatedCheckouts)
        .values({
          id,
          amountCents: input.amountCents,
          currency: input.currency,
          method: input.method,
          issuer: input.issuer ?? null,
          description: input.description,
          returnUrl: input.returnUrl,
          webhookUrl: input.webhookUrl,
          idempotencyKey: input.idempotencyKey,
        })
        .onConflictDoNothing({ target: simulatedCheckouts.idempotencyKey });
    }
    const [row] = await this.db.select({ id: simulatedCheckouts.id }).from(simulatedCheckouts).where(eq(simulatedCheckouts.idempotencyKey, input.idempotencyKey)).limit(1);
    return { providerPaymentId: row!.id, checkoutUrl: new URL(`/checkout/simulated/${row!.id}`, input.webhookUrl).toString() };
  }

  async fetchStatus(providerPaymentId: string): Promise<ProviderPaymentState> {
    const row = await this.checkout(providerPaymentId);
    if (!row) throw new ProviderError(`simulated: no payment ${providerPaymentId}`, 404);
    return { providerPaymentId: row.id, status: row.status, amountCents: row.amountCents, currency: row.currency };
  }

  /** The checkout as the simulated page shows it. */
  async checkout(id: string) {
    if (!ID_SHAPE.test(id)) return null;
    const [row] = await this.db.select().from(simulatedCheckouts).where(eq(simulatedCheckouts.id, id)).limit(1);
    return row ?? null;
  }

  /**
   * The payer's choice on the simulated page: a pending checkout takes it ('pending' leaves it
   * pending); a settled one keeps its status. Then the webhook goes out, awaited, and the answer says
   * where the payer returns to.
   */
  async choose(id: string, choice: PaymentStatus): Promise<{ returnUrl: string; status: PaymentStatus } | null> {
    const row = await this.checkout(id);
    if (!row) return null;
    if (choice !== 'pending') {
      await this.db
        .update(simulatedCheckouts)
        .set({ status: choice })
        .where(and(eq(simulatedCheckouts.id, id), eq(simulatedCheckouts.status, 'pending')));
    }
    await this.sendWebhook(row.webhookUrl, id);
    const after = await this.checkout(id);
    return { returnUrl: row.returnUrl, status: after!.status };
  }

  /** Posts `{ id }` signed to the webhook URL, as the real providers do. Failures are logged, not thrown: the reconcile job catches up. */
  async sendWebhook(webhookUrl: string, id: string): Promise<number | null> {
    const body = JSON.stringify({ id });
    try {
      const res = await this.send(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIMULATED_SIGNATURE_HEADER]: this.sign(body) },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) this.log?.warn({ status: res.status, id }, 'simulated webhook refused');
      return res.status;
    } catch (err) {
      this.log?.warn({ err, id }, 'simulated webhook failed');
      return null;
    }
  }

  sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('hex');
  }

  async verifyWebhook(request: WebhookRequest): Promise<WebhookCheck> {
    const given = request.headers.get(SIMULATED_SIGNATURE_HEADER) ?? '';
    const expected = this.sign(request.body);
    if (!/^[0-9a-f]{64}$/.test(given) || !timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(expected, 'hex'))) return { ok: false, reason: 'bad_signature' };
    let id: unknown;
    try {
      id = (JSON.parse(request.body) as { id?: unknown }).id;
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    if (typeof id !== 'string' || !ID_SHAPE.test(id)) return { ok: false, reason: 'malformed' };
    return { ok: true, providerPaymentId: id };
  }

  async refund(providerPaymentId: string, amountCents: number): Promise<{ refundId: string }> {
    const row = await this.checkout(providerPaymentId);
    if (!row || row.status !== 'paid') throw new ProviderError('simulated: only a paid payment can be refunded', 422);
    if (row.refundedCents + amountCents > row.amountCents) throw new ProviderError('simulated: refund exceeds the payment', 422);
    await this.db
      .update(simulatedCheckouts)
      .set({ refundedCents: row.refundedCents + amountCents })
      .where(eq(simulatedCheckouts.id, providerPaymentId));
    return { refundId: `simre_${randomBytes(9).toString('base64url')}` };
  }

  async listMethods(country: string): Promise<MethodOffer[]> {
    return standardMethods(country);
  }
}
