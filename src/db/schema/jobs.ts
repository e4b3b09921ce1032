import { boolean, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per scheduled job and round (SCALE-02): the process that inserts it runs the job for that
 * round, every other process finds it there and skips. Rounds are aligned to the clock
 * (`JOBS_INTERVAL_SECONDS`), so any number of processes run each job once per round.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    job: text('job').notNull(),
    roundStart: timestamp('round_start', { withTimezone: true }).notNull(),
    /** host:pid of the process that claimed the round. */
    ranBy: text('ran_by').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    failed: boolean('failed').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.job, t.roundStart] })],
);
