/** The app's scheduled maintenance jobs, started with the app context and stopped when it closes. */
import type { AppContext } from '../context';
import { eraseDeletedAccounts } from './erase-deleted';
import { lockFor, startScheduler, type Scheduler } from './scheduler';

export function startAppJobs(app: Pick<AppContext, 'database' | 'db' | 'clock' | 'photos' | 'log'>): Scheduler {
  return startScheduler({
    log: app.log,
    lock: lockFor(app.database),
    jobs: [{ name: 'erase-deleted-accounts', run: () => eraseDeletedAccounts({ db: app.db, clock: app.clock, photos: app.photos, log: app.log }) }],
  });
}
