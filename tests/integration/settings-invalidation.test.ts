/**
 * OPS-03 across processes: two real server processes (tests/setup/site-process.ts) serve one fresh
 * PostgreSQL database with an hour-long settings cache. A setting changed through one is answered by
 * the other as soon as its bus delivers 'site.changed' (LISTEN/NOTIFY), not after the TTL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../setup/databases';
import { getBody, startSiteProcess, type SiteProcess } from '../setup/site-processes';

const getJson = async (url: string, path: string) => JSON.parse(await getBody(url, path)) as Record<string, unknown>;

let database: TestDatabase;
let dataDir: string;
let one: SiteProcess;
let two: SiteProcess;

beforeAll(async () => {
  database = await createTestDatabase('postgres');
  dataDir = await mkdtemp(join(tmpdir(), 'two-processes-'));
  // Both start at once on the empty database: migrations and the demo seed take turns under the advisory lock.
  one = startSiteProcess(database.url, dataDir, { SETTINGS_TTL_MS: '3600000' });
  two = startSiteProcess(database.url, dataDir, { SETTINGS_TTL_MS: '3600000' });
  const ready = await Promise.all([one.next((m) => m.type === 'ready'), two.next((m) => m.type === 'ready')]);
  one.url = String(ready[0].url);
  two.url = String(ready[1].url);
});
afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop()]);
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('settings across processes (PostgreSQL LISTEN/NOTIFY)', () => {
  it('OPS-03 a setting changed through one process is answered by the other at once, its hour-long cache notwithstanding', async () => {
    const before = [await getJson(one.url, '/api/settings.php'), await getJson(two.url, '/api/settings.php')];
    expect(before[0]!.name).toBe(before[1]!.name);
    const siteId = Number(before[0]!.id);
    // Both processes have the site cached now; a read straight after still answers from the cache.
    expect((await getJson(two.url, '/api/settings.php')).name).toBe(before[0]!.name);

    const name = `Renamed ${process.pid}`;
    const mark = two.said.length;
    const fromOne = one.said.length;
    one.send({ cmd: 'update', siteId, patch: { settings: { name, message_credits: 3 } } });
    expect(await one.next((m) => m.type === 'updated' || m.type === 'error', fromOne)).toEqual({ type: 'updated', result: { type: 'ok', siteIds: [siteId] } });
    // The publisher answers the new value at once (its own subscribers ran before publish returned).
    expect(await getJson(one.url, '/api/settings.php')).toMatchObject({ name, message_credits: 3 });

    // The other process learns it from its LISTEN connection, once.
    await two.next((m) => m.type === 'event' && m.topic === 'site.changed' && m.siteId === siteId, mark, 10_000);
    expect(await getJson(two.url, '/api/settings.php')).toMatchObject({ name, message_credits: 3 });
    expect(two.said.slice(mark).filter((m) => m.type === 'event')).toEqual([{ type: 'event', topic: 'site.changed', siteId }]);
    expect(one.said.slice(fromOne).filter((m) => m.type === 'event')).toEqual([{ type: 'event', topic: 'site.changed', siteId }]);
  });
});
