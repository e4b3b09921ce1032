/** Web Push against a real database and a real (local) push service: VAPID keys, subscriptions, sending. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client';
import { appSecrets, pushSubscriptions, users } from '../../db/schema';
import { seedDemo, DEMO_ACCOUNTS } from '../../db/seed';
import { LocalPhotoStore } from '../photos/store';
import { SiteDirectory } from '../sites/directory';
import { PushService } from './service';
import { endpointProblem, pushSubscriptionSchema } from './subscription';
import { decryptPush, fakeBrowserKeys, startFakePushService, verifyVapidHeader, type FakePushService } from './test-push-service';
import { ensureVapidKeys, VAPID_SECRET_KEY } from './vapid';

const log = pino({ level: 'silent' });
const clock = { now: () => new Date() };
let database: Database;
let dir: string;
let pushService: FakePushService;
let userId: number;
let otherUserId: number;

beforeAll(async () => {
  database = await openDatabase('memory://');
  dir = await mkdtemp(join(tmpdir(), 'push-'));
  await seedDemo({ db: database.db, photos: new LocalPhotoStore(dir), clock, profilesPerSite: 2 });
  const [free] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ACCOUNTS.free.email)).limit(1);
  const [premium] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ACCOUNTS.premium.email)).limit(1);
  userId = free!.id;
  otherUserId = premium!.id;
  pushService = await startFakePushService((path) => (path.includes('gone') ? 410 : path.includes('missing') ? 404 : path.includes('broken') ? 500 : 201));
});
afterAll(async () => {
  await pushService?.close();
  await database?.close();
  await rm(dir, { recursive: true, force: true });
});

const service = () => PushService.create({ db: database.db, log, allowLoopbackHttp: true });

describe('VAPID keys', () => {
  it('PUSH-01 the key pair is generated on first start, kept in app_secrets, and the same for every later start and process', async () => {
    const [first, second] = await Promise.all([service(), service()]);
    const third = await service();
    expect(first.publicKey).toBe(second.publicKey);
    expect(third.publicKey).toBe(first.publicKey);
    const rows = await database.db.select().from(appSecrets).where(eq(appSecrets.key, VAPID_SECRET_KEY));
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.value).publicKey).toBe(first.publicKey);
    // An uncompressed P-256 point: what browsers take as applicationServerKey.
    const point = Buffer.from(first.publicKey, 'base64url');
    expect(point).toHaveLength(65);
    expect(point[0]).toBe(4);
    expect((await ensureVapidKeys(database.db)).publicKey).toBe(first.publicKey);
  });

  it('PUSH-01 the settings carry the VAPID public key as push_public_key', async () => {
    const push = await service();
    const site = await new SiteDirectory(database.db, clock, 0, { pushPublicKey: push.publicKey }).forHost('localhost');
    expect(site.settings.push_public_key).toBe(push.publicKey);
  });
});

describe('subscriptions', () => {
  it('PUSH-01 a browser subscription is checked: 65-byte p256dh, 16-byte auth', () => {
    const good = fakeBrowserKeys().subscription('https://push.example/abc');
    expect(pushSubscriptionSchema.safeParse(good).success).toBe(true);
    expect(pushSubscriptionSchema.safeParse({ ...good, keys: { ...good.keys, p256dh: 'AAAA' } }).success).toBe(false);
    expect(pushSubscriptionSchema.safeParse({ ...good, keys: { ...good.keys, auth: Buffer.alloc(8).toString('base64url') } }).success).toBe(false);
    expect(pushSubscriptionSchema.safeParse({ endpoint: good.endpoint }).success).toBe(false);
  });

  it('PUSH-01 endpoints must be HTTPS; plain HTTP only to loopback outside production; no private addresses in production', () => {
    const prod = { allowLoopbackHttp: false };
    const dev = { allowLoopbackHttp: true };
    expect(endpointProblem('https://fcm.googleapis.com/fcm/send/abc', prod)).toBeNull();
    expect(endpointProblem('http://push.example/abc', prod)).toBe('not_https');
    expect(endpointProblem('http://127.0.0.1:9/push/1', prod)).toBe('not_https');
    expect(endpointProblem('http://127.0.0.1:9/push/1', dev)).toBeNull();
    expect(endpointProblem('http://push.example/abc', dev)).toBe('not_https');
    expect(endpointProblem('https://10.0.0.5/push', prod)).toBe('private_address');
    expect(endpointProblem('https://[::1]/push', prod)).toBe('private_address');
    expect(endpointProblem('https://user:pw@push.example/x', prod)).toBe('invalid_url');
    expect(endpointProblem('ftp://push.example/x', prod)).toBe('not_https');
    expect(endpointProblem('not a url', prod)).toBe('invalid_url');
  });

  it('PUSH-01 subscribing stores the subscription; the same endpoint moves to whoever subscribes it last; unsubscribe removes it', async () => {
    const push = await service();
    const keys = fakeBrowserKeys();
    const endpoint = `${pushService.origin}/push/shared-browser`;
    expect(await push.subscribe(userId, keys.subscription(endpoint))).toEqual({ type: 'ok' });
    expect((await push.subscriptionsOf(userId)).map((s) => s.endpoint)).toContain(endpoint);
    const newKeys = fakeBrowserKeys();
    await push.subscribe(otherUserId, newKeys.subscription(endpoint));
    expect((await push.subscriptionsOf(userId)).map((s) => s.endpoint)).not.toContain(endpoint);
    const moved = (await push.subscriptionsOf(otherUserId)).find((s) => s.endpoint === endpoint);
    expect(moved?.p256dh).toBe(newKeys.subscription(endpoint).keys.p256dh);
    expect(await push.unsubscribe(userId, endpoint)).toBe(0);
    expect(await push.unsubscribe(otherUserId, endpoint)).toBe(1);
    expect(await push.subscriptionsOf(otherUserId)).toHaveLength(0);
  });

  it('PUSH-01 a refused endpoint is not stored', async () => {
    const push = await PushService.create({ db: database.db, log, allowLoopbackHttp: false });
    const result = await push.subscribe(userId, fakeBrowserKeys().subscription('http://127.0.0.1:1/push/x'));
    expect(result).toEqual({ type: 'error', reason: 'not_https' });
    expect(await database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, 'http://127.0.0.1:1/push/x'))).toHaveLength(0);
  });
});

describe('sending', () => {
  it('PUSH-02 a push message leaves as an encrypted aes128gcm POST with TTL and a VAPID signature the browser can read', async () => {
    const push = await service();
    const keys = fakeBrowserKeys();
    const endpoint = `${pushService.origin}/push/device-1`;
    await push.subscribe(userId, keys.subscription(endpoint));
    const before = pushService.received.length;
    const delivery = await push.sendToUser(userId, { title: 'Nieuw bericht', body: 'Sanne heeft je een bericht gestuurd', url: '/chats/7', tag: 'new_message-3' }, 'mailto:support@flirtlokaal.nl');
    expect(delivery).toEqual({ sent: 1, removed: 0, failed: 0 });
    const request = pushService.received[before]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/push/device-1');
    expect(Number(request.headers.ttl)).toBeGreaterThan(0);
    expect(request.headers['content-encoding']).toBe('aes128gcm');
    expect(request.headers['content-type']).toBe('application/octet-stream');
    const { k, claims } = verifyVapidHeader(request.headers.authorization, pushService.origin);
    expect(k).toBe(push.publicKey);
    expect(claims.sub).toBe('mailto:support@flirtlokaal.nl');
    // Encrypted: the text is not readable on the wire, but the browser's keys open it.
    expect(request.body.toString('latin1')).not.toContain('Sanne');
    expect(JSON.parse(decryptPush(request.body, keys))).toEqual({ icon: '/favicon.svg', title: 'Nieuw bericht', body: 'Sanne heeft je een bericht gestuurd', url: '/chats/7', tag: 'new_message-3' });
    await push.unsubscribe(userId);
  });

  it('PUSH-02 a subscription the push service reports gone (410, 404) is deleted; other failures are counted and kept', async () => {
    const push = await service();
    for (const name of ['gone', 'missing', 'broken', 'fine']) await push.subscribe(userId, fakeBrowserKeys().subscription(`${pushService.origin}/push/${name}`));
    const delivery = await push.sendToUser(userId, { title: 't', body: 'b', url: '/' }, 'mailto:support@flirtlokaal.nl');
    expect(delivery).toEqual({ sent: 1, removed: 2, failed: 1 });
    const left = (await push.subscriptionsOf(userId)).map((s) => s.endpoint.replace(`${pushService.origin}/push/`, '')).sort();
    expect(left).toEqual(['broken', 'fine']);
    await push.unsubscribe(userId);
  });

  it('PUSH-02 an unreachable push service is a logged failure, not an exception', async () => {
    const push = await service();
    await push.subscribe(userId, fakeBrowserKeys().subscription('http://127.0.0.1:1/push/nobody-listens'));
    expect(await push.sendToUser(userId, { title: 't', body: 'b', url: '/' }, 'mailto:support@flirtlokaal.nl')).toEqual({ sent: 0, removed: 0, failed: 1 });
    await push.unsubscribe(userId);
  });
});
