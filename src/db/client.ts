/**
 * Database connection factory: the URL decides the driver.
 * - `memory://` → in-memory PGlite (tests)
 * - `file:///abs/path` or a plain path → PGlite persisted in that folder (the embedded default)
 * - `postgres://` / `postgresql://` → a PostgreSQL server through postgres.js
 * Both speak the same dialect, so the schema and the checked-in migrations are shared.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { DRIVER_MEND_MARK, postgresPackageDir } from './postgres-driver.mjs';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  /** The postgres.js pool when kind is 'postgres' (for advisory locks, LISTEN/NOTIFY). */
  client?: import('postgres').Sql;
  /** The connection URL when kind is 'postgres'. */
  url?: string;
  /** `pglite` serialises every query in this process; `postgres` is a pool shared by many processes. */
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** Cheap round trip for /readyz. */
  ping(): Promise<void>;
}

/** Folder of the drizzle-kit migrations, found from the project root (works from source and tests). */
function migrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'drizzle', 'meta', '_journal.json'))) return join(dir, 'drizzle');
    dir = dirname(dir);
  }
  return resolve('drizzle');
}

/**
 * Opens the database named by `url` and applies every pending migration (from `migrationsDir`, else the
 * `drizzle/` folder above this file). The server passes its configuration's `databaseOptions`.
 */
export async function openDatabase(url: string, options: { migrate?: boolean; /** PostgreSQL pool size (default 10). */ poolSize?: number; migrationsDir?: string } = {}): Promise<Database> {
  const database = url.startsWith('postgres://') || url.startsWith('postgresql://') ? await openPostgres(url, options.poolSize) : await openPglite(url);
  if (options.migrate !== false) await migrateDatabase(database, options.migrationsDir);
  return database;
}

/**
 * An in-memory database starts from the dump named by `PGLITE_MEMORY_TEMPLATE` (PGlite's
 * `dumpDataDir` of a migrated database) when there is one: it skips PGlite's initdb and the migrations,
 * about 2 s of each of the hundreds of test databases on CI's machine. The test runner writes it once
 * per run (tests/setup/global.ts); pending migrations still run on top of it.
 */
let templateBlob: Blob | null | undefined;
function memoryTemplate(): Blob | undefined {
  if (templateBlob === undefined) {
    const file = process.env.PGLITE_MEMORY_TEMPLATE;
    templateBlob = file && existsSync(file) ? new Blob([readFileSync(file)]) : null;
  }
  return templateBlob ?? undefined;
}

async function openPglite(url: string): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  let dataDir: string | undefined;
  if (url !== 'memory://' && url !== '') {
    dataDir = resolve(url.startsWith('file://') ? fileURLToPath(url) : url);
    mkdirSync(dataDir, { recursive: true });
  }
  const template = dataDir ? undefined : memoryTemplate();
  const client = dataDir ? new PGlite(dataDir) : template ? new PGlite({ loadDataDir: template }) : new PGlite();
  await client.waitReady;
  const db = drizzle({ client, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    close: () => client.close(),
    ping: async () => {
      await client.query('select 1');
    },
  };
}

/** Lock id for migrations and seeding, so processes starting together take turns. */
export const SCHEMA_LOCK_ID = 7_245_001;

async function migratePostgres(database: Database, migrationsDir: string): Promise<void> {
  const { url } = database;
  if (!url) throw new Error('postgres url missing');
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  // One connection holds an advisory lock while it migrates: processes starting together take turns.
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${SCHEMA_LOCK_ID})`;
    try {
      await migrate(drizzle({ client, schema }), { migrationsFolder: migrationsDir });
    } finally {
      await client`select pg_advisory_unlock(${SCHEMA_LOCK_ID})`;
    }
  } finally {
    await client.end({ timeout: 5 });
  }
}

/**
 * Refuses a postgres.js without the install's mend: unmended, a transaction whose BEGIN fills a
 * connection's pipeline is left open on a pooled connection, and other requests' writes run inside it
 * uncommitted. `npm install --ignore-scripts` would leave it so; this says what to run instead.
 */
export function assertDriverMended(source: string, file: string): void {
  if (!source.includes(DRIVER_MEND_MARK))
    throw new Error(
      `postgres.js (${file}) is not mended: run \`node scripts/patch-dependencies.mjs\` (npm install runs it unless scripts are off); docs/decisions/099-postgres-js-begin-reservation.md`,
    );
}

/** The source of the postgres.js connection module that `import('postgres')` loads (its ESM copy). */
function driverConnectionSource(): { source: string; file: string } {
  const file = join(postgresPackageDir(import.meta.url), 'src', 'connection.js');
  return { source: readFileSync(file, 'utf8'), file };
}

async function openPostgres(url: string, poolSize?: number): Promise<Database> {
  const { source, file } = driverConnectionSource();
  assertDriverMended(source, file);
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const client = postgres(url, { max: poolSize ?? 10, onnotice: () => {} });
  // Drizzle sends every query as an unnamed statement, so PostgreSQL parses and plans each one again
  // (~0.5–1 ms of its CPU per query, 20× the execution of a keyed lookup). postgres.js can keep a
  // prepared statement per distinct query text on each connection and only bind the next time: the
  // query shapes of this app are a bounded set, and a plan invalidated by a migration is re-prepared by
  // postgres.js itself. docs/decisions/029-prepared-statements.md
  const unsafe = client.unsafe.bind(client);
  client.unsafe = ((query: string, args?: unknown[], options?: Record<string, unknown>) =>
    unsafe(query, args as never, { ...options, prepare: args !== undefined && args.length > 0 })) as typeof client.unsafe;
  const db = drizzle({ client, schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    client,
    url,
    close: () => client.end({ timeout: 5 }),
    ping: async () => {
      await client`select 1`;
    },
  };
}

/** Applies the checked-in migrations (idempotent: drizzle records what ran). */
export async function migrateDatabase(database: Database, migrationsDir: string = migrationsFolder()): Promise<void> {
  if (database.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(database.db as never, { migrationsFolder: migrationsDir });
  } else {
    await migratePostgres(database, migrationsDir);
  }
}
