/**
 * Web Push (PUSH-01, PUSH-02): members' browser subscriptions and sending to them with VAPID.
 *
 * `web-push` builds each request (aes128gcm encryption of the payload, the VAPID JWT in
 * `Authorization: vapid t=…, k=…`, `TTL`, `Urgency`) with `generateRequestDetails`; this service sends
 * it through its {@link PushTransport}, which connects only to checked public addresses (SEC-06) and,
 * for the tests' local push service only, to a loopback address over plain HTTP. A 404 or 410 from the
 * push service means the subscription is gone: its row is deleted. Other failures (a refused address
 * included) are logged and counted, never thrown at the caller.
 *
 * An endpoint belongs to the member who registered it first: registering another member's endpoint is
 * refused (SEC-06), so nobody can take over someone's browser notifications by posting its endpoint.
 */
import { and, desc, eq, inArray, notInArray } from 'drizzle-orm';
import webpush from 'web-push';
import type { Db } from '../../db/client';
import { pushSubscriptions } from '../../db/schema';
import type { Logger } from '../logger';
import { endpointProblem, type EndpointPolicy, type EndpointProblem, type PushSubscriptionInput } from './subscription';
import { PushTransport, RefusedAddressError, type Resolver } from './transport';
import { ensureVapidKeys, type VapidKeys } from './vapid';

/** What the service worker (public/sw.js) shows. */
export interface PushMessage {
  title: string;
  body: string;
  /** Page opened on click (a path on the member's site, or an absolute URL). */
  url: string;
  icon?: string;
  /** Notifications with one tag replace each other on the device. */
  tag?: string;
}

export interface PushDelivery {
  /** Subscriptions the push service accepted. */
  sent: number;
  /** Subscriptions the push service reported gone (404/410); deleted. */
  removed: number;
  /** Other failures (logged). */
  failed: number;
}

/**
 * `endpoint_in_use`: the endpoint is registered to another member (who, is not told). The browser can
 * make a new subscription (a new endpoint) and register that one.
 */
export type SubscribeResult = { type: 'ok' } | { type: 'error'; reason: EndpointProblem | 'endpoint_in_use' };

/** How long a push service keeps an undelivered message (seconds). */
export const PUSH_TTL_SECONDS = 24 * 3600;
/** Most devices one member keeps subscribed; older subscriptions beyond it are dropped. */
export const MAX_SUBSCRIPTIONS_PER_MEMBER = 20;
const SEND_TIMEOUT_MS = 10_000;

export interface PushServiceOptions {
  db: Db;
  log: Logger;
  /** Which endpoints are accepted and sent to (`pushEndpointPolicy(config)` in the app). */
  endpoints: EndpointPolicy;
  /** Resolves push service host names (the system resolver by default; tests inject their own answers). */
  resolver?: Resolver;
}

export class PushService {
  private readonly transport: PushTransport;

  private constructor(
    private readonly options: PushServiceOptions,
    private readonly keys: VapidKeys,
  ) {
    this.transport = new PushTransport({
      resolver: options.resolver,
      allowLoopbackLiterals: options.endpoints.allowLoopbackHttp,
      timeoutMs: SEND_TIMEOUT_MS,
    });
  }

  /** Loads (on first start: creates) the VAPID keys and returns the service. */
  static async create(options: PushServiceOptions): Promise<PushService> {
    return new PushService(options, await ensureVapidKeys(options.db));
  }

  /** Closes the kept-alive connections to push services. */
  close(): void {
    this.transport.close();
  }

  /** The VAPID public key browsers subscribe with (`push_public_key` of the settings). */
  get publicKey(): string {
    return this.keys.publicKey;
  }

