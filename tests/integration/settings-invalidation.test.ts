/**
 * OPS-03 across processes: two real server processes (tests/setup/site-process.ts) serve one fresh
 * PostgreSQL database with an hour-long settings cache. A setting changed through one is answered by
 * the other as soon as its bus delivers 'site.changed' (LISTEN/NOTIFY), not after the TTL.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../setup/databases';

interface Message {
  type: string;
  [key: string]: unknown;
}

/** A server process and the JSON lines it has said; `next` awaits the first line matching, from `from` on. */
class SiteProcess {
  readonly said: Message[] = [];
  private readonly waiters = new Set<() => void>();
  url = '';
  stderr = '';

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      this.said.push(JSON.parse(line) as Message);
      for (const wake of this.waiters) wake();
    });
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
  }

  next(match: (m: Message) => boolean, from = 0, timeoutMs = 60_000): Promise<Message> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.said.slice(from).find(match);
        if (!found) return false;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no matching message within ${timeoutMs} ms; said ${JSON.stringify(this.said)}; stderr ${this.stderr}`));
      }, timeoutMs);
      if (!check()) this.waiters.add(check);
      this.child.once('exit', (code) => reject(new Error(`process exited (${code}): ${this.stderr}`)));
    });
  }

  send(message: unknown): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }
}

function start(databaseUrl: string, dataDir: string): SiteProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/setup/site-process.ts'], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      SETTINGS_TTL_MS: '3600000',
      SEED_PROFILES_PER_SITE: '2',
      LOG_LEVEL: 'silent',
    },
  });
  return new SiteProcess(child);
}

function getJson(url: string, path: string): Promise<Record<string, unknown>> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `localhost:${port}` } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(`${res.statusCode}: ${body}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

let database: TestDatabase;
let dataDir: string;
let one: SiteProcess;
let two: SiteProcess;

beforeAll(async () => {
  database = await createTestDatabase('postgres');
  dataDir = await mkdtemp(join(tmpdir(), 'two-processes-'));
  // Both start at once on the empty database: migrations and the demo seed take turns under the advisory lock.
  one = start(database.url, dataDir);
  two = start(database.url, dataDir);
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
