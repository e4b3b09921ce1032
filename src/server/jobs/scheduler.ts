/**
 * A tiny in-process scheduler for maintenance jobs: one timer (unref'd, so it never keeps the process
 * alive), all jobs run once shortly after start and then every interval, one run at a time. With
 * PostgreSQL several processes share the database, so a run first takes a session advisory lock
 * (`pg_try_advisory_lock`): the process that gets it runs the jobs, the others skip that round.
 * `stop()` cancels the timer and waits for a run in progress, so the database closes after it.
 */
import type { Database } from '../../db/client';
import type { Logger } from '../logger';

export const JOBS_LOCK_ID = 7_245_002;
export const HOUR_MS = 3_600_000;

export interface ScheduledJob {
  name: string;
  run(): Promise<unknown>;
}

/** Runs `fn` only when this process holds the jobs lock; resolves false when another one holds it. */
export type JobLock = (fn: () => Promise<void>) => Promise<boolean>;

/** Without a lock (PGlite: only one process can open its data folder) every run goes ahead. */
export const noLock: JobLock = async (fn) => {
  await fn();
  return true;
};

/** A session advisory lock on one reserved connection of the postgres.js pool. */
export function advisoryLock(client: NonNullable<Database['client']>, lockId = JOBS_LOCK_ID): JobLock {
  return async (fn) => {
    const conn = await client.reserve();
    try {
      const [row] = await conn<{ locked: boolean }[]>`select pg_try_advisory_lock(${lockId}) as locked`;
      if (!row?.locked) return false;
      try {
        await fn();
      } finally {
        await conn`select pg_advisory_unlock(${lockId})`;
      }
      return true;
    } finally {
      conn.release();
    }
  };
}

/** The lock that fits the database: advisory for PostgreSQL, none for PGlite. */
export function lockFor(database: Pick<Database, 'kind' | 'client'>): JobLock {
  return database.kind === 'postgres' && database.client ? advisoryLock(database.client) : noLock;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): { unref?(): unknown };
  clearTimeout(handle: unknown): void;
}

export interface SchedulerOptions {
  jobs: ScheduledJob[];
  log: Pick<Logger, 'error' | 'debug'>;
  lock?: JobLock;
  intervalMs?: number;
  /** Delay of the first run after start. */
  firstRunMs?: number;
  timers?: Timers;
}

export interface Scheduler {
  /** Runs every job now (used by the timer, and by tests); resolves when the round is over. */
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

export function startScheduler(options: SchedulerOptions): Scheduler {
  const timers: Timers = options.timers ?? { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout) };
  const lock = options.lock ?? noLock;
  const interval = options.intervalMs ?? HOUR_MS;
  let stopped = false;
  let timer: ReturnType<Timers['setTimeout']> | null = null;
  let running: Promise<void> | null = null;

  const runJobs = async () => {
    for (const job of options.jobs) {
      if (stopped) return;
      try {
        await job.run();
      } catch (err) {
        options.log.error({ err, job: job.name }, 'scheduled job failed');
      }
    }
  };

  const runNow = (): Promise<void> => {
    running ??= (async () => {
      try {
        const ran = await lock(runJobs);
        if (!ran) options.log.debug({}, 'scheduled jobs skipped: another process holds the lock');
      } catch (err) {
        options.log.error({ err }, 'scheduled jobs could not run');
      } finally {
        running = null;
      }
    })();
    return running;
  };

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = timers.setTimeout(() => {
      timer = null;
      void runNow().then(() => schedule(interval));
    }, ms);
    timer.unref?.();
  };
  schedule(options.firstRunMs ?? 0);

  return {
    runNow,
    stop: async () => {
      stopped = true;
      if (timer) timers.clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
