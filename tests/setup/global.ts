/**
 * Vitest global setup: tells once whether the PostgreSQL leg of the integration tests runs, writes the
 * migrated in-memory database every PGlite test database starts from (src/db/client.ts,
 * `PGLITE_MEMORY_TEMPLATE`), and makes the folder the demo seed's portraits are kept in for the run
 * (tests/setup/seed-photos.ts, `SEED_PHOTO_CACHE`); with PostgreSQL it also migrates one template
 * database every PostgreSQL test database is copied from (`TEST_POSTGRES_TEMPLATE`, tests/setup/databases.ts).
 * The test workers inherit the variables.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { openDatabase } from '../../src/db/client';
import { postgresAvailable, TEST_POSTGRES_URL } from './databases';

export default async function setup(): Promise<() => Promise<void>> {
  const ok = await postgresAvailable();
  console.log(ok ? `integration tests: PGlite and PostgreSQL (${TEST_POSTGRES_URL})` : `integration tests: PGlite only — PostgreSQL at ${TEST_POSTGRES_URL} did not answer, so its leg is not run`);
  const dir = await mkdtemp(join(tmpdir(), 'pglite-template-'));
  const photos = await mkdtemp(join(tmpdir(), 'seed-photos-'));
  process.env.SEED_PHOTO_CACHE = photos;
  delete process.env.PGLITE_MEMORY_TEMPLATE;
  const database = await openDatabase('memory://');
  try {
    const dump = (await (database.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client.dumpDataDir('none')) as Blob;
    const file = join(dir, 'migrated.tar');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    process.env.PGLITE_MEMORY_TEMPLATE = file;
  } finally {
    await database.close();
  }
  const template = ok ? await migratedPostgresTemplate() : undefined;
  if (template) process.env.TEST_POSTGRES_TEMPLATE = template.name;
  return async () => {
    await template?.drop();
    await rm(dir, { recursive: true, force: true });
    await rm(photos, { recursive: true, force: true });
  };
}

/** A PostgreSQL database with every migration applied, for the run's test databases to be copied from. */
async function migratedPostgresTemplate(): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `it_template_${randomBytes(6).toString('hex')}`;
  const admin = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  // Migrated, then closed: a database is copied only while nobody is connected to it.
  await (await openDatabase(url.toString())).close();
  return {
    name,
    drop: async () => {
      const again = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}
