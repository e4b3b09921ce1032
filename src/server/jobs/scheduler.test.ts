/**
 * The maintenance scheduler (DEL-01's erase job runs on it): a fake timer instead of waiting, and on
 * PostgreSQL a real advisory lock between two connection pools (two processes).
 */
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, postgresAvailable, type TestDatabase } from '../../../tests/setup/databases';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { appJobs } from './index';
import { advisoryLock, HOUR_MS, lockFor, noLock, startScheduler, type Timers } from './scheduler';

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

const silent = { error: () => {}, debug: () => {} };
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('scheduler', () => {
  it('DEL-01 runs the jobs right after start and then every hour, on one unref-ed timer', async () => {
    const timers = new ManualTimers();
    let runs = 0;
    const scheduler = startScheduler({ jobs: [{ name: 'count', run: async () => void runs++ }], log: silent, timers });
    expect(timers.live).toHaveLength(1);
    expect(timers.live[0]!.ms).toBe(0);
    expect(timers.live[0]!.unrefd).toBe(true);
    timers.fire();
    await settle();
    expect(runs).toBe(1);
    expect(timers.live).toHaveLength(1);
    expect(timers.live[0]!.ms).toBe(HOUR_MS);
    timers.fire();
    await settle();
    expect(runs).toBe(2);
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
    const errors: unknown[] = [];
    let after = 0;
    const scheduler = startScheduler({
      jobs: [
        { name: 'broken', run: async () => Promise.reject(new Error('boom')) },
        { name: 'after', run: async () => void after++ },
      ],
      log: { error: (obj: unknown) => errors.push(obj), debug: () => {} },
      timers,
    });
    timers.fire();
    await settle();
    expect(after).toBe(1);
    expect(errors).toEqual([expect.objectContaining({ job: 'broken' })]);
    timers.fire();
    await settle();
    expect(after).toBe(2);
    await scheduler.stop();
  });

  it('DEL-01 PGlite runs without a lock (one process per data folder)', () => {
    expect(lockFor({ kind: 'pglite' })).toBe(noLock);
  });
});

const pgKinds = (await postgresAvailable()) ? (['postgres'] as const) : ([] as const);

describe.each(pgKinds)('scheduler lock on %s', () => {
  let db: TestDatabase | undefined;
  const clients: postgres.Sql[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end({ timeout: 1 })));
    await db?.drop();
  });

  it('DEL-01 with PostgreSQL only one process runs the jobs at a time', async () => {
    db = await createTestDatabase('postgres');
    const a = postgres(db.url, { max: 2, onnotice: () => {} });
    const b = postgres(db.url, { max: 2, onnotice: () => {} });
    clients.push(a, b);
    const lockA = advisoryLock(a, 99_001);
    const lockB = advisoryLock(b, 99_001);
    let release!: () => void;
    const holding = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = lockA(async () => {
      entered();
      await holding;
    });
    await inside;
    let ranB = false;
    expect(await lockB(async () => void (ranB = true))).toBe(false);
    expect(ranB).toBe(false);
    release();
    expect(await first).toBe(true);
    // Released: the other process gets its turn.
    expect(await lockB(async () => void (ranB = true))).toBe(true);
    expect(ranB).toBe(true);
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
    expect(jobs.map((j) => j.name)).toEqual(['erase-deleted-accounts', 'reconcile-payments', 'prune-login-throttle', 'chat-unread-reminders', 'premium-figures']);
    for (const round of [1, 2]) {
      for (const job of jobs) await expect(job.run(), `${job.name}, round ${round}`).resolves.not.toThrow();
      clock.advance(25 * HOUR_MS);
    }
  });
});
