/** Who may read the offline outbox (/dev/mail): the rule alone; tests/integration/mail-viewer.test.ts takes it over HTTP. */
import { describe, expect, it } from 'vitest';
import { isLoopbackAddress, isLoopbackHost, outboxAccess, type OutboxAccessInput } from './outbox-access';

function input(overrides: Partial<Omit<OutboxAccessInput, 'headers'>> & { headers?: Record<string, string> } = {}): OutboxAccessInput {
  return {
    smtp: overrides.smtp ?? false,
    behindProxy: overrides.behindProxy ?? false,
    clientIp: overrides.clientIp === undefined ? '127.0.0.1' : overrides.clientIp,
    headers: new Headers({ host: 'localhost:4321', ...overrides.headers }),
  };
}

describe('outbox access (/dev/mail)', () => {
  it('ACT-01 a loopback client without SMTP reads the outbox (IPv4, IPv6, mapped IPv4)', () => {
    for (const clientIp of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.0.1.1']) {
      expect(outboxAccess(input({ clientIp }))).toEqual({ allowed: true });
    }
    for (const host of ['localhost', '127.0.0.1:4321', '[::1]:4321', 'app.localhost']) {
      expect(outboxAccess(input({ headers: { host } }))).toEqual({ allowed: true });
    }
  });

  it('ACT-01 a client that is not loopback is refused', () => {
    for (const clientIp of ['192.168.1.20', '10.0.0.1', '203.0.113.9', '::ffff:192.0.2.1', '2001:db8::1', null]) {
      expect(outboxAccess(input({ clientIp }))).toEqual({ allowed: false, reason: 'not_loopback' });
    }
  });

  it('ACT-01 a request through a proxy is refused: TRUST_PROXY on, or any forwarding header', () => {
    expect(outboxAccess(input({ behindProxy: true }))).toEqual({ allowed: false, reason: 'proxy' });
    for (const [name, value] of [
      ['x-forwarded-for', '127.0.0.1'],
      ['forwarded', 'for=127.0.0.1'],
      ['x-real-ip', '127.0.0.1'],
      ['x-forwarded-proto', 'https'],
      ['x-forwarded-host', 'localhost'],
      ['via', '1.1 nginx'],
    ] as const) {
      expect(outboxAccess(input({ headers: { [name]: value } }))).toEqual({ allowed: false, reason: 'proxy' });
    }
  });

  it('ACT-01 with SMTP configured the outbox is a record, not a delivery: refused even on loopback', () => {
    expect(outboxAccess(input({ smtp: true }))).toEqual({ allowed: false, reason: 'smtp' });
  });

  it('ACT-01 a host that is not a loopback name (DNS rebinding) is refused', () => {
    for (const host of ['evil.example', 'evil.example:4321', 'localhost.evil.example', '192.168.1.20:4321', '']) {
      expect(outboxAccess(input({ headers: { host } })).allowed).toBe(false);
    }
  });

  it('loopback helpers', () => {
    expect(isLoopbackAddress('127.255.0.1')).toBe(true);
    expect(isLoopbackAddress('128.0.0.1')).toBe(false);
    expect(isLoopbackAddress('::2')).toBe(false);
    expect(isLoopbackAddress('garbage')).toBe(false);
    expect(isLoopbackHost('LOCALHOST:80')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('[2001:db8::1]:80')).toBe(false);
  });
});
