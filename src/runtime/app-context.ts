/**
 * Makes the application context (src/server/app.ts) of this process: opens and migrates the database and
 * wires the services. Used by the HTTP entry (boot.ts), astro dev (dev-app.ts) and tests.
 */
import { openDatabase } from '../db/client';
import { databaseOptions, type Config } from '../server/config';
import { systemClock, type Clock } from '../server/clock';
import type { Logger } from '../server/logger';
import { createPhotoStore, describePhotoStorage } from '../server/photos/stores';
import { SiteDirectory } from '../server/sites/directory';
import { TtlCache } from '../server/cache';
import { Mailer } from '../server/mail/mailer';
import { startAppJobs } from '../server/jobs';
import { PushService } from '../server/push/service';
import { pushEndpointPolicy } from '../server/push/subscription';
import type { AppContext } from '../server/app';
import { InProcessBus, PostgresBus, type EventBus } from '../server/realtime/bus';
import { DeviceCookies } from '../server/auth/device-cookie';
import { BackgroundTasks } from '../server/background';
import { StreamHub } from '../server/realtime/streams';
import { logPaymentsChoice } from '../server/payments/registry';

export interface CreateAppOptions {
  config: Config;
  log: Logger;
  clock?: Clock;
}

/**
 * Opens and migrates the database and wires the services; nothing more. Seeding the demo is a separate
 * step the entries take when configured (seedIfConfigured in ./demo-seed.ts).
 */
export async function createAppContext(options: CreateAppOptions): Promise<AppContext> {
  const { config, log } = options;
  const clock = options.clock ?? systemClock;
  const started = Date.now();
  const database = await openDatabase(config.databaseUrl, databaseOptions(config));
  log.info({ db: database.kind, ms: Date.now() - started }, 'database ready (migrations applied)');
  logPaymentsChoice(config, log);
  const photos = createPhotoStore(config.photoStorage);
  log.info(describePhotoStorage(config.photoStorage), 'photo store');
  // The VAPID key pair is created once, on the first start of the first process, and kept (PUSH-01).
  // Endpoints only on the configured push services; loopback HTTP only under NODE_ENV=test (SEC-06).
  const push = await PushService.create({ db: database.db, log, endpoints: pushEndpointPolicy(config) });
  // The device-cookie secret, like the VAPID keys, is made once and kept in app_secrets (SEC-13).
  const devices = await DeviceCookies.create({ db: database.db, clock });
  const onBusError = (err: unknown, topic: string) => log.error({ err, topic }, 'event handler failed');
  // One LISTEN connection per process on PostgreSQL; PGlite has one process, so events stay in it.
  const bus: EventBus =
    database.kind === 'postgres' && database.client ? await PostgresBus.start(database.client, onBusError, { listenUrl: config.DATABASE_LISTEN_URL }) : new InProcessBus(onBusError);
  const sites = new SiteDirectory(database.db, clock, config.SETTINGS_TTL_MS, { pushPublicKey: push.publicKey });
  const cache = new TtlCache(clock);
  // A shared search page keeps its rows and up to 4 renderings of ~45 kB: at most 100 pages, ~18 MB per process.
  const searchPages = new TtlCache(clock, 100);
  // Cached settings and shared answers of a site go as soon as any process says it changed (016).
  bus.subscribe('site.changed', ({ siteId }) => {
    sites.invalidateSite(siteId);
    cache.deleteSite(siteId);
    searchPages.deleteSite(siteId);
  });
  bus.subscribe('site.content_changed', ({ siteId }) => {
    cache.deleteSite(siteId);
    searchPages.deleteSite(siteId);
  });
  bus.onResync(() => {
    sites.invalidate();
    cache.clear();
    searchPages.clear();
  });
  const app: AppContext = {
    config,
    database,
    db: database.db,
    log,
    clock,
    sites,
    photos,
    cache,
    searchPages,
    mailer: new Mailer(database.db, log, config.SMTP_URL),
    push,
    devices,
    staffDevices: devices.forStaff(),
    background: new BackgroundTasks(log),
    bus,
    draining: false,
    streams: new StreamHub(),
    // Scheduled jobs (erasing deleted accounts after 14 days) stop before the database closes.
    close: async () => {
      await jobs.stop();
      await app.background.idle();
      push.close();
      await app.bus.close();
      await database.close();
      photos.close?.();
    },
  };
  const jobs = startAppJobs(app);
  return app;
}
