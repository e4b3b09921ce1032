/**
 * A tiny in-process scheduler for maintenance jobs: one timer (unref'd, so it never keeps the process
 * alive) that wakes at each round of the clock (every `intervalMs`, aligned to the epoch) and right
 * after start. Several processes share the database, so each job is claimed per round first (a row in
 * `job_runs`, insert-if-absent): the process whose claim lands runs it, the others skip it, and a job
 * runs once per round however many processes there are and whenever each one started (SCALE-02,
 * docs/decisions/092-job-rounds.md). A process killed in the middle of a job loses that round's run;
 * the jobs are catch-ups, so the next round does the work.
 * `stop()` cancels the timer and waits for a run in progress, so the database closes after it.
 */
import { and, eq, lt } from 'drizzle-orm';
import { hostname } from 'node:os';
import type { Db } from '../../db/client';
import { jobRuns } from '../../db/schema';
import type { Clock } from '../clock';
import type { Logger } from '../logger';

export const HOUR_MS = 3_600_000;

export interface ScheduledJob {
  name: string;
  run(): Promise<unknown>;
}

/** Takes `job`'s run of the round that starts at `roundStart`; false when another process has it. */
export interface RoundClaims {
  claim(job: string, roundStart: Date): Promise<boolean>;
  finished(job: string, roundStart: Date, failed: boolean): Promise<void>;
}

/** This process's name in `job_runs.ran_by`. */
export const processName = (): string => `${hostname()}:${process.pid}`;

/** Claims in the `job_runs` table of `db` (PGlite and PostgreSQL alike). */
export function tableClaims(db: Db, clock: Clock, ranBy = processName()): RoundClaims {
  return {
    async claim(job, roundStart) {
      const rows = await db.insert(jobRuns).values({ job, roundStart, ranBy, startedAt: clock.now() }).onConflictDoNothing().returning({ job: jobRuns.job });
      return rows.length === 1;
    },
    async finished(job, roundStart, failed) {
      await db
        .update(jobRuns)
        .set({ finishedAt: clock.now(), failed })
        .where(and(eq(jobRuns.job, job), eq(jobRuns.roundStart, roundStart)));
    },
  };
}

/** Forgets the claims of rounds older than `keepMs` (run by the prune job). */
export async function pruneJobRuns(deps: { db: Db; clock: Clock }, keepMs = 30 * 24 * HOUR_MS): Promise<void> {
  await deps.db.delete(jobRuns).where(lt(jobRuns.roundStart, new Date(deps.clock.now().getTime() - keepMs)));
}

/** Every claim lands: one scheduler alone (the unit tests). */
export const alwaysClaim: RoundClaims = { claim: async () => true, finished: async () => {} };

export interface Timers {
  setTimeout(fn: () => void, ms: number): { unref?(): unknown };
  clearTimeout(handle: unknown): void;
}

export interface SchedulerOptions {
  jobs: ScheduledJob[];
  log: Pick<Logger, 'error' | 'info'>;
  claims?: RoundClaims;
  clock?: Clock;
  intervalMs?: number;
  timers?: Timers;
}

export interface Scheduler {
  /** Runs the current round's unclaimed jobs now (used by the timer, and by tests); resolves when the round is over. */
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

/** The start of the round `now` falls in. */
export const roundOf = (now: Date, intervalMs: number): Date => new Date(Math.floor(now.getTime() / intervalMs) * intervalMs);

export function startScheduler(options: SchedulerOptions): Scheduler {
  const timers: Timers = options.timers ?? { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout) };
  const claims = options.claims ?? alwaysClaim;
  const clock = options.clock ?? { now: () => new Date() };
  const interval = options.intervalMs ?? HOUR_MS;
  let stopped = false;
  let timer: ReturnType<Timers['setTimeout']> | null = null;
  let running: Promise<void> | null = null;

  const runRound = async (round: Date) => {
    for (const job of options.jobs) {
      if (stopped) return;
      let claimed = false;
      try {
        claimed = await claims.claim(job.name, round);
        if (!claimed) continue;
        const started = performance.now();
        await job.run();
        options.log.info({ job: job.name, round: round.toISOString(), ms: Math.round(performance.now() - started) }, 'scheduled job ran');
        await claims.finished(job.name, round, false);
      } catch (err) {
        options.log.error({ err, job: job.name, round: round.toISOString() }, 'scheduled job failed');
        if (claimed) await claims.finished(job.name, round, true).catch(() => {});
      }
    }
  };

  const runNow = (): Promise<void> => {
    running ??= runRound(roundOf(clock.now(), interval)).finally(() => {
      running = null;
    });
    return running;
  };

  /** Wakes at the next round's start (a moment after, so the clock is surely in it). */
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = timers.setTimeout(() => {
      timer = null;
      void runNow().then(() => schedule(untilNextRound()));
    }, ms);
    timer.unref?.();
  };
  const untilNextRound = () => {
    const now = clock.now().getTime();
    return roundOf(new Date(now), interval).getTime() + interval - now + 5;
  };
  schedule(0);

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
