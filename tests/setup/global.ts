/**
 * Vitest global setup: tells once whether the PostgreSQL leg of the integration tests runs, writes the
 * migrated in-memory database every PGlite test database starts from (src/db/client.ts,
 * `PGLITE_MEMORY_TEMPLATE`), and makes the folder the demo seed's portraits are kept in for the run
 * (tests/setup/seed-photos.ts, `SEED_PHOTO_CACHE`); with PostgreSQL it also migrates one template
 * database every PostgreSQL test database is copied from (`TEST_POSTGRES_TEMPLATE`, tests/setup/databases.ts).
 * The test workers inherit the variables.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/client';
import { createTestDatabase, postgresAvailable, TEST_POSTGRES_URL } from './databases';

export default async function setup(): Promise<() => Promise<void>> {
  const ok = await postgresAvailable();
  console.log(
    ok
      ? `integration tests: PostgreSQL (${TEST_POSTGRES_URL}), PGlite too for the concurrency suites and the test servers started without a kind`
      : `integration tests: PGlite only — PostgreSQL at ${TEST_POSTGRES_URL} did not answer, so its leg is not run`,
  );
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

/**
 * A PostgreSQL database with every migration applied, for the run's test databases to be copied from: a
 * test database of its own (made before TEST_POSTGRES_TEMPLATE is set, so it is migrated from empty).
 */
async function migratedPostgresTemplate(): Promise<{ name: string; drop(): Promise<void> }> {
  delete process.env.TEST_POSTGRES_TEMPLATE;
  const database = await createTestDatabase('postgres');
  // Migrated, then closed: a database is copied only while nobody is connected to it.
  await (await openDatabase(database.url)).close();
  return { name: new URL(database.url).pathname.slice(1), drop: database.drop };
}
