/**
 * The maintenance scheduler (DEL-01's erase job runs on it): a fake timer instead of waiting, and on
 * each database three schedulers claiming rounds in one `job_runs` table (three processes).
 */
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { jobRuns } from '../../db/schema';
import { createTestDatabase, databaseKinds, everyDatabaseKind, type TestDatabase } from '../../../tests/setup/databases';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { appJobs } from './index';
import { HOUR_MS, pruneJobRuns, startScheduler, tableClaims, type Timers } from './scheduler';

/** Timers the test fires by hand; records every delay asked for and whether unref was called. */
class ManualTimers implements Timers {
  pending: Array<{ fn: () => void; ms: number; unrefd: boolean; cleared: boolean }> = [];
  setTimeout(fn: () => void, ms: number) {
    const entry = { fn, ms, unrefd: false, cleared: false };
    this.pending.push(entry);
    return { unref: () => (entry.unrefd = true), entry };
  }
  clearTimeout(handle: unknown) {
    (handle as { entry: { cleared: boolean } }).entry.cleared = true;
  }
  /** Fires the latest timer that is still due. */
  fire() {
    const entry = this.pending.filter((e) => !e.cleared).at(-1);
    if (!entry) throw new Error('no timer pending');
    entry.cleared = true;
    entry.fn();
  }
  get live() {
    return this.pending.filter((e) => !e.cleared);
  }
}

const silent = { error: () => {}, info: () => {} };
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('scheduler', () => {
  it('DEL-01 runs the jobs right after start and then at the start of every round, on one unref-ed timer', async () => {
    const timers = new ManualTimers();
    const clock = new FakeClock(Date.UTC(2026, 10, 27, 10, 20));
    let runs = 0;
    const scheduler = startScheduler({ jobs: [{ name: 'count', run: async () => void runs++ }], log: silent, timers, clock });
    expect(timers.live).toHaveLength(1);
    expect(timers.live[0]!.ms).toBe(0);
    expect(timers.live[0]!.unrefd).toBe(true);
    timers.fire();
    await settle();
    expect(runs).toBe(1);
    // 10:20 → the round of 11:00 (a few ms after, so the clock is surely in it).
    expect(timers.live).toHaveLength(1);
    expect(timers.live[0]!.ms).toBe(40 * 60_000 + 5);
    clock.advance(40 * 60_000 + 5);
    timers.fire();
    await settle();
    expect(runs).toBe(2);
    expect(timers.live[0]!.ms).toBe(HOUR_MS);
    await scheduler.stop();
    expect(timers.live).toHaveLength(0);
  });

  it('DEL-01 stop waits for a run in progress and no run starts afterwards', async () => {
    const timers = new ManualTimers();
    let release!: () => void;
    let finished = false;
    const scheduler = startScheduler({
      jobs: [{ name: 'slow', run: () => new Promise<void>((resolve) => (release = resolve)).then(() => void (finished = true)) }],
      log: silent,
      timers,
    });
    timers.fire();
    await settle();
    let stopped = false;
    const stopping = scheduler.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(true);
    expect(timers.live).toHaveLength(0);
  });

  it('DEL-01 a failing job is logged and does not stop the others or the next round', async () => {
    const timers = new ManualTimers();
    const clock = new FakeClock(Date.UTC(2026, 10, 27, 10, 0));
    const errors: unknown[] = [];
    let after = 0;
    const scheduler = startScheduler({
      jobs: [
        { name: 'broken', run: async () => Promise.reject(new Error('boom')) },
        { name: 'after', run: async () => void after++ },
      ],
      log: { error: (obj: unknown) => errors.push(obj), info: () => {} },
      timers,
      clock,
    });
    timers.fire();
    await settle();
    expect(after).toBe(1);
    expect(errors).toEqual([expect.objectContaining({ job: 'broken' })]);
    clock.advance(HOUR_MS);
    timers.fire();
    await settle();
    expect(after).toBe(2);
    await scheduler.stop();
  });
});

