/**
 * The push transport against a real local HTTP server (SEC-06): it connects to the address its own
 * lookup checked, never looks the name up a second time, and refuses refused addresses before
 * connecting. A made-up host name is answered by an injected resolver, so reaching the local server
 * proves the socket used the checked answer (the system resolver knows no such name).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackAddress } from './addresses';
import { startFakePushService, type FakePushService } from './test-push-service';
import { PushTransport, RefusedAddressError, type ResolvedAddress, type Resolver } from './transport';

let service: FakePushService;
let port: number;

beforeAll(async () => {
  service = await startFakePushService();
  port = Number(new URL(service.origin).port);
});
afterAll(() => service?.close());

/** A resolver that answers from a table and counts its lookups. */
function resolver(answers: Record<string, ResolvedAddress[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    return answers[hostname] ?? [];
  };
  return Object.assign(resolve, { calls });
}

const post = (url: string) => ({ url, method: 'POST', headers: { ttl: '60' }, body: new Uint8Array([1, 2, 3]) });

describe('PushTransport', () => {
  it('SEC-06 connects to the address its lookup checked, with one lookup per connection', async () => {
    const dns = resolver({ 'push-service.example': [{ address: '127.0.0.1', family: 4 }] });
    const transport = new PushTransport({ resolver: dns, allowed: isLoopbackAddress, timeoutMs: 5000 });
    try {
      const before = service.received.length;
      expect(await transport.send(post(`http://push-service.example:${port}/push/pinned`))).toBe(201);
      const request = service.received[before]!;
      expect(request.path).toBe('/push/pinned');
      expect(request.headers.host).toBe(`push-service.example:${port}`);
      expect([...request.body]).toEqual([1, 2, 3]);
      expect(dns.calls).toEqual(['push-service.example']);
    } finally {
      transport.close();
    }
  });

  it('SEC-06 a name that answers a private address is refused before any connection', async () => {
    for (const address of ['127.0.0.1', '10.0.0.7', '169.254.169.254', '100.64.0.1', '::1', 'fd00::1', '::ffff:127.0.0.1', '64:ff9b::7f00:1']) {
      const dns = resolver({ 'push-service.example': [{ address, family: address.includes(':') ? 6 : 4 }] });
      const transport = new PushTransport({ resolver: dns, timeoutMs: 5000 });
      const before = service.received.length;
      const sending = transport.send(post(`http://push-service.example:${port}/push/refused`));
      await expect(sending, address).rejects.toBeInstanceOf(RefusedAddressError);
      await expect(sending).rejects.toMatchObject({ hostname: 'push-service.example', address });
      expect(service.received.length).toBe(before);
      transport.close();
    }
  });

  it('SEC-06 one private address among public ones refuses the name', async () => {
    const dns = resolver({
      'mixed.example': [
        { address: '8.8.8.8', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
    const transport = new PushTransport({ resolver: dns, timeoutMs: 5000 });
    await expect(transport.send(post(`http://mixed.example:${port}/push/x`))).rejects.toMatchObject({ address: '127.0.0.1' });
    transport.close();
  });

  it('SEC-06 an address literal is checked without a lookup; loopback literals only with the test allowance', async () => {
    const dns = resolver({});
    const strict = new PushTransport({ resolver: dns, timeoutMs: 5000 });
    const before = service.received.length;
    await expect(strict.send(post(`${service.origin}/push/literal`))).rejects.toBeInstanceOf(RefusedAddressError);
    expect(service.received.length).toBe(before);
    strict.close();
    const test = new PushTransport({ resolver: dns, allowLoopbackLiterals: true, timeoutMs: 5000 });
    expect(await test.send(post(`${service.origin}/push/literal`))).toBe(201);
    // The allowance is for literals: a name resolving to loopback is still refused.
    const named = new PushTransport({ resolver: resolver({ 'loop.example': [{ address: '127.0.0.1', family: 4 }] }), allowLoopbackLiterals: true, timeoutMs: 5000 });
    await expect(named.send(post(`http://loop.example:${port}/push/named`))).rejects.toBeInstanceOf(RefusedAddressError);
    expect(dns.calls).toEqual([]);
    test.close();
    named.close();
  });
});
