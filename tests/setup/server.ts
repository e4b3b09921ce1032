/**
 * Boots the built app (dist/) in the test process on a free port with its own database and data
 * folder, and speaks HTTP to it with any Host header (localhost → site 1, 127.0.0.1 → site 2).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/server/config';
import { bootServer, type BootedServer } from '../../src/runtime/boot';
import { createLogger, type Logger } from '../../src/server/logger';
import { createTestDatabase, type TestDatabase } from './databases';
import { keepSeedPhotos, restoreSeedPhotos } from './seed-photos';

export interface TestServer {
  booted: BootedServer;
  port: number;
  database: TestDatabase;
  request(path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  method?: string;
  host?: string;
  headers?: Record<string, string>;
  /** A string or Buffer is sent as it is; anything else as JSON. */
  body?: string | Buffer | unknown;
  cookies?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = any>(): T;
  /** Set-Cookie values by name (value only). */
  setCookies: Record<string, { value: string; raw: string }>;
}

export async function startTestServer(options: { db?: 'pglite' | 'postgres'; env?: Record<string, string>; log?: Logger } = {}): Promise<TestServer> {
  const database = await createTestDatabase(options.db ?? 'pglite');
  const dataDir = await mkdtemp(join(tmpdir(), 'dating-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    SEED_PROFILES_PER_SITE: '12',
    LOG_LEVEL: 'silent',
    SETTINGS_TTL_MS: '0',
    // Tests change the database between requests; the render cache's own tests turn it on (PERF-01).
    RENDER_CACHE_TTL_MS: '0',
    SEARCH_CACHE_TTL_MS: '0',
    // Purchases go through the simulated checkout, chosen explicitly as the demo (`npm start`) does, with
    // its demo flag for the tests that run as production (SEC-14); a test of a server without a provider
    // passes PAYMENTS_PROVIDER: '' (an empty value is unset).
    PAYMENTS_PROVIDER: 'simulated',
    DEMO_MODE: 'true',
    ...options.env,
  });
  // The portraits a seed of this size rendered before in this run (tests/setup/seed-photos.ts).
  const restored = config.SEED_DEMO && (await restoreSeedPhotos(config.photoDir, config.SEED_PROFILES_PER_SITE));
  const booted = await bootServer({ config, log: options.log ?? createLogger(config.LOG_LEVEL), host: '127.0.0.1', port: 0 });
  if (config.SEED_DEMO && !restored) await keepSeedPhotos(config.photoDir, config.SEED_PROFILES_PER_SITE);
  const port = Number(new URL(booted.url).port);
  return {
    booted,
    port,
    database,
    request: (path, req = {}) => send(port, path, req),
    close: async () => {
      await booted.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function send(port: number, path: string, options: RequestOptions): Promise<TestResponse> {
  const headers: Record<string, string> = { host: `${options.host ?? 'localhost'}:${port}`, ...options.headers };
  let body: string | Buffer | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' || Buffer.isBuffer(options.body) ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  if (options.cookies)
    headers.cookie = Object.entries(options.cookies)
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
  return new Promise((resolve, reject) => {
    // A connection per request (agent: false): a kept-alive socket that the server closes as the client reuses it
    // resets that request, a race of the client's agent, not an answer of the server's.
    const req = httpRequest({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers, agent: false }, (res) => {
      // A live stream (/api/events.php) never ends by itself: its status and headers are the answer.
      if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '', json: () => JSON.parse(''), setCookies: {} });
        res.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      // A page cut off in the middle (the server reset the connection) fails the request instead of hanging it.
      res.on('error', reject);
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const setCookies: TestResponse['setCookies'] = {};
        for (const raw of res.headers['set-cookie'] ?? []) {
          const [pair] = raw.split(';');
          const eq = pair!.indexOf('=');
          setCookies[pair!.slice(0, eq)] = { value: pair!.slice(eq + 1), raw };
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text), setCookies });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
