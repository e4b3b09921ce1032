/**
 * CHT-08 across processes: two server processes on one PostgreSQL (the built entry, as `npm start` runs
 * it). A member's messages sent through process A arrive on the other member's stream held by process B,
 * through the bus's LISTEN/NOTIFY, in order and each once. A match made through process A reaches the
 * other member's stream on process B at once (UX-01), and the modal's claim of it holds in every process.
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

  it('UX-01 a match made through process A reaches the first liker live on process B, the completer not; each is shown it once', async () => {
    const premium = await call(a, '/api/user.php', { method: 'POST', xhr: true, body: { email: 'premium@demo.test', password: 'demo-password-1' } });
    const free = await call(b, '/api/user.php', { method: 'POST', xhr: true, body: { email: 'free@demo.test', password: 'demo-password-1' } });
    /** The live events of `session`'s stream on `base` (after 'ready'), until `stop`. */
    const listen = (base: string, session: string) => {
      const events: Array<{ event: string; data: any }> = [];
      let opened!: () => void;
      const ready = new Promise<void>((r) => (opened = r));
      const stream = request(`${base}/api/events.php`, { headers: { cookie: `lang=en; session=${session}` } }, (res) => {
        onSseEvents(res, ({ event, data }) => {
          if (event === 'ready') opened();
          else events.push({ event, data: data ? JSON.parse(data) : null });
        });
      });
      stream.on('error', () => {});
      stream.end();
      return { events, ready, stop: () => stream.destroy() };
    };
    const freeStream = listen(b, free.session!);
    const premiumStream = listen(a, premium.session!);
    await Promise.all([freeStream.ready, premiumStream.ready]);
    try {
      // Free likes premium (through B), and premium is shown it as a 'New like' (through A).
      expect((await call(b, '/api/likes.php', { method: 'POST', cookie: free.session, body: { id: premium.json.id } })).status).toBe(201);
      expect((await call(a, '/api/auto-like.php', { cookie: premium.session })).json).toMatchObject({ id: free.json.id, match: false });
      // Premium likes back through A: free's stream on B hears the match at once.
      expect((await call(a, '/api/likes.php', { method: 'POST', cookie: premium.session, body: { id: free.json.id } })).json).toMatchObject({ created: true, match: true });
      await expect.poll(() => freeStream.events.filter((e) => e.event === 'match'), { timeout: 10_000 }).toEqual([{ event: 'match', data: { member: premium.json.id } }]);
      // The live modal claims it through B; asked again (another tab, the next page, process A) it is gone.
      expect((await call(b, `/api/auto-like.php?member=${premium.json.id}`, { cookie: free.session })).json).toMatchObject({ id: premium.json.id, match: true });
      expect((await call(a, `/api/auto-like.php?member=${premium.json.id}`, { cookie: free.session })).status).toBe(204);
      expect((await call(a, '/api/auto-like.php', { cookie: free.session })).status).toBe(204);
      // The completer: no live event (their like's answer or next page shows it), and 'It's a match' once,
      // although free's like was shown to them as a 'New like' before.
      expect(premiumStream.events.filter((e) => e.event === 'match')).toEqual([]);
      expect((await call(b, '/api/auto-like.php', { cookie: premium.session })).json).toMatchObject({ id: free.json.id, match: true });
      expect((await call(a, '/api/auto-like.php', { cookie: premium.session })).status).toBe(204);
      // A bad member id is the API's 400, never a 500.
      for (const bad of ['0', '-1', 'abc', '99999999999', '1e3']) {
        const res = await call(a, `/api/auto-like.php?member=${bad}`, { cookie: premium.session });
        expect(res.status, bad).toBe(400);
        expect(res.json.error).toBe('validation_failed');
      }
    } finally {
      freeStream.stop();
      premiumStream.stop();
    }
  }, 60_000);
});
