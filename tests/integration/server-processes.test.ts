/**
 * `npm start` on PostgreSQL runs one server process per CPU sharing the port (node:cluster,
 * docs/decisions/032-member-page-cost.md): the built entry is started as a user would, on a fresh
 * database; it answers through every worker, replaces a worker that dies, and stops them all on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForLine } from '../../bench/process';
import { createTestDatabase, type TestDatabase } from '../setup/databases';

const root = join(import.meta.dirname, '..', '..');
const entry = join(root, 'dist', 'server', 'main.mjs');

function workersOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep answers 1 when there are none
  }
}

describe('server processes on PostgreSQL', () => {
  let database: TestDatabase;
  let primary: ChildProcess;
  let url: string;
  let output = '';

  beforeAll(async () => {
    expect(existsSync(entry), 'npm run build first').toBe(true);
    database = await createTestDatabase('postgres');
    primary = spawn(process.execPath, [entry], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: database.url, WEB_CONCURRENCY: '2', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', SEED_PROFILES_PER_SITE: '6', NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    primary.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    url = await waitForLine(primary, /serving on (http:\/\/[^\s"]+) with 2 processes/);
  }, 120_000);

  afterAll(async () => {
    if (primary.exitCode === null) primary.kill('SIGKILL');
    await database?.drop();
  });

  it('two workers answer on one port, a killed worker is replaced, SIGTERM stops them all', async () => {
    const pid = primary.pid!;
    const workers = workersOf(pid);
    expect(workers).toHaveLength(2);
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${url}/healthz`);
      expect(res.status).toBe(200);
    }
    const page = await fetch(`${url}/`, { headers: { host: 'localhost' } });
    expect(page.status).toBe(200);

    // A worker that dies on its own is replaced; the port keeps answering meanwhile.
    process.kill(workers[0]!, 'SIGKILL');
    await waitForLine(primary, /a server process died: starting another/);
    await expect.poll(() => workersOf(pid).filter((w) => w !== workers[0]).length, { timeout: 30_000 }).toBe(2);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)));
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(workersOf(pid)).toEqual([]);
    expect(output).toContain('"msg":"stopped"');
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  }, 120_000);
});
