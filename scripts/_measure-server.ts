/**
 * Shared by `scripts/size-check.ts` and `scripts/lighthouse.ts`: starts the built app in this process
 * (bootServer: production settings, in-memory PGlite, a small demo seed, a throwaway data folder), reads
 * budgets.json, and speaks HTTP to the app with any Host header.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/server/config';
import { bootServer, projectRoot, type BootedServer } from '../src/runtime/boot';
import { createLogger } from '../src/server/logger';

/** The cookies every measured visitor carries: Dutch, entry warning accepted (so it is not measured). */
export const VISITOR_COOKIES = 'lang=nl; entry_ok=1';

export interface PageTypeBudget {
  /** Representative URLs (paths) of this page type. */
  urls: string[];
  /** Most gzip bytes of JavaScript a page may load in all: eagerly and lazily (PERF-02). */
  js: number;
  /**
   * Most gzip bytes of JavaScript a page may load before the visitor does anything (PERF-02): its
   * scripts, module preloads, inline scripts and the islands hydrated on load or idle — not the islands
   * that wait for an interaction (`client:interaction`) or for being scrolled to (`client:visible`).
   */
  eagerJs?: number;
  /** Most gzip bytes of CSS a page may load. */
  css: number;
  /**
   * Log in as the demo member before fetching; `new`: as a member who signs up just before (their time
   * bonus is running, TB-01, so members-area pages carry its banner and script).
   */
  member?: boolean | 'new';
  /** A missing URL of this type fails the check (else it is only reported). */
  required: boolean;
  why: string;
}

export interface LighthouseThresholds {
  performance: number;
  accessibility: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
}

export interface LighthouseBudget extends LighthouseThresholds {
  urls: string[];
  why: string;
  /**
   * Pages measured as the signed-in demo member (free@demo.test, LOOK-01): `{profile}` in a path is a
   * member of the search, `{partner}` the premium demo member, who has written to them first. Thresholds
   * not given here are the visitors' ones.
   */
  member?: Partial<LighthouseThresholds> & { urls: string[]; why: string };
}

export interface Budgets {
  pageTypes: Record<string, PageTypeBudget>;
  lighthouse: LighthouseBudget;
}

/** budgets.json of the project (BUDGETS_FILE=<path> reads another, e.g. to try a threshold). */
export async function readBudgets(): Promise<Budgets> {
  return JSON.parse(await readFile(process.env.BUDGETS_FILE ?? join(projectRoot(), 'budgets.json'), 'utf8')) as Budgets;
}

export interface MeasureServer {
  booted: BootedServer;
  port: number;
  /** `http://localhost:{port}`: site 1 (the default site). */
  origin: string;
  /** The throwaway data folder (photos), removed by close(). */
  dataDir: string;
  close(): Promise<void>;
}

/** Boots the built app (run `npm run build` first) on a free port of 127.0.0.1. */
export async function startMeasureServer(): Promise<MeasureServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'dating-measure-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    DATABASE_URL: 'memory://',
    SEED_PROFILES_PER_SITE: process.env.SEED_PROFILES_PER_SITE ?? '12',
    LOG_LEVEL: 'silent',
  });
  const booted = await bootServer({ config, log: createLogger(config.LOG_LEVEL), host: '127.0.0.1', port: 0 });
  const port = Number(new URL(booted.url).port);
  return {
    booted,
    port,
    origin: `http://localhost:${port}`,
    dataDir,
    close: async () => {
      await booted.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One HTTP request to 127.0.0.1:port with the Host header `host` (the site), body as it came. */
export function rawRequest(port: number, path: string, options: { host?: string; method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { host: `${options.host ?? 'localhost'}:${port}`, ...options.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Logs in as a demo account through `POST /api/user.php` and returns the session cookie (`session=…`). */
export async function loginCookie(port: number, email: string, password: string, host = 'localhost'): Promise<string> {
  const res = await rawRequest(port, '/api/user.php', {
    host,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email, password }),
  });
  const setCookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const session = setCookies.map((c) => c.split(';')[0]!).find((c) => c.startsWith('session='));
  if (res.status !== 200 || !session) throw new Error(`login as ${email} failed: HTTP ${res.status} ${res.body.toString('utf8').slice(0, 200)}`);
  return session;
}

/**
 * Signs up a new member through `POST /api/signup.php` (logged in at once) and returns the session cookie:
 * the pages as someone who joined a moment ago sees them (the time bonus running, TB-01).
 */
export async function signupCookie(port: number, host = 'localhost'): Promise<string> {
  const tag = Math.random().toString(36).slice(2, 10);
  const res = await rawRequest(port, '/api/signup.php', {
    host,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', cookie: VISITOR_COOKIES },
    body: JSON.stringify({
      email: `size-${tag}@example.com`,
      name: `Size${tag.slice(0, 4)}`,
      password: 'size check passphrase 2026',
      date_of_birth: '1990-01-01',
      gender: 'female',
      looking_for: 'male',
    }),
  });
  const setCookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const session = setCookies.map((c) => c.split(';')[0]!).find((c) => c.startsWith('session='));
  if (res.status !== 201 || !session) throw new Error(`signup failed: HTTP ${res.status} ${res.body.toString('utf8').slice(0, 200)}`);
  return session;
}
