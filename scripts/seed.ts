/**
 * `npm run seed` (tsx scripts/seed.ts): seeds the demo sites into the configured database when it has
 * no site yet. Uses the same configuration as the server (DATA_DIR, DATABASE_URL, SEED_PROFILES_PER_SITE, the S3_ photo store).
 */
import { openDatabase } from '../src/db/client';
import { seedDemo } from '../src/demo/seed';
import { systemClock } from '../src/server/clock';
import { ConfigError, databaseOptions, loadConfig } from '../src/server/config';
import { createPhotoStore, describePhotoStorage } from '../src/server/photos/stores';

async function main(): Promise<void> {
  const config = loadConfig();
  const started = performance.now();
  const database = await openDatabase(config.databaseUrl, databaseOptions(config));
  const opened = performance.now();
  const photos = createPhotoStore(config.photoStorage);
  try {
    const result = await seedDemo({
      db: database.db,
      photos,
      clock: systemClock,
      profilesPerSite: config.SEED_PROFILES_PER_SITE,
    });
    const seedMs = Math.round(performance.now() - opened);
    const openMs = Math.round(opened - started);
    if (result.created) {
      console.log(`Seeded ${result.sites} sites, ${result.profiles} profiles and ${result.photos} photos in ${seedMs} ms ` + `(database opened and migrated in ${openMs} ms).`);
    } else {
      console.log(`The database already has sites; nothing was seeded (checked in ${seedMs} ms).`);
    }
    console.log(JSON.stringify({ ...result, seedMs, openMs, database: database.kind, ...describePhotoStorage(config.photoStorage) }));
  } finally {
    await database.close();
    photos.close?.();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
});
