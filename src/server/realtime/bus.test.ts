/**
 * The event bus: in-process, and PostgreSQL LISTEN/NOTIFY between two buses that each have their own
 * pool and listening connection (as two processes would) on one fresh database.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/setup/databases';
import { BUS_CHANNEL, InProcessBus, LISTENER_NAME, PostgresBus, type BusEvents } from './bus';

/** Collects a topic's events and lets a test await the n-th one (no sleeps). */
function recorder<T extends keyof BusEvents>(bus: { subscribe: PostgresBus['subscribe'] }, topic: T) {
  const seen: Array<BusEvents[T]> = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  bus.subscribe(topic, (payload) => {
    seen.push(payload);
    for (const w of waiters.filter((w) => seen.length >= w.n)) w.resolve();
  });
  return {
    seen,
    count: (n: number) =>
      seen.length >= n
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`timed out waiting for ${n} ${topic} events (saw ${seen.length})`)), 10_000);
            waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
          }),
  };
}

describe('InProcessBus', () => {
  it('OPS-03 bus: delivers to this process’s subscribers once; a failing handler does not stop the others', async () => {
    const errors: string[] = [];
    const bus = new InProcessBus((_err, topic) => errors.push(topic));
    const got: number[] = [];
    bus.subscribe('site.changed', () => {
      throw new Error('broken handler');
    });
    const off = bus.subscribe('site.changed', ({ siteId }) => void got.push(siteId));
    await bus.publish('site.changed', { siteId: 3 });
    off();
    await bus.publish('site.changed', { siteId: 4 });
    expect(got).toEqual([3]);
    expect(errors).toEqual(['site.changed', 'site.changed']);
    await bus.close();
  });
});

// PostgreSQL at TEST_POSTGRES_URL is required here: this is the bus of many processes.
describe('PostgresBus (LISTEN/NOTIFY)', () => {
  let test: TestDatabase;
  let poolA: postgres.Sql;
  let poolB: postgres.Sql;
  let a: PostgresBus;
  let b: PostgresBus;
  beforeAll(async () => {
    test = await createTestDatabase('postgres');
    poolA = postgres(test.url, { max: 2, onnotice: () => {} });
    poolB = postgres(test.url, { max: 2, onnotice: () => {} });
    a = await PostgresBus.start(poolA);
    b = await PostgresBus.start(poolB);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await poolA?.end({ timeout: 5 });
    await poolB?.end({ timeout: 5 });
    await test?.drop();
  });

  it('OPS-03 bus: an event reaches the other process once and its own process once (the echo is not delivered again)', async () => {
    const onA = recorder(a, 'site.changed');
    const onB = recorder(b, 'site.changed');
    const contentOnB = recorder(b, 'site.content_changed');
    await a.publish('site.changed', { siteId: 7 });
    // Delivered to the publisher's own subscribers before publish resolves.
    expect(onA.seen).toEqual([{ siteId: 7 }]);
    await onB.count(1);
    expect(onB.seen).toEqual([{ siteId: 7 }]);
    // B answers; once A has B's event, A's own echo (sent earlier on the same channel) has arrived too.
    await b.publish('site.changed', { siteId: 8 });
    await onA.count(2);
    expect(onA.seen).toEqual([{ siteId: 7 }, { siteId: 8 }]);
    expect(onB.seen).toEqual([{ siteId: 7 }, { siteId: 8 }]);
    expect(contentOnB.seen).toEqual([]);
    await a.publish('site.content_changed', { siteId: 7 });
    await contentOnB.count(1);
    expect(contentOnB.seen).toEqual([{ siteId: 7 }]);
  });

  it('OPS-03 bus: payloads are JSON with ids only; a foreign or broken NOTIFY on the channel is ignored', async () => {
    const errors: string[] = [];
    const pool = postgres(test.url, { max: 1, onnotice: () => {} });
    const c = await PostgresBus.start(pool, (_err, topic) => errors.push(topic));
    const onC = recorder(c, 'site.changed');
    const raw: string[] = [];
    // What travels on the wire, as a third listener (on another connection) sees it.
    let gotBoth!: () => void;
    const both = new Promise<void>((resolve) => (gotBoth = resolve));
    await poolA.listen(BUS_CHANNEL, (payload) => {
      raw.push(payload);
      if (raw.length === 2) gotBoth();
    });
    await poolB.notify(BUS_CHANNEL, 'not json');
    await b.publish('site.changed', { siteId: 9 });
    await onC.count(1);
    await both;
    expect(onC.seen).toEqual([{ siteId: 9 }]);
    expect(errors).toEqual(['bus.parse']);
    expect(raw.map((r) => (r.startsWith('{') ? { ...JSON.parse(r), o: 'origin' } : r))).toEqual(['not json', { t: 'site.changed', p: { siteId: 9 }, o: 'origin' }]);
    await c.close();
    await pool.end({ timeout: 5 });
  });

  it('OPS-03 bus: after close a bus neither delivers nor publishes', async () => {
    const pool = postgres(test.url, { max: 1, onnotice: () => {} });
    const d = await PostgresBus.start(pool);
    const onD = recorder(d, 'site.changed');
    await d.close();
    await d.publish('site.changed', { siteId: 1 });
    const onB = recorder(b, 'site.changed');
    await a.publish('site.changed', { siteId: 2 });
    await onB.count(1);
    expect(onD.seen).toEqual([]);
    expect(onB.seen).toEqual([{ siteId: 2 }]);
    await pool.end({ timeout: 5 });
  });

  it('OPS-03 bus: with DATABASE_LISTEN_URL the process listens on a connection of its own (as behind PgBouncer) and holds at most its pool plus that one', async () => {
    const appName = `pool-${process.pid}-${Date.now()}`;
    const pool = postgres(test.url, { max: 3, onnotice: () => {}, connection: { application_name: appName } });
    const e = await PostgresBus.start(pool, () => {}, { listenUrl: test.url });
    const onE = recorder(e, 'site.changed');
    await a.publish('site.changed', { siteId: 11 });
    await onE.count(1);
    expect(onE.seen).toEqual([{ siteId: 11 }]);
    const onA = recorder(a, 'site.changed');
    await e.publish('site.changed', { siteId: 12 });
    await onA.count(1);
    // Ten queries at once through a pool of three: never more than three of its connections, plus the listener.
    await Promise.all(Array.from({ length: 10 }, () => pool`select pg_sleep(0.05)`));
    const [row] = await poolA<{ pool: number; listener: number }[]>`
      select count(*) filter (where application_name = ${appName})::int as pool,
             count(*) filter (where application_name = ${LISTENER_NAME})::int as listener
      from pg_stat_activity where datname = current_database()`;
    expect(row).toEqual({ pool: 3, listener: 1 });
    await e.close();
    const [after] = await poolA<{ listener: number }[]>`select count(*)::int as listener from pg_stat_activity where datname = current_database() and application_name = ${LISTENER_NAME}`;
    expect(after!.listener).toBe(0);
    await pool.end({ timeout: 5 });
  });
});
