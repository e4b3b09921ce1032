/**
 * The application context: everything a request handler or a job needs, made once per process by the
 * runtime (src/runtime/app-context.ts) and handed to pages and endpoints through `locals.app`. Only the
 * shape lives here, so the rules can name it without knowing how the process wires it.
 */
import type { Database, Db } from '../db/client';
import type { Config } from './config';
import type { Clock } from './clock';
import type { Logger } from './logger';
import type { PhotoStore } from './photos/store';
import type { SiteDirectory } from './sites/directory';
import type { TtlCache } from './cache';
import type { Mailer } from './mail/mailer';
import type { PushService } from './push/service';
import type { EventBus } from './realtime/bus';
import type { DeviceCookies } from './auth/device-cookie';
import type { BackgroundTasks } from './background';
import type { StreamHub } from './realtime/streams';

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
