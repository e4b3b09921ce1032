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

  it('OPS-03 DATABASE_LISTEN_URL: the live events listen on PostgreSQL itself when the pool goes through PgBouncer; anything but a postgres URL stops start', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://u@pgbouncer:6432/db', DATABASE_LISTEN_URL: 'postgresql://u@db:5432/db' });
    expect(c.DATABASE_LISTEN_URL).toBe('postgresql://u@db:5432/db');
    expect(loadConfig({}).DATABASE_LISTEN_URL).toBeUndefined();
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db', DATABASE_LISTEN_URL: 'redis://h:6379' })).toThrow(/DATABASE_LISTEN_URL/);
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

  it('SCALE-01 photos: the local folder by default; S3_BUCKET chooses the bucket and then needs its region and keys; no silent fallback', () => {
    expect(loadConfig({ DATA_DIR: '/srv/data' }).photoStorage).toEqual({ kind: 'local', dir: '/srv/data/photos' });
    const s3 = { S3_BUCKET: 'dating-photos', S3_REGION: 'auto', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE', S3_SECRET_ACCESS_KEY: 'very-secret-key' };
    expect(loadConfig({ ...s3, S3_ENDPOINT: 'https://account.r2.cloudflarestorage.com/' }).photoStorage).toEqual({
      kind: 's3',
      bucket: 'dating-photos',
      endpoint: 'https://account.r2.cloudflarestorage.com',
      region: 'auto',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'very-secret-key',
      forcePathStyle: false,
    });
    // AWS itself: no endpoint; MinIO and Ceph RGW: the bucket in the path.
    expect(loadConfig(s3).photoStorage).toMatchObject({ kind: 's3', endpoint: undefined });
    expect(loadConfig({ ...s3, S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' }).photoStorage).toMatchObject({ endpoint: 'http://minio:9000', forcePathStyle: true });
    // A bucket without its region or keys stops the start, naming what is missing.
    for (const key of ['S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      expect(() => loadConfig({ ...s3, [key]: undefined }), key).toThrow(new RegExp(`${key}: is required with S3_BUCKET="dating-photos"`));
    }
    // S3 settings without a bucket are a mistake, not "use the local disk".
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE' })).toThrow(/S3_ENDPOINT: is set but S3_BUCKET is not/);
    // Malformed values are named; the secret is never repeated in the message.
    expect(() => loadConfig({ ...s3, S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT="minio:9000"/);
    expect(() => loadConfig({ ...s3, S3_ENDPOINT: 'https://s3.example.com/bucket' })).toThrow(/S3_ENDPOINT=.*origin without a path/);
    expect(() => loadConfig({ ...s3, S3_BUCKET: 'Bad_Bucket' })).toThrow(/S3_BUCKET="Bad_Bucket"/);
    expect(() => loadConfig({ ...s3, S3_FORCE_PATH_STYLE: 'sometimes' })).toThrow(/S3_FORCE_PATH_STYLE/);
    let error: unknown;
    try {
      loadConfig({ ...s3, S3_SECRET_ACCESS_KEY: 'pasted with spaces' });
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).toContain('S3_SECRET_ACCESS_KEY=(hidden)');
    expect((error as Error).message).not.toContain('pasted');
  });
});