  /**
   * Stores a browser's subscription for the member. The member's own endpoint registered again takes the
   * new keys; an endpoint registered to another member stays theirs and is refused (`endpoint_in_use`),
   * in one statement, so two members racing for one endpoint cannot both get it.
   */
  async subscribe(userId: number, input: PushSubscriptionInput): Promise<SubscribeResult> {
    const problem = endpointProblem(input.endpoint, this.options.endpoints);
    if (problem) return { type: 'error', reason: problem };
    const { db } = this.options;
    const stored = await db
      .insert(pushSubscriptions)
      .values({ userId, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { p256dh: input.keys.p256dh, auth: input.keys.auth },
        setWhere: eq(pushSubscriptions.userId, userId),
      })
      .returning({ id: pushSubscriptions.id });
    if (stored.length === 0) return { type: 'error', reason: 'endpoint_in_use' };
    const keep = db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).orderBy(desc(pushSubscriptions.id)).limit(MAX_SUBSCRIPTIONS_PER_MEMBER);
    await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, keep)));
    return { type: 'ok' };
  }

  /** Ends one subscription of the member (by endpoint), or all of them. Returns how many were removed. */
  async unsubscribe(userId: number, endpoint?: string): Promise<number> {
    const where = endpoint ? and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)) : eq(pushSubscriptions.userId, userId);
    const removed = await this.options.db.delete(pushSubscriptions).where(where).returning({ id: pushSubscriptions.id });
    return removed.length;
  }

  /** The member's subscriptions (newest first). */
  async subscriptionsOf(userId: number) {
    return this.options.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).orderBy(desc(pushSubscriptions.id));
  }

  /**
   * Sends `message` to every subscription of the member, in parallel.
   * @param subject the VAPID contact (`mailto:` the site's support address).
   */
  async sendToUser(userId: number, message: PushMessage, subject: string): Promise<PushDelivery> {
    const subscriptions = await this.subscriptionsOf(userId);
    const delivery: PushDelivery = { sent: 0, removed: 0, failed: 0 };
    const gone: number[] = [];
    const payload = JSON.stringify({ icon: '/favicon.svg', ...message });
    await Promise.all(
      subscriptions.map(async (sub) => {
        const outcome = await this.sendOne(sub, payload, subject);
        if (outcome === 'gone') gone.push(sub.id);
        delivery[outcome === 'ok' ? 'sent' : outcome === 'gone' ? 'removed' : 'failed'] += 1;
      }),
    );
    if (gone.length > 0) await this.options.db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, gone));
    return delivery;
  }

  private async sendOne(sub: { id: number; userId: number; endpoint: string; p256dh: string; auth: string }, payload: string, subject: string): Promise<'ok' | 'gone' | 'failed'> {
    const { log } = this.options;
    if (endpointProblem(sub.endpoint, this.options.endpoints)) {
      log.warn({ subscriptionId: sub.id }, 'push endpoint no longer allowed; removing it');
      return 'gone';
    }
    try {
      const details = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, payload, {
        vapidDetails: { subject, publicKey: this.keys.publicKey, privateKey: this.keys.privateKey },
        TTL: PUSH_TTL_SECONDS,
        urgency: 'high',
        contentEncoding: 'aes128gcm',
      });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(details.headers)) {
        // The transport sets the length from the body.
        if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
      }
      const status = await this.transport.send({
        url: details.endpoint,
        method: details.method,
        headers,
        body: details.body ? new Uint8Array(details.body) : null,
      });
      if (status === 404 || status === 410) {
        log.info({ subscriptionId: sub.id, userId: sub.userId, status }, 'push subscription expired; removing it');
        return 'gone';
      }
      if (status < 200 || status > 299) {
        log.warn({ subscriptionId: sub.id, userId: sub.userId, status }, 'push service refused the message');
        return 'failed';
      }
      return 'ok';
    } catch (err) {
      if (err instanceof RefusedAddressError) {
        // Kept: the host is a listed push service, so this is its DNS (or ours) misbehaving, not the subscription.
        log.warn({ subscriptionId: sub.id, userId: sub.userId, host: err.hostname, address: err.address, reason: 'private_address' }, 'push service host resolves to a refused address; not sent');
        return 'failed';
      }
      log.warn({ err, subscriptionId: sub.id, userId: sub.userId }, 'push message could not be sent');
      return 'failed';
    }
  }
}
