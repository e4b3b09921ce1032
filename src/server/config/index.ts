/**
 * Configuration from environment variables, validated once at start (zod). A bad value stops the
 * process with a message naming the variable, instead of failing later on a request.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { parseTrustedProxies, type TrustedProxies } from './proxy';
import { DEFAULT_PUSH_SERVICE_HOSTS, parsePushServiceHosts } from './push-service-hosts';
import { parseFlaggedPhrases } from './flagged-phrases';

const bool = z.enum(['1', '0', 'true', 'false', 'yes', 'no']).transform((v) => v === '1' || v === 'true' || v === 'yes');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|memory:\/\/$|file:\/\/)/, 'must start with postgres://, postgresql://, file:// or be memory://')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Server processes sharing the port (node:cluster): a number, or `auto` for one per CPU on PostgreSQL.
   * PGlite is one process's database, so with it the server always runs as one process.
   */
  WEB_CONCURRENCY: z
    .string()
    .regex(/^(auto|[1-9]\d{0,2})$/, 'must be auto or a number of processes from 1')
    .default('auto'),
  /** Request header that carries the visitor's country, set by a CDN or proxy (e.g. CF-IPCountry). */
  COUNTRY_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'must be a header name')
    .default('cf-ipcountry')
    .transform((v) => v.toLowerCase()),
  /** How long a process keeps a site's settings before reading them again. */
  SETTINGS_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  /**
   * How long a page rendered for a visitor without a session is served again from memory (PERF-01,
   * src/server/http/render-cache.ts); 0 turns the render cache off.
   */
  RENDER_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /**
   * How long a search page is shared between the viewers who run the same search (MEM-01, PERF-01,
   * src/server/members/search-pages.ts; each viewer still checks its members against the listing rule);
   * 0 turns the sharing off.
   */
  SEARCH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** Memory the render cache may hold (bodies and their compressed variants), in megabytes. */
  RENDER_CACHE_MAX_MB: z.coerce.number().int().min(1).max(4096).default(64),
  /** Minutes a member's unread messages wait before the unread reminder mail (at most one a day). */
  CHAT_REMINDER_QUIET_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  /**
   * Seconds between the rounds of the maintenance jobs (erasure, payment reconciliation, reminders, …);
   * every job runs once per round across all processes (src/server/jobs/scheduler.ts).
   */
  JOBS_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3_600),
  /**
   * Phrases the operator console flags before an answer as a fictional profile goes (OPS-02: operators
   * do not promise meetings): a comma list, any case; unset, a list in Dutch, English and German.
   */
  OPERATOR_FLAGGED_PHRASES: z.string().trim().max(5_000).optional(),
  /** Seed the demo sites, members and accounts when the database has no site yet. */
  SEED_DEMO: bool.default(true),
  /** Number of demo member profiles per site. */
  SEED_PROFILES_PER_SITE: z.coerce.number().int().min(0).max(5000).default(240),
  /** Behind a proxy that terminates TLS: trust X-Forwarded-Proto / X-Forwarded-For (docs/decisions/012-proxy-trust.md). */
  TRUST_PROXY: bool.default(false),
  /**
   * Which proxies in front are trusted (only with TRUST_PROXY): a hop count (`1`: the peer of the
   * socket is our one proxy, the client is the right-most X-Forwarded-For entry) or a comma list of
   * addresses and CIDR ranges (`10.0.0.0/8,192.0.2.7`): hops from the right are skipped while they are
   * in the list, and the first one that is not is the client.
   */
  TRUSTED_PROXIES: z
    .string()
    .trim()
    .default('1')
    .refine((v) => parseTrustedProxies(v) !== null, 'must be a hop count (1-10) or a comma list of IP addresses and CIDR ranges'),
  /** SMTP relay (smtp://user:pass@host:587); without it mail stays in the outbox table. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  /**
   * The browser push services members' push subscriptions may point at (SEC-06): comma-separated host
   * names, `*.suffix` for any name under a suffix. Defaults to the push services of Chrome, Firefox,
   * Edge and Safari (docs/decisions/024-push-endpoints.md).
   */
  PUSH_SERVICE_HOSTS: z
    .string()
    .trim()
    .default(DEFAULT_PUSH_SERVICE_HOSTS.join(','))
    .refine((v) => parsePushServiceHosts(v) !== null, 'must be a comma list of host names (fcm.googleapis.com) or *.suffix entries (*.push.apple.com), no IP addresses'),
  /**
   * Which payment provider takes purchases (SEC-14, docs/decisions/060-no-payments-without-a-provider.md):
   * `paynl` (needs the three PAYNL_ keys), or `simulated`, the built-in checkout where the payer picks
   * "paid" without paying (the demo and the tests; under NODE_ENV=production only with DEMO_MODE).
   * Unset: PAY. when its three keys are set, otherwise none, and every purchase is refused.
   */
  PAYMENTS_PROVIDER: z.enum(['paynl', 'simulated']).optional(),
  /** This deployment is a demo where nothing is really sold: allows the simulated checkout under NODE_ENV=production. */
  DEMO_MODE: bool.default(false),
  /** PAY. (pay.nl) payments (docs/decisions/033-payment-provider.md): all three, or none. */
  PAYNL_TOKEN_CODE: z
    .string()
    .regex(/^AT-[0-9]{4}-[0-9]{4}$/, 'must look like AT-1234-5678')
    .optional(),
  PAYNL_API_TOKEN: z.string().min(20).optional(),
  PAYNL_SERVICE_ID: z
    .string()
    .regex(/^SL-[0-9]{4}-[0-9]{4}$/, 'must look like SL-1234-5678')
    .optional(),
  PAYNL_API_URL: z.string().url().default('https://connect.pay.nl'),
  /**
   * SEPA direct debit (DD-01, DD-02; docs/decisions/042-direct-debit-and-sms.md): the most a member may
   * have collected by direct debit (pending and paid, in cents) within DIRECT_DEBIT_LIMIT_DAYS days.
   */
  DIRECT_DEBIT_LIMIT_CENTS: z.coerce.number().int().min(0).max(100_000_000).default(15_000),
  DIRECT_DEBIT_LIMIT_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * An HTTP SMS gateway for the direct-debit codes: with URL and token set, codes are sent there (JSON
   * POST with a bearer token); without them they stay in the SMS outbox read through /dev/sms.
   */
  SMS_GATEWAY_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .optional(),
  SMS_GATEWAY_TOKEN: z.string().trim().min(16, 'must be at least 16 characters').optional(),
  /** The sender shown on the phone: up to 11 letters and digits, or a number in E.164. */
  SMS_SENDER: z
    .string()
    .regex(/^([A-Za-z0-9]{1,11}|\+[1-9][0-9]{6,14})$/, 'must be up to 11 letters and digits or a number like +3197010000000')
    .default('DatingSite'),
  /** Pending payments older than this many minutes are asked for again by the reconcile job. */
  PAYMENTS_RECONCILE_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  /**
   * GIPHY API key for the chat's gif search (CHT-07). Without it the chat searches the gif library the
   * project ships (public/gifs/), with no network (docs/decisions/036-gif-provider-and-shipped-media.md).
   */
  GIPHY_API_KEY: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{8,64}$/, 'must be a GIPHY API key (letters and digits)')
    .optional(),
  /** GIPHY's API origin; tests point it at a local fake. */
  GIPHY_BASE_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .default('https://api.giphy.com'),
  /** The highest GIPHY content rating the chat's gif search returns. */
  GIPHY_RATING: z.enum(['g', 'pg', 'pg-13', 'r']).default('pg-13'),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  /** PostgreSQL connections each server process keeps (postgres.js pool). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  /**
   * Where the live event bus listens (LISTEN/NOTIFY) when DATABASE_URL goes through a transaction-pooling
   * PgBouncer, which cannot keep a LISTEN: PostgreSQL itself. Unset: the listening connection uses
   * DATABASE_URL.
   */
  DATABASE_LISTEN_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, 'a postgres:// or postgresql:// URL of PostgreSQL itself (not PgBouncer)')
    .optional(),
  /** Folder of the drizzle-kit migrations, when a deployment keeps them elsewhere than `drizzle/` above the code. */
  MIGRATIONS_DIR: z.string().min(1).optional(),
  /**
   * Photos in S3-compatible object storage (SCALE-01, docs/decisions/082-photos-in-object-storage.md):
   * set S3_BUCKET and the photos go there (MinIO, Ceph RGW, Cloudflare R2, AWS) instead of DATA_DIR/photos;
   * then S3_REGION and both keys are required (checked below), S3_ENDPOINT for anything but AWS itself.
   */
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3-63 lower-case letters, digits, dots and hyphens')
    .optional(),
  /** The S3 API's origin (https://<account>.r2.cloudflarestorage.com, http://minio:9000); unset: AWS's own for S3_REGION. */
  S3_ENDPOINT: z
    .string()
    .url('must be a URL like https://s3.example.com')
    .regex(/^https?:\/\/[^/?#]+\/?$/, 'must be an http(s) origin without a path, like https://s3.example.com')
    .optional(),
  /** The bucket's region (`auto` for Cloudflare R2, MinIO's default `us-east-1`). */
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{2,32}$/, 'must be a region name like eu-central-1 or auto')
    .optional(),
  S3_ACCESS_KEY_ID: z
    .string()
    .regex(/^[\x21-\x7e]{1,256}$/, 'must be an access key id (no spaces)')
    .optional(),
  S3_SECRET_ACCESS_KEY: z
    .string()
    .regex(/^[\x21-\x7e]{1,256}$/, 'must be a secret access key (no spaces)')
    .optional(),
  /** Bucket in the path (http://host/bucket/key: MinIO, Ceph RGW) instead of the host name (bucket.host). */
  S3_FORCE_PATH_STYLE: bool.default(false),
});

