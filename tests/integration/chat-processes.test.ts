/**
 * CHT-08 across processes: two server processes on one PostgreSQL (the built entry, as `npm start` runs
 * it). A member's messages sent through process A arrive on the other member's stream held by process B,
 * through the bus's LISTEN/NOTIFY, in order and each once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForLine } from '../../bench/process';
import { createTestDatabase, type TestDatabase } from '../setup/databases';
import { onSseEvents } from '../setup/sse';

const root = join(import.meta.dirname, '..', '..');

function startProcess(url: string): { child: ChildProcess; ready: Promise<string> } {
  const child = spawn(process.execPath, [join(root, 'dist', 'server', 'main.mjs')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, WEB_CONCURRENCY: '1', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', SEED_PROFILES_PER_SITE: '4', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Site 1 answers on localhost (127.0.0.1 is the demo's second site).
  return { child, ready: waitForLine(child, /serving on (http:\/\/[^\s"]+)/).then((url) => url.replace('127.0.0.1', 'localhost')) };
}

async function call(base: string, path: string, init: { method?: string; cookie?: string; body?: unknown; xhr?: boolean } = {}): Promise<{ status: number; json: any; session?: string }> {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', origin: base, cookie: `lang=en${init.cookie ? `; session=${init.cookie}` : ''}`, ...(init.xhr ? { 'x-requested-with': 'XMLHttpRequest' } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const session = /session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  return { status: res.status, json: await res.json().catch(() => null), session };
}

describe('chat across two server processes on PostgreSQL', () => {
  let database: TestDatabase;
  const children: ChildProcess[] = [];
  let a: string;
  let b: string;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    // Both start on the empty database at once: migrations and the demo seed take turns under the lock.
    const one = startProcess(database.url);
    const two = startProcess(database.url);
    children.push(one.child, two.child);
    [a, b] = await Promise.all([one.ready, two.ready]);
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
    await database?.drop();
  });

  it('CHT-08 messages sent through process A arrive on a stream held by process B, in order, once', async () => {
    const premium = await call(a, '/api/user.php', { method: 'POST', xhr: true, body: { email: 'premium@demo.test', password: 'demo-password-1' } });
    const free = await call(b, '/api/user.php', { method: 'POST', xhr: true, body: { email: 'free@demo.test', password: 'demo-password-1' } });
    expect(premium.status).toBe(200);
    expect(free.status).toBe(200);

    const received: Array<{ id: string; body: string }> = [];
    let ready!: () => void;
    const isReady = new Promise<void>((r) => (ready = r));
    let done!: () => void;
    const allThere = new Promise<void>((r) => (done = r));
    const stream = request(`${b}/api/events.php`, { headers: { cookie: `lang=en; session=${free.session}` } }, (res) => {
      expect(res.statusCode).toBe(200);
      onSseEvents(res, ({ id, event, data }) => {
        if (event === 'ready') ready();
        if (event === 'message' && data) {
          received.push({ id, body: JSON.parse(data).body });
          if (received.length === 20) done();
        }
      });
    });
    stream.on('error', () => {});
    stream.end();
    await isReady;

    const sent: number[] = [];
    for (let i = 1; i <= 20; i++) {
      const res = await call(a, '/api/chat.php', { method: 'POST', cookie: premium.session, body: { to: free.json.id, client_id: `cross-process-${i}`, body: `bericht ${i}` } });
      expect(res.status).toBe(201);
      sent.push(res.json.message.id);
    }
    await allThere;
    stream.destroy();
    expect(received.map((m) => m.body)).toEqual(Array.from({ length: 20 }, (_, i) => `bericht ${i + 1}`));
    expect(received.map((m) => Number(m.id))).toEqual(sent);
  }, 60_000);
});
