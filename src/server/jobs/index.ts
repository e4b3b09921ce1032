/** The app's scheduled maintenance jobs, started with the app context and stopped when it closes. */
import type { AppContext } from '../context';
import { pruneThrottle } from '../auth/throttle';
import { eraseDeletedAccounts } from './erase-deleted';
import { lockFor, startScheduler, type Scheduler } from './scheduler';

export function startAppJobs(app: Pick<AppContext, 'database' | 'db' | 'clock' | 'photos' | 'log'>): Scheduler {
  return startScheduler({
    log: app.log,
    lock: lockFor(app.database),
    jobs: [
      { name: 'erase-deleted-accounts', run: () => eraseDeletedAccounts({ db: app.db, clock: app.clock, photos: app.photos, log: app.log }) },
      // Failed-login counters older than a day, no longer blocking (AUTH-03), would otherwise pile up.
      { name: 'prune-login-throttle', run: () => pruneThrottle({ db: app.db, clock: app.clock }) },
    ],
  });
}