/** Every environment variable the app reads (scripts/guards/env-variables.test.ts holds the rest to it). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  /** Database URL after defaults: DATABASE_URL, or PGlite in DATA_DIR/pglite. */
  databaseUrl: string;
  /** Folder for stored photos (local PhotoStore). */
  photoDir: string;
  /** Where photos are stored: DATA_DIR/photos, or an S3-compatible bucket when S3_BUCKET is set (SCALE-01). */
  photoStorage: PhotoStorage;
  production: boolean;
  /** TRUSTED_PROXIES parsed; null when TRUST_PROXY is off (forwarded headers are ignored). */
  trustedProxies: TrustedProxies | null;
  /** PUSH_SERVICE_HOSTS parsed (lower-cased, without repeats). */
  pushServiceHosts: string[];
  /** OPERATOR_FLAGGED_PHRASES parsed, or the default list (src/server/staff/operator.ts). */
  operatorFlaggedPhrases: string[];
  /** The payment provider purchases go to, or null: none configured, purchases are refused (SEC-14). */
  paymentsProvider: PaymentsProviderName | null;
}

export type PaymentsProviderName = NonNullable<Env['PAYMENTS_PROVIDER']>;

export type PhotoStorage =
  { kind: 'local'; dir: string } | { kind: 's3'; bucket: string; endpoint: string | undefined; region: string; accessKeyId: string; secretAccessKey: string; forcePathStyle: boolean };

