/**
 * Sending SMS (the direct-debit codes, DD-02; docs/decisions/042-direct-debit-and-sms.md).
 * - `OutboxSmsProvider` (default): the message is a row of `sms_outbox`, read through the development
 *   viewer /dev/sms, which only this machine may open while no gateway is configured (`canReadSmsOutbox`).
 * - `HttpSmsProvider`: a JSON POST to an HTTP SMS gateway (`SMS_GATEWAY_URL`, bearer `SMS_GATEWAY_TOKEN`),
 *   `{ from, to, text, reference }`, answered with `{ id }`; every message is recorded in `sms_outbox`
 *   with its status, like mail with SMTP.
 */
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { smsOutbox } from '../../db/schema';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { outboxAccess } from '../mail/outbox-access';

export interface SmsMessage {
  siteId: number | null;
  userId: number | null;
  /** What the message is for ('directdebit_code'). */
  kind: string;
  /** E.164. */
  to: string;
  text: string;
}

export interface SmsProvider {
  /** 'outbox' (offline, read through /dev/sms) or 'http' (a real gateway). */
  readonly mode: 'outbox' | 'http';
  /** Sends (or keeps) the message; throws SmsError when the gateway refused it. */
  send(message: SmsMessage): Promise<{ id: number; providerMessageId: string | null }>;
}

export class SmsError extends Error {
  constructor(
    message: string,
    public readonly status?: number,
  ) {
    super(message);
    this.name = 'SmsError';
  }
}

export type SmsRow = typeof smsOutbox.$inferSelect;

export class OutboxSmsProvider implements SmsProvider {
  readonly mode = 'outbox' as const;
  constructor(private readonly db: Db) {}

  async send(message: SmsMessage) {
    const [row] = await this.db
      .insert(smsOutbox)
      .values({ siteId: message.siteId, userId: message.userId, kind: message.kind, toNumber: message.to, text: message.text, status: 'outbox' })
      .returning({ id: smsOutbox.id });
    return { id: row!.id, providerMessageId: null };
  }
}

export interface HttpSmsOptions {
  url: string;
  token: string;
  sender: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  log?: Logger;
}

export class HttpSmsProvider implements SmsProvider {
  readonly mode = 'http' as const;
  private readonly send_: typeof fetch;
  constructor(
    private readonly db: Db,
    private readonly options: HttpSmsOptions,
  ) {
    this.send_ = options.fetch ?? fetch;
  }

  async send(message: SmsMessage) {
    const [row] = await this.db
      .insert(smsOutbox)
      .values({ siteId: message.siteId, userId: message.userId, kind: message.kind, toNumber: message.to, text: message.text, status: 'outbox' })
      .returning({ id: smsOutbox.id });
    const id = row!.id;
    try {
      const res = await this.send_(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${this.options.token}` },
        body: JSON.stringify({ from: this.options.sender, to: message.to, text: message.text, reference: `sms-${id}` }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
      const body = (await res.json().catch(() => null)) as { id?: unknown } | null;
      if (!res.ok) throw new SmsError(`SMS gateway answered ${res.status}`, res.status);
      const providerMessageId = body && (typeof body.id === 'string' || typeof body.id === 'number') ? String(body.id).slice(0, 100) : null;
      await this.db.update(smsOutbox).set({ status: 'sent', providerMessageId }).where(eq(smsOutbox.id, id));
      return { id, providerMessageId };
    } catch (err) {
      const error = err instanceof SmsError ? err : new SmsError(`SMS gateway not reachable: ${(err as Error).message}`);
      await this.db
        .update(smsOutbox)
        .set({ status: 'failed', error: error.message.slice(0, 500) })
        .where(eq(smsOutbox.id, id));
      this.options.log?.warn({ err: error, smsId: id }, 'SMS not sent');
      throw error;
    }
  }
}

const providers = new WeakMap<object, SmsProvider>();

/** The SMS provider of an app: the HTTP gateway when configured, else the offline outbox. One per database. */
export function smsProvider(app: { db: Db; config: Pick<Config, 'SMS_GATEWAY_URL' | 'SMS_GATEWAY_TOKEN' | 'SMS_SENDER' | 'production'>; log?: Logger }): SmsProvider {
  let provider = providers.get(app.db);
  if (!provider) {
    const c = app.config;
    if (c.SMS_GATEWAY_URL && c.SMS_GATEWAY_TOKEN) provider = new HttpSmsProvider(app.db, { url: c.SMS_GATEWAY_URL, token: c.SMS_GATEWAY_TOKEN, sender: c.SMS_SENDER, log: app.log });
    else {
      if (c.production) app.log?.warn('sms: no gateway configured, codes stay in the SMS outbox (/dev/sms, this machine only)');
      provider = new OutboxSmsProvider(app.db);
    }
    providers.set(app.db, provider);
  }
  return provider;
}

/** The mail viewer's rule for /dev/sms: this machine only, directly, and only while no gateway delivers. */
export function canReadSmsOutbox(ctx: { app: Parameters<typeof smsProvider>[0] & { config: Pick<Config, 'trustedProxies'> }; clientIp: string | null }, headers: Headers): boolean {
  return outboxAccess({
    smtp: smsProvider(ctx.app).mode === 'http',
    behindProxy: ctx.app.config.trustedProxies !== null,
    clientIp: ctx.clientIp,
    headers,
  }).allowed;
}

/** The newest messages, optionally to one number (the viewer). */
export async function recentSms(db: Db, limit = 100, to?: string): Promise<SmsRow[]> {
  const query = db.select().from(smsOutbox);
  return (to ? query.where(eq(smsOutbox.toNumber, to)) : query).orderBy(desc(smsOutbox.id)).limit(limit);
}
