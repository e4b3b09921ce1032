/**
 * Test support (not used by the app): a local HTTP server standing in for a browser vendor's push
 * service, and a fake browser's push keys that can decrypt what it receives (RFC 8291 aes128gcm) and
 * check the VAPID signature (RFC 8292). Tests use it to see a real Web Push request leave the app.
 */
import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPush {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface FakePushService {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  received: ReceivedPush[];
  /** Resolves with the next request that arrives (or one already received beyond `count`). */
  next(count?: number): Promise<ReceivedPush>;
  close(): Promise<void>;
}

/** Starts the push service; `status(path)` picks each answer (201 Created, as real push services answer). */
export async function startFakePushService(status: (path: string) => number = () => 201): Promise<FakePushService> {
  const received: ReceivedPush[] = [];
  const waiters: { count: number; resolve: (r: ReceivedPush) => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      received.push(entry);
      for (const waiter of waiters.splice(0)) {
        if (received.length > waiter.count) waiter.resolve(received[waiter.count]!);
        else waiters.push(waiter);
      }
      res.statusCode = status(entry.path);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    next: (count = received.length) => (received.length > count ? Promise.resolve(received[count]!) : new Promise((resolve) => waiters.push({ count, resolve }))),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface FakeBrowserKeys {
  ecdh: ECDH;
  authSecret: Buffer;
  /** The subscription a browser would send for `endpoint`. */
  subscription(endpoint: string): { endpoint: string; keys: { p256dh: string; auth: string } };
}

/** A browser's push key pair (P-256) and 16-byte auth secret. */
export function fakeBrowserKeys(): FakeBrowserKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return {
    ecdh,
    authSecret,
    subscription: (endpoint) => ({ endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') } }),
  };
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** Decrypts an aes128gcm Web Push body (one record) as the browser would (RFC 8291 §3.4, RFC 8188). */
export function decryptPush(body: Buffer, keys: FakeBrowserKeys): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const senderPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = keys.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), senderPublic]);
  const ikm = hmac(hmac(keys.authSecret, shared), Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('not a final aes128gcm record');
  return padded.subarray(0, end).toString('utf8');
}

/**
 * Checks a `vapid t=<jwt>, k=<public key>` header: the JWT is ES256-signed by `k`, addressed to
 * `audience`, not expired. Returns its claims and key.
 */
export function verifyVapidHeader(header: string | undefined, audience: string): { k: string; claims: { aud: string; exp: number; sub: string } } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`not a VAPID Authorization header: ${header}`);
  const [jwt, k] = [match[1]!, match[2]!];
  const [head, payload, signature] = jwt.split('.') as [string, string, string];
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') }, format: 'jwk' });
  const ok = verify('sha256', Buffer.from(`${head}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!ok) throw new Error('VAPID signature does not verify');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string };
  if (claims.aud !== audience) throw new Error(`VAPID audience ${claims.aud} is not ${audience}`);
  if (claims.exp * 1000 <= Date.now()) throw new Error('VAPID token expired');
  return { k, claims };
}
