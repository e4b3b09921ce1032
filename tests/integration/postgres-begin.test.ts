/**
 * postgres.js reserves the connection of every `sql.begin()`, also when its BEGIN fills a connection's
 * pipeline (scripts/patch-dependencies.mjs, docs/decisions/099-postgres-js-begin-reservation.md). Without
 * the mend, a BEGIN at the pipeline's end failed with UNSAFE_TRANSACTION and left its transaction open on
 * a pooled connection, where other statements then ran uncommitted: CRD-09's 1,000 concurrent spends met
 * it on this machine.
 */
import { readFileSync } from 'node:fs';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mendText, POSTGRES_BEGIN_MEND, postgresConnectionFiles } from '../../scripts/patch-dependencies.mjs';
import { assertDriverMended } from '../../src/db/client';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../setup/databases';

describe('the postgres.js mend', () => {
  it('CRD-09 every installed copy of postgres.js reserves a BEGIN’s connection before asking for pipeline room', () => {
    const files = postgresConnectionFiles() as string[];
    expect(files.length).toBe(3);
    for (const file of files) expect(readFileSync(file, 'utf8'), file).toContain(POSTGRES_BEGIN_MEND);
  });

  it('CRD-09 the mend applies once to the known text, and refuses a text it does not know', () => {
    const known = `  function execute(q) {\n      build(q)\n      return write(toBuffer(q))\n        && !q.describeFirst\n        && !q.cursorFn\n        && sent.length < max_pipeline\n        && (!q.options.onexecute || q.options.onexecute(connection))\n  }\n`;
    const once = mendText(known) as { state: string; text: string };
    expect(once.state).toBe('mended');
    expect(once.text).toContain(POSTGRES_BEGIN_MEND);
    expect((mendText(once.text) as { state: string }).state).toBe('already');
    expect((mendText(known.replace('max_pipeline', 'pipeline_max')) as { state: string }).state).toBe('unknown');
  });
});

describe.each((await postgresAvailable()) ? ['postgres'] : [])('CRD-09 a transaction whose BEGIN fills a pipeline (%s)', () => {
  let database: TestDatabase;
  let sql: postgres.Sql;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    // max_pipeline is an option of postgres.js that its type declarations leave out.
    sql = postgres(database.url, { max: 2, onnotice: () => {}, ...({ max_pipeline: 2 } as object) });
    await sql`create table counter (id int primary key, n int not null)`;
    await sql`insert into counter values (1, 0)`;
  });
  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    await database?.drop();
  });

  it('CRD-09 a BEGIN sent as the last a busy connection’s pipeline takes reserves it: the transaction commits, nothing is left open', async () => {
    // Both connections open, then both busy, then one statement in each pipeline (sent at once with
    // execute(), as postgres.js otherwise sends a statement on the next tick): the pool gives the BEGIN
    // to the first connection, whose pipeline (2) it fills. Unmended, this failed every time with
    // UNSAFE_TRANSACTION, the transaction left open on a connection back in the pool.
    await Promise.all([sql`select 1`, sql`select 2`]);
    const before = [sql`select pg_sleep(0.1)`, sql`select pg_sleep(0.1)`, sql`select 3`, sql`select 4`].map((q) => q.execute());
    const transaction = sql.begin(async (tx) => {
      await tx`update counter set n = n + 1 where id = 1`;
      return 'committed';
    });
    const settled = await Promise.allSettled([...before, transaction]);
    expect(settled.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason))).toEqual([]);
    expect(await transaction).toBe('committed');
    const [row] = await sql<{ n: number }[]>`select n from counter where id = 1`;
    expect(row!.n).toBe(1);
    const [open] = await sql<{ count: number }[]>`select count(*)::int as count from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`;
    expect(open!.count).toBe(0);
  });
});

describe('opening PostgreSQL with an unmended postgres.js', () => {
  it('CRD-09 is refused, saying what to run', () => {
    expect(() => assertDriverMended('return write(toBuffer(q)) && (!q.options.onexecute || q.options.onexecute(connection))', '/x/connection.js')).toThrow(
      /not mended: run `node scripts\/patch-dependencies\.mjs`/,
    );
    expect(() => assertDriverMended(POSTGRES_BEGIN_MEND, '/x/connection.js')).not.toThrow();
  });
});
