/**
 * Web Push (PUSH-01, PUSH-02): members' browser subscriptions and sending to them with VAPID.
 *
 * `web-push` builds each request (aes128gcm encryption of the payload, the VAPID JWT in
 * `Authorization: vapid t=…, k=…`, `TTL`, `Urgency`) with `generateRequestDetails`; this service sends
 * it with `fetch`, because web-push's own `sendNotification` only speaks HTTPS and tests need a push
 * service on plain HTTP. A 404 or 410 from the push service means the subscription is gone: its row is
 * deleted. Other failures are logged and counted, never thrown at the caller.
 */
import { and, desc, eq, inArray, notInArray } from 'drizzle-orm';
import webpush from 'web-push';
import type { Db } from '../../db/client';
import { pushSubscriptions } from '../../db/schema';
import type { Logger } from '../logger';
import { endpointProblem, type EndpointPolicy, type PushSubscriptionInput } from './subscription';
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

export type SubscribeResult = { type: 'ok' } | { type: 'error'; reason: 'invalid_url' | 'not_https' | 'private_address' };

/** How long a push service keeps an undelivered message (seconds). */
export const PUSH_TTL_SECONDS = 24 * 3600;
/** Most devices one member keeps subscribed; older subscriptions beyond it are dropped. */
export const MAX_SUBSCRIPTIONS_PER_MEMBER = 20;
const SEND_TIMEOUT_MS = 10_000;

export interface PushServiceOptions extends EndpointPolicy {
  db: Db;
  log: Logger;
  /** The fetch used to reach push services (tests may wrap it). */
  fetch?: typeof fetch;
}

export class PushService {
  private readonly fetchImpl: typeof fetch;

  private constructor(
    private readonly options: PushServiceOptions,
    private readonly keys: VapidKeys,
  ) {
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Loads (on first start: creates) the VAPID keys and returns the service. */
  static async create(options: PushServiceOptions): Promise<PushService> {
    return new PushService(options, await ensureVapidKeys(options.db));
  }

  /** The VAPID public key browsers subscribe with (`push_public_key` of the settings). */
  get publicKey(): string {
    return this.keys.publicKey;
  }

  /**
   * Stores a browser's subscription for the member. An endpoint already known (the same browser, maybe
   * signed in as someone else before) moves to this member with its new keys.
   */
  async subscribe(userId: number, input: PushSubscriptionInput): Promise<SubscribeResult> {
    const problem = endpointProblem(input.endpoint, this.options);
    if (problem) return { type: 'error', reason: problem };
    const { db } = this.options;
    await db
      .insert(pushSubscriptions)
      .values({ userId, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { userId, p256dh: input.keys.p256dh, auth: input.keys.auth },
      });
    const keep = db
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(desc(pushSubscriptions.id))
      .limit(MAX_SUBSCRIPTIONS_PER_MEMBER);
    await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, keep)));
    return { type: 'ok' };
  }

  /** Ends one subscription of the member (by endpoint), or all of them. Returns how many were removed. */
  async unsubscribe(userId: number, endpoint?: string): Promise<number> {
    const where = endpoint
      ? and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint))
      : eq(pushSubscriptions.userId, userId);
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
    if (endpointProblem(sub.endpoint, this.options)) {
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
      const headers = new Headers();
      for (const [name, value] of Object.entries(details.headers)) {
        // fetch sets the length itself from the body.
        if (name.toLowerCase() !== 'content-length') headers.set(name, String(value));
      }
      const response = await this.fetchImpl(details.endpoint, {
        method: details.method,
        headers,
        body: details.body ? new Uint8Array(details.body) : null,
        redirect: 'manual',
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.status === 404 || response.status === 410) {
        log.info({ subscriptionId: sub.id, userId: sub.userId, status: response.status }, 'push subscription expired; removing it');
        return 'gone';
      }
      if (response.status < 200 || response.status > 299) {
        log.warn({ subscriptionId: sub.id, userId: sub.userId, status: response.status }, 'push service refused the message');
        return 'failed';
      }
      return 'ok';
    } catch (err) {
      log.warn({ err, subscriptionId: sub.id, userId: sub.userId }, 'push message could not be sent');
      return 'failed';
    }
  }
}
