import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, serverProcesses } from '.';

describe('configuration', () => {
  it('defaults: port 4321, PGlite in ./data, demo seed on', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(4321);
    expect(c.databaseUrl).toMatch(/data[/\\]pglite$/);
    expect(c.SEED_DEMO).toBe(true);
    expect(c.COUNTRY_HEADER).toBe('cf-ipcountry');
  });

  it('DATABASE_URL switches to PostgreSQL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).databaseUrl).toBe('postgres://u@h:5432/db');
  });

  it('a bad value stops start with a message naming every bad variable', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SEED_DEMO: 'maybe' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PORT="eighty"');
    expect(message).toContain('DATABASE_URL="mysql://x"');
    expect(message).toContain('SEED_DEMO="maybe"');
  });

  it("SEC-06 PUSH_SERVICE_HOSTS: the browsers' push services by default; a list of names or *.suffix entries, never addresses or bare top-level names", () => {
    expect(loadConfig({}).pushServiceHosts).toEqual(['fcm.googleapis.com', 'updates.push.services.mozilla.com', '*.notify.windows.com', '*.push.apple.com']);
    expect(loadConfig({ PUSH_SERVICE_HOSTS: 'FCM.googleapis.com, *.push.example.org  push.example.net' }).pushServiceHosts).toEqual(['fcm.googleapis.com', '*.push.example.org', 'push.example.net']);
    for (const bad of [
      '10.0.0.1',
      'localhost',
      '*.com',
      '*',
      'https://fcm.googleapis.com',
      'fcm.googleapis.com:443',
      '[::1]',
      'bad_name.example',
      '-x.example.org',
      'push.example.123',
      '*.*.example.org',
      ',',
    ]) {
      expect(() => loadConfig({ PUSH_SERVICE_HOSTS: bad }), bad).toThrow(/PUSH_SERVICE_HOSTS/);
    }
  });

  it('SEC-14 payments: no provider unless one is chosen; PAY. with all three keys; the simulated checkout only when named, and in production only with DEMO_MODE', () => {
    const paynl = { PAYNL_TOKEN_CODE: 'AT-1234-5678', PAYNL_API_TOKEN: 'a'.repeat(40), PAYNL_SERVICE_ID: 'SL-1234-5678' };
    // Nothing configured: no provider, in production as in tests (never a silent fallback to the simulated checkout).
    expect(loadConfig({}).paymentsProvider).toBeNull();
    expect(loadConfig({ NODE_ENV: 'test' }).paymentsProvider).toBeNull();
    expect(loadConfig(paynl).paymentsProvider).toBe('paynl');
    expect(loadConfig({ ...paynl, PAYMENTS_PROVIDER: 'paynl' }).paymentsProvider).toBe('paynl');
    expect(loadConfig({ NODE_ENV: 'test', PAYMENTS_PROVIDER: 'simulated' }).paymentsProvider).toBe('simulated');
    expect(loadConfig({ NODE_ENV: 'development', PAYMENTS_PROVIDER: 'simulated' }).paymentsProvider).toBe('simulated');
    expect(loadConfig({ PAYMENTS_PROVIDER: 'simulated', DEMO_MODE: 'true' }).paymentsProvider).toBe('simulated');
    // A production process refuses the simulated checkout without the demo flag, and says why.
    expect(() => loadConfig({ PAYMENTS_PROVIDER: 'simulated' })).toThrow(/PAYMENTS_PROVIDER="simulated".*DEMO_MODE=true/);
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENTS_PROVIDER: 'simulated', DEMO_MODE: 'false' })).toThrow(ConfigError);
    // PAY. chosen without its keys, or only some of its keys: a mistake named at start, not "no provider".
    expect(() => loadConfig({ PAYMENTS_PROVIDER: 'paynl' })).toThrow(/PAYMENTS_PROVIDER="paynl": needs PAYNL_TOKEN_CODE/);
    expect(() => loadConfig({ PAYNL_TOKEN_CODE: paynl.PAYNL_TOKEN_CODE })).toThrow(/PAYNL_TOKEN_CODE=.*missing: PAYNL_API_TOKEN, PAYNL_SERVICE_ID/);
    expect(() => loadConfig({ PAYMENTS_PROVIDER: 'mollie' })).toThrow(/PAYMENTS_PROVIDER="mollie"/);
  });

  it('WEB_CONCURRENCY: one process per CPU on PostgreSQL by default, a number when given, always one on PGlite', () => {
    expect(serverProcesses(loadConfig({ DATABASE_URL: 'postgres://h/db' }), 4)).toBe(4);
    expect(serverProcesses(loadConfig({ DATABASE_URL: 'postgres://h/db', WEB_CONCURRENCY: '3' }), 8)).toBe(3);
    expect(serverProcesses(loadConfig({ DATABASE_URL: 'postgresql://h/db' }), 0)).toBe(1);
    expect(serverProcesses(loadConfig({ WEB_CONCURRENCY: '4' }), 8)).toBe(1);
    expect(serverProcesses(loadConfig({ DATABASE_URL: 'memory://', WEB_CONCURRENCY: 'auto' }), 8)).toBe(1);
    for (const bad of ['0', '-1', 'many', '1.5']) expect(() => loadConfig({ WEB_CONCURRENCY: bad }), bad).toThrow(/WEB_CONCURRENCY/);
  });
});
