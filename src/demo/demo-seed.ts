/**
 * Seeding the demo is a step of its own, not part of making the app context: the entries that want
 * demo data (server/main.ts through bootServer, astro dev, scripts/seed.ts, tests) call this when
 * SEED_DEMO says so. The context only wires services.
 */
import { seedDemoStaff } from './staff';
import { seedDemo, type SeedResult } from './seed';
import { ensureMarketingContent } from './seed-marketing';
import type { AppContext } from '../server/app';

/**
 * Seeds the demo sites, members and accounts when the database has no site yet (processes starting
 * together take turns), and the demo packages and pages for databases seeded before they existed.
 * `seed` overrides config.SEED_DEMO. Returns what was created (`created: false` when nothing was).
 */
export async function seedIfConfigured(app: Pick<AppContext, 'config' | 'db' | 'photos' | 'clock' | 'log'>, seed?: boolean): Promise<SeedResult | null> {
  if (!(seed ?? app.config.SEED_DEMO)) return null;
  const started = Date.now();
  const seeded = await seedDemo({ db: app.db, photos: app.photos, clock: app.clock, profilesPerSite: app.config.SEED_PROFILES_PER_SITE });
  if (seeded.created) app.log.info({ ms: Date.now() - started, ...seeded }, 'demo data seeded');
  // Idempotent: fills only sites that have no packages or token pages.
  await ensureMarketingContent(app.db);
  // The back office's demo accounts, one per role (README), into an empty staff table only.
  if (await seedDemoStaff(app.db)) app.log.info('demo staff accounts seeded');
  return seeded;
}
