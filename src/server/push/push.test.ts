/** Web Push against a real database and a real (local) push service: VAPID keys, subscriptions, sending. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client';
import { appSecrets, pushSubscriptions, users } from '../../db/schema';
import { seedDemo, DEMO_ACCOUNTS } from '../../demo/seed';
import { LocalPhotoStore } from '../photos/store';
import { SiteDirectory } from '../sites/directory';
import { PushService } from './service';
import { DEFAULT_PUSH_SERVICE_HOSTS } from '../config/push-service-hosts';
import { endpointProblem, pushSubscriptionSchema, type EndpointPolicy } from './subscription';
import { decryptPush, fakeBrowserKeys, startFakePushService, verifyVapidHeader, type FakePushService } from './test-push-service';
import type { Resolver } from './transport';
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

/** Production's rule: the real push services only. */
const PRODUCTION: EndpointPolicy = { serviceHosts: DEFAULT_PUSH_SERVICE_HOSTS, allowLoopbackHttp: false };
/** The tests' rule (NODE_ENV=test): also plain HTTP to a loopback literal, where the local push service listens. */
const TEST: EndpointPolicy = { serviceHosts: DEFAULT_PUSH_SERVICE_HOSTS, allowLoopbackHttp: true };

const service = () => PushService.create({ db: database.db, log, endpoints: TEST });

