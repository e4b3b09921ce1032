/**
 * The PAY. adapter against a local fake of PAY.'s Order API (node:http): creating an order with the
 * amount in cents, the method and bank, Basic auth; reading the status; the signed exchange (the
 * signature over `keyId:secret:body`, refused when wrong, missing or for another key); refunds; and the
 * whole path through the payments service: a signed exchange, the status fetched, credits granted once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { creditPackages, sites, users } from '../../db/schema';
import { balance } from '../credits/ledger';
import { paynlStatus, PaynlProvider } from './paynl';
import { paymentProviders, providersOf } from './registry';
import { loadConfig } from '../config';
import { applyWebhook, startPayment } from './service';

const TOKEN_CODE = 'AT-1234-5678';
const API_TOKEN = 'a'.repeat(40);
const SERVICE_ID = 'SL-1111-2222';

interface FakeOrder {
  id: string;
  amount: { value: number; currency: string };
  status: { code: number; action: string };
  body: any;
}

/** A fake of PAY.'s API: just enough of /v1/orders, /v1/orders/{id}/status and the refund. */
class FakePaynl {
  server!: Server;
  orders = new Map<string, FakeOrder>();
  requests: Array<{ method: string; url: string; auth: string | undefined; body: any }> = [];
  refunds: any[] = [];
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? JSON.parse(text) : undefined;
    this.requests.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
    const send = (status: number, data: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(data));
    };
    if (req.headers.authorization !== `Basic ${Buffer.from(`${TOKEN_CODE}:${API_TOKEN}`).toString('base64')}`) return send(401, { type: 'unauthorized' });
    if (req.method === 'POST' && req.url === '/v1/orders') {
      const id = `ord${this.orders.size + 1}-abcdef`;
      this.orders.set(id, { id, amount: body.amount, status: { code: 20, action: 'PENDING' }, body });
      return send(201, {
        id,
        orderId: `${id}X`,
        serviceId: body.serviceId,
        status: { code: 20, action: 'PENDING' },
        links: { redirect: `https://checkout.example/${id}`, status: `${this.url}/v1/orders/${id}/status` },
      });
    }
    const status = /^\/v1\/orders\/([^/]+)\/status$/.exec(req.url ?? '');
    if (req.method === 'GET' && status) {
      const order = this.orders.get(status[1]!);
      return order ? send(200, { id: order.id, amount: order.amount, status: order.status }) : send(404, { type: 'not_found' });
    }
    const refund = /^\/v1\/transactions\/([^/]+)\/refund$/.exec(req.url ?? '');
    if (req.method === 'PATCH' && refund) {
      this.refunds.push({ id: refund[1], body });
      return send(200, { id: `refund-${refund[1]}` });
    }
    send(404, { type: 'not_found' });
  }

  set(id: string, code: number, action: string): void {
    this.orders.get(id)!.status = { code, action };
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** An exchange as PAY. sends it: JSON naming the order, signed when `sign`. */
function exchange(orderId: string, options: { keyId?: string; secret?: string; tamper?: boolean; unsigned?: boolean } = {}) {
  const body = JSON.stringify({ event: 'order.paid', type: 'order', object: { id: orderId, status: { code: 100, action: 'PAID' } } });
  const headers = new Headers({ 'content-type': 'application/json' });
  if (!options.unsigned) {
    const keyId = options.keyId ?? TOKEN_CODE;
    headers.set('signature', PaynlProvider.signature(keyId, options.secret ?? API_TOKEN, options.tamper ? `${body} ` : body));
    headers.set('signature-keyid', keyId);
    headers.set('signature-method', 'HMAC');
    headers.set('signature-algorithm', 'sha256');
  }
  return { headers, body, url: new URL('http://localhost/api/payment-webhook.php?provider=paynl') };
}

describe('PAY. adapter against a local fake of its API', () => {
  const fake = new FakePaynl();
  let provider: PaynlProvider;
  const clock = new FakeClock();
  let kit: SeededDatabase;
  beforeAll(async () => {
    await fake.start();
    provider = new PaynlProvider({ tokenCode: TOKEN_CODE, apiToken: API_TOKEN, serviceId: SERVICE_ID, apiUrl: fake.url });
    kit = await seededDatabase({ clock });
  });
  afterAll(async () => {
    await fake.close();
    await kit?.close();
  });

  it('CRD-02 creates an order with the amount in cents, the method id and the bank, authenticated with the token', async () => {
    const created = await provider.createPayment({
      amountCents: 1024,
      currency: 'EUR',
      method: 'ideal',
      issuer: 'INGBNL2A',
      description: '50 credits',
      returnUrl: 'https://site.test/credits/order/1',
      webhookUrl: 'https://site.test/api/payment-webhook.php?provider=paynl',
      idempotencyKey: 'payment-1',
    });
    expect(created).toEqual({ providerPaymentId: 'ord1-abcdef', checkoutUrl: 'https://checkout.example/ord1-abcdef' });
    expect(fake.requests.at(-1)!.body).toMatchObject({
      serviceId: SERVICE_ID,
      amount: { value: 1024, currency: 'EUR' },
      paymentMethod: { id: 10, input: { issuerId: 'INGBNL2A' } },
      returnUrl: 'https://site.test/credits/order/1',
      exchangeUrl: 'https://site.test/api/payment-webhook.php?provider=paynl',
      reference: 'payment1',
    });
    expect(await provider.fetchStatus('ord1-abcdef')).toEqual({ providerPaymentId: 'ord1-abcdef', status: 'pending', amountCents: 1024, currency: 'EUR' });
  });

  it('CRD-02 is the provider in use when its keys are configured, and the simulated checkout is then off', async () => {
    const config = loadConfig({ NODE_ENV: 'test', PAYNL_TOKEN_CODE: TOKEN_CODE, PAYNL_API_TOKEN: API_TOKEN, PAYNL_SERVICE_ID: SERVICE_ID, PAYNL_API_URL: fake.url });
    const providers = await paymentProviders({ db: kit.db, config });
    expect(providers.current?.name).toBe('paynl');
    expect(providers.simulated).toBeNull();
    expect(providers.byName('simulated')).toBeNull();
  });

  it('CRD-05 maps PAY. statuses: paid, cancelled, expired, denied and failure; anything else stays pending', () => {
    expect(paynlStatus({ code: 100, action: 'PAID' })).toBe('paid');
    expect(paynlStatus({ code: -90, action: 'CANCEL' })).toBe('cancelled');
    expect(paynlStatus({ code: -80, action: 'EXPIRED' })).toBe('expired');
    expect(paynlStatus({ code: -63, action: 'DENIED' })).toBe('failed');
    expect(paynlStatus({ code: -60, action: 'FAILURE' })).toBe('failed');
    expect(paynlStatus({ code: 50, action: 'PENDING' })).toBe('pending');
    expect(paynlStatus(undefined)).toBe('pending');
  });

  it('CRD-09 verifies the exchange signature: right key and body pass; a changed body, another secret, another key or none are refused', async () => {
    expect(await provider.verifyWebhook(exchange('ord1-abcdef'))).toEqual({ ok: true, providerPaymentId: 'ord1-abcdef' });
    expect(await provider.verifyWebhook(exchange('ord1-abcdef', { tamper: true }))).toEqual({ ok: false, reason: 'bad_signature' });
    expect(await provider.verifyWebhook(exchange('ord1-abcdef', { secret: 'b'.repeat(40) }))).toEqual({ ok: false, reason: 'bad_signature' });
    expect(await provider.verifyWebhook(exchange('ord1-abcdef', { keyId: 'AT-9999-9999' }))).toEqual({ ok: false, reason: 'bad_signature' });
    expect(await provider.verifyWebhook(exchange('ord1-abcdef', { unsigned: true }))).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('CRD-09 a provider error (wrong token) is a ProviderError, not a crash', async () => {
    const wrong = new PaynlProvider({ tokenCode: TOKEN_CODE, apiToken: 'x'.repeat(40), serviceId: SERVICE_ID, apiUrl: fake.url });
    await expect(wrong.fetchStatus('ord1-abcdef')).rejects.toMatchObject({ name: 'ProviderError', status: 401 });
  });

  it('CRD-01 CRD-09 through the service: a signed exchange, the status fetched from PAY., the credits granted once, a refund sent', async () => {
    const deps = { db: kit.db, clock, providers: providersOf([provider]) };
    const [site] = await kit.db.select({ id: sites.id }).from(sites).where(eq(sites.isDefault, true));
    const [pkg] = await kit.db.select().from(creditPackages).where(eq(creditPackages.siteId, site!.id)).limit(1);
    const [member] = await kit.db
      .insert(users)
      .values({ siteId: site!.id, email: 'paynl@example.com', language: 'nl', status: 'active', signupDate: new Date('2025-01-01') })
      .returning();
    const started = await startPayment(deps, {
      siteId: site!.id,
      siteName: 'Test',
      member: { id: member!.id, paid_user: false, signup_date: '2025-01-01T00:00:00.000Z' },
      country: 'NL',
      packageId: pkg!.id,
      method: 'card',
      idempotencyKey: 'paynl-key-1',
      origin: 'https://site.test',
    });
    if (started.type !== 'ok') throw new Error(started.reason);
    const orderId = started.payment.providerPaymentId!;
    expect(started.checkoutUrl).toBe(`https://checkout.example/${orderId}`);
    expect(fake.orders.get(orderId)!.body.paymentMethod).toEqual({ id: 706 });
    // The exchange claims "paid" but PAY. still says pending: nothing moves (the status is fetched).
    expect(await applyWebhook(deps, 'paynl', exchange(orderId))).toMatchObject({ type: 'unchanged' });
    fake.set(orderId, 100, 'PAID');
    expect(await applyWebhook(deps, 'paynl', exchange(orderId, { tamper: true }))).toEqual({ type: 'refused', reason: 'bad_signature' });
    expect(await applyWebhook(deps, 'paynl', exchange(orderId))).toMatchObject({ type: 'applied', status: 'paid', granted: true });
    expect(await applyWebhook(deps, 'paynl', exchange(orderId))).toMatchObject({ type: 'unchanged' });
    expect(await balance(kit.db, member!.id)).toBe(pkg!.credits);
    const { refundPayment } = await import('./service');
    expect(await refundPayment(deps, started.payment.id)).toEqual({ type: 'ok', refundId: `refund-${orderId}` });
    expect(fake.refunds).toEqual([{ id: orderId, body: { amount: { value: started.payment.amountCents, currency: 'EUR' } } }]);
    expect(await balance(kit.db, member!.id)).toBe(0);
  });
});
