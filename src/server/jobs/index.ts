/** The app's scheduled maintenance jobs, started with the app context and stopped when it closes. */
import type { Database, Db } from '../../db/client';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { PhotoStore } from '../photos/store';
import { pruneThrottle } from '../auth/throttle';
import { eraseDeletedAccounts } from './erase-deleted';
import { reconcilePendingPayments } from './reconcile-payments';
import { sendUnreadReminders } from './unread-reminders';
import { purgeDecidedSelfies } from '../photos/verification';
import { refreshMostChosen } from '../credits/most-chosen';
import { refreshPremiumFigures } from '../credits/premium-figure';
import type { Mailer } from '../mail/mailer';
import type { SiteDirectory } from '../sites/directory';
import { pruneJobRuns, startScheduler, tableClaims, type ScheduledJob, type Scheduler } from './scheduler';

/** What the jobs need (a part of the app context, named here so this module does not import it). */
export interface JobDeps {
  database: Database;
  db: Db;
  clock: Clock;
  photos: PhotoStore;
  log: Logger;
  config: Config;
  mailer: Mailer;
  sites: SiteDirectory;
}

/** The jobs, bound to the app. */
export function appJobs(app: JobDeps): ScheduledJob[] {
  return [
    { name: 'erase-deleted-accounts', run: () => eraseDeletedAccounts({ db: app.db, clock: app.clock, photos: app.photos, log: app.log }) },
    // Pending payments whose webhook never came (issue 11).
    { name: 'reconcile-payments', run: () => reconcilePendingPayments(app) },
    // Failed-login counters older than a day, no longer blocking (AUTH-03), would otherwise pile up.
    { name: 'prune-login-throttle', run: () => pruneThrottle({ db: app.db, clock: app.clock }) },
    // Members with messages waiting since the quiet time get one mail a day at most (issue 10).
    { name: 'chat-unread-reminders', run: () => sendUnreadReminders(app, { quietMinutes: app.config.CHAT_REMINDER_QUIET_MINUTES }) },
    // The premium claim's figure per site, from its own data, once a day (HON-03).
    { name: 'premium-figures', run: () => refreshPremiumFigures(app) },
    // The credit package most members bought, the 'most chosen' mark, from the same 90 days (HON-03).
    { name: 'most-chosen-packages', run: () => refreshMostChosen(app) },
    // The rounds' claims (SCALE-02) are kept 30 days, for the back office's question "did it run?".
    { name: 'prune-job-runs', run: () => pruneJobRuns(app) },
    // Verification selfies are kept 30 days after the moderator's decision, then deleted (VER-01).
    { name: 'purge-decided-selfies', run: () => purgeDecidedSelfies(app) },
  ];
}

export function startAppJobs(app: JobDeps): Scheduler {
  return startScheduler({ log: app.log, claims: tableClaims(app.db, app.clock), clock: app.clock, intervalMs: app.config.JOBS_INTERVAL_SECONDS * 1000, jobs: appJobs(app) });
}
