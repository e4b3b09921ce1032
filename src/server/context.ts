/**
 * The application context: everything a request handler or a job needs, made once per process and
 * handed to pages and endpoints through `locals.app`. Services take what they need from it as arguments.
 */
import { openDatabase, type Database, type Db } from '../db/client';
import { databaseOptions, type Config } from './config';
import { systemClock, type Clock } from './clock';
import type { Logger } from './logger';
import { LocalPhotoStore, type PhotoStore } from './photos/store';
import { SiteDirectory } from './sites/directory';
import { TtlCache } from './cache';
import { Mailer } from './mail/mailer';
import { startAppJobs } from './jobs';
import { PushService } from './push/service';
import { pushEndpointPolicy } from './push/subscription';
import { InProcessBus, PostgresBus, type EventBus } from './realtime/bus';
import { DeviceCookies } from './auth/device-cookie';
import { BackgroundTasks } from './background';
import { StreamHub } from './realtime/streams';
import { logPaymentsChoice } from './payments/registry';

export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  log: Logger;
  clock: Clock;
  sites: SiteDirectory;
  photos: PhotoStore;
  /** Short-lived answers shared by many requests (landing teasers and the like). */
  cache: TtlCache;
  /** Search pages shared between viewers, with their rendered HTML (src/server/members/search-pages.ts). */
  searchPages: TtlCache;
  mailer: Mailer;
  /** Web Push: VAPID keys (made on first start), members' subscriptions, sending (PUSH-01, PUSH-02). */
  push: PushService;
  /** Work started by a request and finished after its answer (reset mails); awaited before closing. */
  background: BackgroundTasks;
  /** Signs and checks the device cookies that keep a member's known browsers out of lockouts (SEC-13). */
  devices: DeviceCookies;
  /** The same for staff accounts' browsers, apart from members' (SEC-17). */
  staffDevices: DeviceCookies;
  /**
   * Tells this process and the others that something changed (ids only): cache invalidation now, live
   * chat and likes later. In-process for PGlite; PostgreSQL LISTEN/NOTIFY for DATABASE_URL.
   */
  bus: EventBus;
  /** Set when the process is draining: /readyz answers 503 and new SSE streams are refused. */
  draining: boolean;
  /** The live streams open in this process (/api/events.php), ended when it drains. */
  streams: StreamHub;
  close(): Promise<void>;
}

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
  const photos = new LocalPhotoStore(config.photoDir);
  // The VAPID key pair is created once, on the first start of the first process, and kept (PUSH-01).
  // Endpoints only on the configured push services; loopback HTTP only under NODE_ENV=test (SEC-06).
  const push = await PushService.create({ db: database.db, log, endpoints: pushEndpointPolicy(config) });
  // The device-cookie secret, like the VAPID keys, is made once and kept in app_secrets (SEC-13).
  const devices = await DeviceCookies.create({ db: database.db, clock });
  const onBusError = (err: unknown, topic: string) => log.error({ err, topic }, 'event handler failed');
  // One LISTEN connection per process on PostgreSQL; PGlite has one process, so events stay in it.
  const bus: EventBus = database.kind === 'postgres' && database.client ? await PostgresBus.start(database.client, onBusError) : new InProcessBus(onBusError);
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
    },
  };
  const jobs = startAppJobs(app);
  return app;
}