describe.each(await everyDatabaseKind())('job rounds on %s', (kind) => {
  let testDb: TestDatabase | undefined;
  let kit: SeededDatabase | undefined;
  afterAll(async () => {
    await kit?.close();
    await testDb?.drop();
  });

  it('SCALE-02 three schedulers on one database run each job once per round, whenever each wakes, and record who ran it', async () => {
    testDb = await createTestDatabase(kind);
    const clock = new FakeClock(Date.UTC(2026, 10, 27, 10, 0, 30));
    kit = await seededDatabase({ clock, url: testDb.url, profilesPerSite: 4 });
    const db = kit.db;
    const ran: string[] = [];
    const schedulers = ['a', 'b', 'c'].map((name) =>
      startScheduler({
        jobs: ['erase', 'reconcile'].map((job) => ({ name: job, run: async () => void ran.push(`${job}@${name}`) })),
        log: silent,
        claims: tableClaims(db, clock, name),
        clock,
        timers: new ManualTimers(),
        intervalMs: 60_000,
      }),
    );
    // All three wake in the same round at once, then again each later in it: each job ran once.
    await Promise.all(schedulers.map((s) => s.runNow()));
    for (const s of schedulers) await s.runNow();
    expect(ran).toHaveLength(2);
    expect(ran.map((r) => r.split('@')[0]).sort()).toEqual(['erase', 'reconcile']);
    // The next round runs them again, once.
    clock.advance(60_000);
    for (const s of schedulers.reverse()) await s.runNow();
    expect(ran).toHaveLength(4);
    const rows = await db.select().from(jobRuns).orderBy(jobRuns.roundStart, jobRuns.job);
    expect(rows.map((r) => [r.job, r.roundStart.toISOString(), r.failed, r.finishedAt !== null])).toEqual([
      ['erase', '2026-11-27T10:00:00.000Z', false, true],
      ['reconcile', '2026-11-27T10:00:00.000Z', false, true],
      ['erase', '2026-11-27T10:01:00.000Z', false, true],
      ['reconcile', '2026-11-27T10:01:00.000Z', false, true],
    ]);
    expect(rows.map((r) => `${r.job}@${r.ranBy}`).sort()).toEqual([...ran].sort());
    await Promise.all(schedulers.map((s) => s.stop()));
    // Claims older than 30 days go.
    clock.advance(31 * 24 * HOUR_MS);
    await pruneJobRuns({ db, clock });
    expect(await db.select().from(jobRuns)).toEqual([]);
  });

  it('SCALE-02 a job that fails is recorded as failed and the round is not run again by another process', async () => {
    const db = kit!.db;
    const clock = new FakeClock(Date.UTC(2026, 11, 1, 8, 0));
    let attempts = 0;
    const make = (name: string) =>
      startScheduler({
        jobs: [
          {
            name: 'flaky',
            run: async () => {
              attempts++;
              throw new Error('down');
            },
          },
        ],
        log: silent,
        claims: tableClaims(db, clock, name),
        clock,
        timers: new ManualTimers(),
      });
    const [a, b] = [make('a'), make('b')];
    await a.runNow();
    await b.runNow();
    expect(attempts).toBe(1);
    const [row] = await db.select().from(jobRuns).where(eq(jobRuns.job, 'flaky'));
    expect(row).toMatchObject({ ranBy: 'a', failed: true });
    expect(row!.finishedAt).not.toBeNull();
    await Promise.all([a.stop(), b.stop()]);
  });
});

describe.each(await databaseKinds())('the app’s jobs on %s', (kind) => {
  let testDb: TestDatabase;
  let kit: SeededDatabase;
  afterAll(async () => {
    await kit?.close();
    await testDb?.drop();
  });

  it('DEL-01 every scheduled job runs to its end on this database (each once on the demo data, each again with nothing to do)', async () => {
    testDb = await createTestDatabase(kind);
    const clock = new FakeClock(Date.now());
    kit = await seededDatabase({ clock, url: testDb.url, profilesPerSite: 4 });
    const log = createLogger('silent');
    const jobs = appJobs({ database: kit.database, db: kit.db, clock, photos: kit.photos, log, config: loadConfig({}), mailer: kit.mailer, sites: kit.sites });
    expect(jobs.map((j) => j.name)).toEqual([
      'erase-deleted-accounts',
      'reconcile-payments',
      'prune-login-throttle',
      'chat-unread-reminders',
      'premium-figures',
      'most-chosen-packages',
      'prune-job-runs',
      'purge-decided-selfies',
    ]);
    for (const round of [1, 2]) {
      for (const job of jobs) await expect(job.run(), `${job.name}, round ${round}`).resolves.not.toThrow();
      clock.advance(25 * HOUR_MS);
    }
  });
});