/** The endpoints the audit got accepted (SEC-06), and other ways around a host list. */
const HOSTILE_ENDPOINTS = [
  'https://localtest.me/push',
  'https://metadata.google.internal/computeMetadata/v1/instance',
  'https://100.64.0.1/push',
  'https://[::127.0.0.1]/push',
  'https://[64:ff9b::7f00:1]/push',
  'https://169.254.169.254/latest/meta-data/',
  'https://10.0.0.5/push',
  'https://[::1]/push',
  'https://[::ffff:7f00:1]/push',
  'https://2130706433/push',
  'https://0x7f.1/push',
  'https://localhost/push',
  'https://push.example/abc',
  'https://fcm.googleapis.com.evil.example/fcm/send/x',
  'https://evilfcm.googleapis.com/fcm/send/x',
  'https://fcm.googleapis.com./fcm/send/x',
  'https://fcm.googleapis.com:8443/fcm/send/x',
  'https://notify.windows.com/w/?token=x',
  'https://push.apple.com/x',
  'https://apple.com/x',
  'http://fcm.googleapis.com/fcm/send/x',
  'http://localtest.me:8080/push',
];

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

  it('SEC-06 PUSH-01 only HTTPS endpoints of the known push services pass; plain HTTP only to a loopback literal under the test rule', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc:APA91b',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk',
      'https://wns2-db5p.notify.windows.com/w/?token=BQYAAAB',
      'https://web.push.apple.com/QGxV3Xn',
      'https://FCM.googleapis.com/fcm/send/abc',
    ]) {
      expect(endpointProblem(endpoint, PRODUCTION), endpoint).toBeNull();
    }
    expect(endpointProblem('http://127.0.0.1:9/push/1', PRODUCTION)).toBe('not_https');
    expect(endpointProblem('http://127.0.0.1:9/push/1', TEST)).toBeNull();
    expect(endpointProblem('http://[::1]:9/push/1', TEST)).toBeNull();
    expect(endpointProblem('http://localhost:9/push/1', TEST)).toBe('not_https');
    expect(endpointProblem('http://push.example/abc', TEST)).toBe('not_https');
    expect(endpointProblem('https://localtest.me/push', PRODUCTION)).toBe('unknown_push_service');
    expect(endpointProblem('https://metadata.google.internal/', PRODUCTION)).toBe('unknown_push_service');
    expect(endpointProblem('https://100.64.0.1/push', PRODUCTION)).toBe('private_address');
    expect(endpointProblem('https://[::127.0.0.1]/push', PRODUCTION)).toBe('private_address');
    expect(endpointProblem('https://[64:ff9b::7f00:1]/push', PRODUCTION)).toBe('private_address');
    expect(endpointProblem('https://8.8.8.8/push', PRODUCTION)).toBe('unknown_push_service');
    expect(endpointProblem('https://user:pw@fcm.googleapis.com/x', PRODUCTION)).toBe('invalid_url');
    expect(endpointProblem('ftp://fcm.googleapis.com/x', PRODUCTION)).toBe('not_https');
    expect(endpointProblem('not a url', PRODUCTION)).toBe('invalid_url');
    for (const endpoint of HOSTILE_ENDPOINTS) expect(endpointProblem(endpoint, PRODUCTION), endpoint).not.toBeNull();
    // A configured list replaces the default one.
    expect(endpointProblem('https://push.example.org/x', { serviceHosts: ['*.example.org'], allowLoopbackHttp: false })).toBeNull();
    expect(endpointProblem('https://fcm.googleapis.com/x', { serviceHosts: ['*.example.org'], allowLoopbackHttp: false })).toBe('unknown_push_service');
  });

  it("SEC-06 PUSH-01 the audit's endpoints and others off the push services are refused at subscribe and not stored", async () => {
    const push = await PushService.create({ db: database.db, log, endpoints: PRODUCTION });
    for (const endpoint of HOSTILE_ENDPOINTS) {
      const result = await push.subscribe(userId, fakeBrowserKeys().subscription(endpoint));
      expect(result.type, endpoint).toBe('error');
    }
    const stored = await database.db.select({ endpoint: pushSubscriptions.endpoint }).from(pushSubscriptions).where(inArray(pushSubscriptions.endpoint, HOSTILE_ENDPOINTS));
    expect(stored).toEqual([]);
  });

  it("SEC-06 PUSH-01 another member's endpoint is not moved: refused, it stays with its owner and keeps its keys", async () => {
    const push = await service();
    const keys = fakeBrowserKeys();
    const endpoint = `${pushService.origin}/push/shared-browser`;
    expect(await push.subscribe(userId, keys.subscription(endpoint))).toEqual({ type: 'ok' });
    expect((await push.subscriptionsOf(userId)).map((s) => s.endpoint)).toContain(endpoint);
    const attacker = fakeBrowserKeys();
    expect(await push.subscribe(otherUserId, attacker.subscription(endpoint))).toEqual({ type: 'error', reason: 'endpoint_in_use' });
    const [row] = await database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
    expect(row).toMatchObject({ userId, p256dh: keys.subscription(endpoint).keys.p256dh, auth: keys.subscription(endpoint).keys.auth });
    expect(await push.subscriptionsOf(otherUserId)).toHaveLength(0);
    // The owner's own browser registering again (new keys) is fine.
    const renewed = fakeBrowserKeys();
    expect(await push.subscribe(userId, renewed.subscription(endpoint))).toEqual({ type: 'ok' });
    expect((await push.subscriptionsOf(userId)).find((s) => s.endpoint === endpoint)?.p256dh).toBe(renewed.subscription(endpoint).keys.p256dh);
    // Others cannot end it either; the owner can.
    expect(await push.unsubscribe(otherUserId, endpoint)).toBe(0);
    expect(await push.unsubscribe(userId, endpoint)).toBe(1);
    // Once ended, the endpoint is free (a browser that left the first member).
    expect(await push.subscribe(otherUserId, attacker.subscription(endpoint))).toEqual({ type: 'ok' });
    await push.unsubscribe(otherUserId);
  });

  it('SEC-06 two members registering one new endpoint at once: exactly one gets it', async () => {
    const push = await service();
    const endpoint = `${pushService.origin}/push/race`;
    const results = await Promise.all([push.subscribe(userId, fakeBrowserKeys().subscription(endpoint)), push.subscribe(otherUserId, fakeBrowserKeys().subscription(endpoint))]);
    expect(results.filter((r) => r.type === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r.type === 'error' && r.reason === 'endpoint_in_use')).toHaveLength(1);
    expect(await database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint))).toHaveLength(1);
    await push.unsubscribe(userId);
    await push.unsubscribe(otherUserId);
  });

  it('PUSH-01 a refused endpoint is not stored', async () => {
    const push = await PushService.create({ db: database.db, log, endpoints: PRODUCTION });
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

describe('sending: where the push service host leads (SEC-06)', () => {
  it('SEC-06 a listed push service whose DNS answers a private address is refused at send time; the subscription is kept', async () => {
    const lines: string[] = [];
    const capture = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    let answer = '127.0.0.1';
    const lookups: string[] = [];
    const resolver: Resolver = async (hostname) => {
      lookups.push(hostname);
      return [{ address: answer, family: answer.includes(':') ? 6 : 4 }];
    };
    const push = await PushService.create({ db: database.db, log: capture, endpoints: { serviceHosts: ['push.example.org'], allowLoopbackHttp: false }, resolver });
    try {
      const endpoint = 'https://push.example.org/push/rebound';
      expect(await push.subscribe(userId, fakeBrowserKeys().subscription(endpoint))).toEqual({ type: 'ok' });
      for (const address of ['127.0.0.1', '10.1.2.3', '169.254.169.254', '100.64.0.1', '::1', 'fd00::5', '::ffff:10.0.0.1', '64:ff9b::a9fe:a9fe']) {
        answer = address;
        lines.length = 0;
        const before = lookups.length;
        expect(await push.sendToUser(userId, { title: 't', body: 'b', url: '/' }, 'mailto:support@flirtlokaal.nl'), address).toEqual({ sent: 0, removed: 0, failed: 1 });
        expect(lookups.length).toBe(before + 1);
        const logged = lines.map((l) => JSON.parse(l) as { msg: string; reason?: string; address?: string });
        expect(logged, address).toContainEqual(expect.objectContaining({ reason: 'private_address', address }));
      }
      expect((await push.subscriptionsOf(userId)).map((s) => s.endpoint)).toEqual([endpoint]);
    } finally {
      push.close();
      await push.unsubscribe(userId);
    }
  });
});