export class ConfigError extends Error {
  constructor(public readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Variables whose values an error message does not repeat (they end up in logs). */
const SECRET_VARIABLES = new Set(['S3_SECRET_ACCESS_KEY']);

/** Reads and checks the configuration; throws ConfigError listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') picked[key] = value;
  }
  const parsed = envSchema.safeParse(picked);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const key = String(issue.path[0] ?? '');
        return `${key}=${SECRET_VARIABLES.has(key) ? '(hidden)' : JSON.stringify(picked[key] ?? '')}: ${issue.message}`;
      }),
    );
  }
  const e = parsed.data;
  const paymentsProvider = choosePaymentsProvider(e, picked);
  const dataDir = resolve(e.DATA_DIR);
  const photoDir = resolve(dataDir, 'photos');
  return {
    ...e,
    DATA_DIR: dataDir,
    databaseUrl: e.DATABASE_URL ?? resolve(dataDir, 'pglite'),
    photoDir,
    photoStorage: choosePhotoStorage(e, photoDir),
    production: e.NODE_ENV === 'production',
    trustedProxies: e.TRUST_PROXY ? parseTrustedProxies(e.TRUSTED_PROXIES) : null,
    pushServiceHosts: parsePushServiceHosts(e.PUSH_SERVICE_HOSTS)!,
    operatorFlaggedPhrases: parseFlaggedPhrases(e.OPERATOR_FLAGGED_PHRASES),
    paymentsProvider,
  };
}

/**
 * SEC-14: the provider is an explicit choice, never a silent fallback. PAY. needs all three of its keys
 * (one or two of them is a mistake, not "no provider"); the simulated checkout gives credits to whoever
 * picks "paid", so a production process refuses it unless DEMO_MODE says this deployment is a demo.
 */
function choosePaymentsProvider(e: Env, picked: Record<string, string>): PaymentsProviderName | null {
  const keys = ['PAYNL_TOKEN_CODE', 'PAYNL_API_TOKEN', 'PAYNL_SERVICE_ID'] as const;
  const present = keys.filter((k) => e[k] !== undefined);
  if (present.length > 0 && present.length < keys.length) {
    const missing = keys.filter((k) => e[k] === undefined).join(', ');
    throw new ConfigError(present.map((k) => `${k}=${JSON.stringify(picked[k] ?? '')}: PAY. needs all three of ${keys.join(', ')} (missing: ${missing})`));
  }
  const provider = e.PAYMENTS_PROVIDER ?? (present.length === keys.length ? 'paynl' : null);
  if (provider === 'paynl' && present.length < keys.length) {
    throw new ConfigError([`PAYMENTS_PROVIDER="paynl": needs ${keys.join(', ')}`]);
  }
  if (provider === 'simulated' && e.NODE_ENV === 'production' && !e.DEMO_MODE) {
    throw new ConfigError([
      'PAYMENTS_PROVIDER="simulated": the simulated checkout lets the payer pick "paid" without paying; under NODE_ENV=production set DEMO_MODE=true as well, and only for a demo where nothing is sold',
    ]);
  }
  return provider;
}

const S3_SETTINGS = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

/**
 * SCALE-01: S3_BUCKET chooses the object store, and then nothing is guessed: the region and both keys
 * must be set (a process that silently wrote to its own disk would lose photos the other machines never
 * see). S3 settings without S3_BUCKET are a mistake too, not "local disk". Secrets are never echoed.
 */
function choosePhotoStorage(e: Env, photoDir: string): PhotoStorage {
  if (e.S3_BUCKET === undefined) {
    const stray = S3_SETTINGS.filter((k) => e[k] !== undefined);
    if (stray.length > 0) throw new ConfigError(stray.map((k) => `${k}: is set but S3_BUCKET is not (set S3_BUCKET to store photos in object storage, or remove the S3_ settings)`));
    return { kind: 'local', dir: photoDir };
  }
  const missing = (['S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((k) => e[k] === undefined);
  if (missing.length > 0)
    throw new ConfigError(missing.map((k) => `${k}: is required with S3_BUCKET=${JSON.stringify(e.S3_BUCKET)} (photos in object storage need S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)`));
  return {
    kind: 's3',
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT?.replace(/\/$/, ''),
    region: e.S3_REGION!,
    accessKeyId: e.S3_ACCESS_KEY_ID!,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
}

/** What `openDatabase` takes from the configuration besides the URL. */
export function databaseOptions(config: Pick<Config, 'DATABASE_POOL_SIZE' | 'MIGRATIONS_DIR'>): { poolSize: number; migrationsDir?: string } {
  return config.MIGRATIONS_DIR ? { poolSize: config.DATABASE_POOL_SIZE, migrationsDir: resolve(config.MIGRATIONS_DIR) } : { poolSize: config.DATABASE_POOL_SIZE };
}

/**
 * How many server processes to run: one on PGlite (the database lives in this process), else
 * WEB_CONCURRENCY, where `auto` is one per CPU (docs/decisions/032-member-page-cost.md).
 */
export function serverProcesses(config: Pick<Config, 'WEB_CONCURRENCY' | 'databaseUrl'>, cpus: number): number {
  if (!/^postgres(ql)?:\/\//.test(config.databaseUrl)) return 1;
  return config.WEB_CONCURRENCY === 'auto' ? Math.max(1, cpus) : Number(config.WEB_CONCURRENCY);
}
