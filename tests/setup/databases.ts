/**
 * The databases integration tests run against: PostgreSQL when the server at TEST_POSTGRES_URL answers,
 * in-memory PGlite otherwise, and both for the concurrency suites ({@link everyDatabaseKind}). Each PostgreSQL use gets a fresh database, dropped afterwards: a copy of
 * the migrated template tests/setup/global.ts makes once per run.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let availability: Promise<boolean> | undefined;

export function postgresAvailable(): Promise<boolean> {
  availability ??= (async () => {
    const sql = postgres(TEST_POSTGRES_URL, { max: 1, connect_timeout: 2, onnotice: () => {} });
    try {
      await sql`select 1`;
      return true;
    } catch {
      return false;
    } finally {
      await sql.end({ timeout: 1 }).catch(() => {});
    }
  })();
  return availability;
}

export interface TestDatabase {
  kind: 'pglite' | 'postgres';
  url: string;
  drop(): Promise<void>;
}

/**
 * The database a suite runs on: PostgreSQL, production's database, when it answers; PGlite, the embedded
 * default, when it does not. The same SQL, schema and migrations run on both; what differs is how they
 * take concurrent work, so the suites about that run on {@link everyDatabaseKind}
 * (docs/decisions/097-pglite-leg-for-concurrency.md). PGlite is also under every test server started
 * without a kind, and under the whole browser suite.
 */
export async function databaseKinds(): Promise<Array<'pglite' | 'postgres'>> {
  return (await postgresAvailable()) ? ['postgres'] : ['pglite'];
}

/**
 * PGlite and, when it answers, PostgreSQL: for the suites whose subject is how the database takes
 * concurrent work (locks, claims, one-use reservations, double spends) and for booting and closing on
 * each. PGlite is one connection that runs one query at a time in this process, PostgreSQL many
 * connections with row locks: the same code must be right under both.
 */
export async function everyDatabaseKind(): Promise<Array<'pglite' | 'postgres'>> {
  return (await postgresAvailable()) ? ['pglite', 'postgres'] : ['pglite'];
}

export async function createTestDatabase(kind: 'pglite' | 'postgres'): Promise<TestDatabase> {
  if (kind === 'pglite') return { kind, url: 'memory://', drop: async () => {} };
  const name = `it_${randomBytes(6).toString('hex')}`;
  const admin = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
  // A copy of the migrated template global setup made (`TEST_POSTGRES_TEMPLATE`): opening it finds every
  // migration applied, which is ~0.5 s against 1.3–2.5 s for migrating an empty database.
  const template = process.env.TEST_POSTGRES_TEMPLATE;
  await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    kind,
    url: url.toString(),
    drop: async () => {
      const a = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
