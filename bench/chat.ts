/**
 * Chat delivery benchmark (issue 10, CHT-08): how fast a message reaches the other member's live stream,
 * and what an open stream costs, on a fresh PostgreSQL database (127.0.0.1:5432) it seeds itself.
 *
 * Two built server processes (dist/server/main.mjs, one process each, WEB_CONCURRENCY=1) serve the same
 * database; each holds N idle live streams of other members (N = 1,000, then 10,000), opened over HTTP
 * like a browser by client processes (bench/chat-holder.ts, raw node:http, one socket each). Then:
 *
 * - delivery latency p50/p99 from send to arrival: the clock starts when the HTTP POST /api/chat.php is
 *   written to process A and stops when the message event is read off the receiver's SSE stream,
 *   (a) the receiver's stream held by process A itself (same process), (b) held by process B
 *   (across processes, through the bus's LISTEN/NOTIFY); sends one after another;
 * - sustained messages per second: SENDERS members sending at once to receivers on process B, each
 *   message counted when it arrived on its stream;
 * - RSS per open stream: each server's RSS growth over its streams (VmRSS from /proc), divided by them;
 * - sends between members with BENCH_IN_FLIGHT (4) requests in flight each, for SUSTAIN_SECONDS, before
 *   the idle streams are opened: one-way (each of the SENDERS members writes to a member who only reads)
 *   and two-way (the same members in pairs writing to each other at the same time, one of each pair
 *   through A, the other through B, starting their conversations at once; SEC-15): sends, answers by
 *   kind, msg/s and the POST's p50/p99, counted on the answer;
 * - the bare NOTIFY round trip: LISTEN on one connection, NOTIFY from another (postgres.js), p50/p99.
 *
 * Goals (issue 10): across processes p99 ≤ 3× the bare NOTIFY round trip; 10,000 open streams per
 * process at ≤ 20 KB each.
 *
 *   npm run build && npm run bench:chat
 *   BENCH_STREAMS=1000,5000 BENCH_SENDS=100 npm run bench:chat
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request, type IncomingMessage } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { openDatabase, type Database } from '../src/db/client';
import { DEMO_ACCOUNTS, seedDemo } from '../src/demo/seed';
import { grant } from '../src/server/credits/ledger';
import { LocalPhotoStore } from '../src/server/photos/store';
import { waitForLine } from './process';
import { onSseEvents } from '../tests/setup/sse';

const LEVELS = (process.env.BENCH_STREAMS ?? '1000,10000').split(',').map(Number);
const SENDS = Number(process.env.BENCH_SENDS ?? 200);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 16);
const SUSTAIN_SECONDS = Number(process.env.BENCH_SUSTAIN_SECONDS ?? 4);
const NOTIFY_RUNS = Number(process.env.BENCH_NOTIFY_RUNS ?? 500);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 4);
/** Streams one client process holds at most (its file descriptors, and a share of the work). */
const PER_HOLDER = 5_000;
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DEADLINE_MS = 5 * 60_000;
/** Kept for measuring and cleaning up after the last streams are opened: opening stops this long before the deadline. */
const MEASURE_RESERVE_MS = 80_000;
const benchStarted = Date.now();
const root = join(import.meta.dirname, '..');
const SITE = 1;

const children: ChildProcess[] = [];
let cleanup: () => Promise<void> = async () => {};
const deadline = setTimeout(() => {
  console.error(`\nbench:chat: still running after ${DEADLINE_MS / 60_000} minutes, stopping`);
  void cleanup().finally(() => process.exit(2));
}, DEADLINE_MS);
deadline.unref();

// ---------------------------------------------------------------------------------------------------
// Helpers

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

/** CPU time (user + system) a process has used so far, in ms (robust on a busy machine, unlike wall time). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** A session token per member, stored as the app stores them (SHA-256 of the token). */
const tokenOf = (userId: number) => `chat-bench-session-${String(userId).padStart(8, '0')}`;

async function rows<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await database.db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** Adds `count` confirmed members with profiles (copied from the demo member's) and sessions; answers their ids. */
async function addMembers(database: Database, count: number): Promise<number[]> {
  const [free] = await rows<{ id: number }>(database, sql`select id from users where site_id = ${SITE} and lower(email) = ${DEMO_ACCOUNTS.free.email}`);
  const [{ first }] = (await rows<{ first: number }>(database, sql`select coalesce(max(id), 0) + 1 as first from users`)) as [{ first: number }];
  const from = Number(first);
  const to = from + count - 1;
  await database.db.execute(sql`
    insert into users (id, site_id, email, role, status, email_confirmed_at, language)
    select g, ${SITE}, 'chat-bench-' || g || '@bench.test', 'member', 'active', now(), 'en' from generate_series(${from}::int, ${to}::int) g`);
  await database.db.execute(sql`select setval(pg_get_serial_sequence('users', 'id'), (select max(id) from users))`);
  await database.db.execute(sql`
    insert into profiles (user_id, site_id, name, status, gender, sexuality, birth_date, country, region_id)
    select g, ${SITE}, 'Bench ' || g, 'active', p.gender, p.sexuality, p.birth_date, p.country, p.region_id
    from generate_series(${from}::int, ${to}::int) g, profiles p where p.user_id = ${Number(free!.id)}`);
  await database.db.execute(sql`
    insert into sessions (id, user_id, expires_at)
    select encode(sha256(convert_to('chat-bench-session-' || lpad(g::text, 8, '0'), 'UTF8')), 'hex'), g, now() + interval '29 days' from generate_series(${from}::int, ${to}::int) g`);
  return Array.from({ length: count }, (_, i) => from + i);
}

interface Server {
  name: string;
  child: ChildProcess;
  port: number;
  host: string;
}

async function startServer(name: string, url: string, dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, [join(root, 'dist/server/main.mjs')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, DATA_DIR: dataDir, WEB_CONCURRENCY: '1', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'production', SEED_DEMO: 'false' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const address = await waitForLine(child, /serving on (http:\/\/[^\s"]+)/);
  child.stdout?.resume();
  const port = Number(new URL(address).port);
  // Site 1 answers on localhost; the socket goes to 127.0.0.1 all the same.
  return { name, child, port, host: `localhost:${port}` };
}

/** One POST /api/chat.php; resolves with the HTTP status. */
function post(server: Server, token: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path: '/api/chat.php',
        headers: { host: server.host, origin: `http://${server.host}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), cookie: `lang=en; session=${token}` },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** A measured receiver: a live stream whose message events are timed against their sends. */
interface Receiver {
  memberId: number;
  /** Called with the client id of each message event that arrives. */
  onMessage: (clientId: string) => void;
  close(): void;
}

function openReceiver(server: Server, memberId: number): Promise<Receiver> {
  return new Promise((resolve, reject) => {
    const receiver: Receiver = { memberId, onMessage: () => {}, close: () => req.destroy() };
    const req = request(
      { host: '127.0.0.1', port: server.port, path: '/api/events.php', agent: false, headers: { host: server.host, cookie: `lang=en; session=${tokenOf(memberId)}` } },
      (res: IncomingMessage) => {
        if (res.statusCode !== 200) {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => reject(new Error(`receiver stream answered ${res.statusCode}: ${text.slice(0, 300)}`)));
          return;
        }
        onSseEvents(res, ({ event, data }) => {
          if (event === 'ready') resolve(receiver);
          if (event === 'message' && data) receiver.onMessage((JSON.parse(data) as { client_id: string }).client_id);
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Idle streams held by client processes. */
class Holders {
  private readonly holders: ChildProcess[] = [];

  async open(server: Server, memberIds: number[], until: number): Promise<{ opened: number; failed: number; reasons: Record<string, number> }> {
    const parts: number[][] = [];
    for (let i = 0; i < memberIds.length; i += PER_HOLDER) parts.push(memberIds.slice(i, i + PER_HOLDER));
    const results = await Promise.all(
      parts.map((ids) => {
        const holder = fork(join(root, 'bench/chat-holder.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
        this.holders.push(holder);
        children.push(holder);
        holder.on('error', () => {}); // a holder gone already (the deadline): nothing to tell it
        return new Promise<{ opened: number; failed: number; reasons: Record<string, number> }>((resolve, reject) => {
          holder.once('message', (m: { opened: number; failed: number; reasons: Record<string, number> }) => resolve(m));
          holder.once('exit', (code) => reject(new Error(`a stream holder exited (${code})`)));
          holder.send({ type: 'open', port: server.port, host: server.host, tokens: ids.map(tokenOf), until });
        });
      }),
    );
    const reasons: Record<string, number> = {};
    for (const r of results) for (const [k, v] of Object.entries(r.reasons)) reasons[k] = (reasons[k] ?? 0) + v;
    return { opened: results.reduce((s, r) => s + r.opened, 0), failed: results.reduce((s, r) => s + r.failed, 0), reasons };
  }

  async close(): Promise<void> {
    await Promise.all(
      this.holders.map(
        (h) =>
          new Promise((r) => {
            if (h.exitCode !== null || h.signalCode !== null || !h.connected) return r(null);
            h.once('exit', r);
            h.send({ type: 'close' }, (err) => {
              if (err) r(null);
            });
          }),
      ),
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// Measurements

async function notifyRoundTrip(url: string): Promise<{ p50: number; p99: number }> {
  const listener = postgres(url, { max: 1, onnotice: () => {} });
  const notifier = postgres(url, { max: 1, onnotice: () => {} });
  try {
    let arrived: (() => void) | null = null;
    await listener.listen('bench_round_trip', () => arrived?.());
    await notifier`select 1`;
    const ms: number[] = [];
    for (let i = 0; i < NOTIFY_RUNS + 50; i++) {
      const got = new Promise<void>((r) => (arrived = r));
      const t = performance.now();
      await notifier.notify('bench_round_trip', String(i));
      await got;
      if (i >= 50) ms.push(performance.now() - t);
    }
    return { p50: percentile(ms, 50), p99: percentile(ms, 99) };
  } finally {
    await listener.end();
    await notifier.end();
  }
}

let serial = 0;

/** Sends one after another from `senderId` through `via` to the receiver; answers the send → arrival times (ms). */
async function latencies(via: Server, senderId: number, receiver: Receiver, count: number): Promise<{ ms: number[]; answerMs: number[]; afterAnswerMs: number[] }> {
  const ms: number[] = [];
  const answerMs: number[] = [];
  /** Arrival after the send was answered (the message committed): the delivery path alone; 0 when it came first. */
  const afterAnswerMs: number[] = [];
  for (let i = 0; i < count; i++) {
    const clientId = `lat-${process.pid}-${++serial}`;
    const arrived = new Promise<number>((resolve) => {
      receiver.onMessage = (id) => {
        if (id === clientId) resolve(performance.now());
      };
    });
    const started = performance.now();
    const status = await post(via, tokenOf(senderId), { to: receiver.memberId, client_id: clientId, body: `hallo ${i}` });
    const answered = performance.now();
    if (status !== 201) throw new Error(`a send answered ${status}`);
    const at = await withTimeout(arrived, 10_000, 'a message never arrived on the stream');
    ms.push(at - started);
    answerMs.push(answered - started);
    afterAnswerMs.push(Math.max(0, at - answered));
  }
  return { ms, answerMs, afterAnswerMs };
}

/** SENDERS members send at once through `via` for SUSTAIN_SECONDS; each message counts when it arrives. */
async function sustained(via: Server, senders: number[], receivers: Receiver[]): Promise<{ perSecond: number; delivered: number; refused: number }> {
  const pending = new Set<string>();
  let delivered = 0;
  let allIn: (() => void) | null = null;
  for (const r of receivers)
    r.onMessage = (id) => {
      if (pending.delete(id)) {
        delivered++;
        if (pending.size === 0) allIn?.();
      }
    };
  let refused = 0;
  const started = performance.now();
  const until = started + SUSTAIN_SECONDS * 1000;
  await Promise.all(
    senders.map(async (sender, i) => {
      const receiver = receivers[i % receivers.length]!;
      while (performance.now() < until) {
        const clientId = `load-${process.pid}-${++serial}`;
        pending.add(clientId);
        const status = await post(via, tokenOf(sender), { to: receiver.memberId, client_id: clientId, body: 'load' });
        if (status !== 201) {
          pending.delete(clientId);
          refused++;
        }
      }
    }),
  );
  if (pending.size > 0) await withTimeout(new Promise<void>((r) => (allIn = r)), 20_000, `${pending.size} messages never arrived`);
  const elapsed = (performance.now() - started) / 1000;
  return { perSecond: delivered / elapsed, delivered, refused };
}

interface SendFigures {
  sends: number;
  ok: number;
  serverErrors: number;
  other: number;
  perSecond: number;
  p50: number;
  p99: number;
}

/** Each route (a member writing to another through a server) keeps IN_FLIGHT sends in flight for SUSTAIN_SECONDS; counted on the answer. */
async function sendsInFlight(routes: Array<{ via: Server; from: number; to: number }>): Promise<SendFigures> {
  const ms: number[] = [];
  const statuses: number[] = [];
  const started = performance.now();
  const until = started + SUSTAIN_SECONDS * 1000;
  await Promise.all(
    routes.flatMap((route) =>
      Array.from({ length: IN_FLIGHT }, async () => {
        while (performance.now() < until) {
          const t = performance.now();
          const status = await post(route.via, tokenOf(route.from), { to: route.to, client_id: `pair-${process.pid}-${++serial}`, body: 'hallo' }).catch(() => 0);
          ms.push(performance.now() - t);
          statuses.push(status);
        }
      }),
    ),
  );
  const ok = statuses.filter((s) => s >= 200 && s < 300).length;
  const serverErrors = statuses.filter((s) => s >= 500).length;
  return {
    sends: statuses.length,
    ok,
    serverErrors,
    other: statuses.length - ok - serverErrors,
    perSecond: ok / ((performance.now() - started) / 1000),
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([promise, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------------------------------------------

const name = `bench_chat_${randomBytes(4).toString('hex')}`;
const admin = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${name}`);
await admin.end();
const dbUrl = new URL(POSTGRES_URL);
dbUrl.pathname = `/${name}`;
const url = dbUrl.toString();
const dataDir = await mkdtemp(join(tmpdir(), 'dating-bench-chat-'));
const holders = new Holders();
cleanup = async () => {
  await holders.close().catch(() => {});
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.once('exit', r)))));
  const a = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} });
  await a.unsafe(`drop database if exists ${name} with (force)`);
  await a.end();
  await rm(dataDir, { recursive: true, force: true });
};

try {
  const startedAt = performance.now();
  const maxLevel = Math.max(...LEVELS);
  const database = await openDatabase(url);
  await seedDemo({ db: database.db, photos: new LocalPhotoStore(join(dataDir, 'photos')), clock: { now: () => new Date() }, profilesPerSite: 0 });
  // Senders (paid, with credits through the ledger), the measured receivers, and the idle members of both processes.
  const senders = await addMembers(database, SENDERS);
  await database.db.execute(sql`update users set paid_user = true where id between ${senders[0]!} and ${senders[senders.length - 1]!}`);
  for (const id of senders) await grant(database.db, { memberId: id, amount: 1_000_000, reason: 'bench', reference: `bench:${id}` });
  const receiverIds = await addMembers(database, 8);
  /** Members who only read: the one-way sends' recipients. */
  const readers = await addMembers(database, SENDERS);
  const idleA = await addMembers(database, maxLevel);
  const idleB = await addMembers(database, maxLevel);
  await database.db.execute(sql`analyze`);
  await database.close();
  const seeded = (performance.now() - startedAt) / 1000;

  const notify = await notifyRoundTrip(url);
  const [a, b] = await Promise.all([startServer('A', url, dataDir), startServer('B', url, dataDir)]);
  const baseRss = { a: rssKb(a.child.pid!), b: rssKb(b.child.pid!) };
  const onA = await openReceiver(a, receiverIds[0]!);
  const onB = await Promise.all(receiverIds.slice(1).map((id) => openReceiver(b, id)));
  // Warm-up: plans, JIT, pool connections, the conversations started.
  await latencies(a, senders[0]!, onA, 30);
  await latencies(a, senders[0]!, onB[0]!, 30);
  await sustained(a, senders, onB);
  const warmRss = { a: rssKb(a.child.pid!), b: rssKb(b.child.pid!) };

  // Sends between members, before the idle streams: half the senders through A, half through B. One-way:
  // each writes to a reader; two-way: the same senders in pairs (one on A, one on B) write to each other.
  const half = Math.floor(SENDERS / 2);
  const viaOf = (i: number) => (i < half ? a : b);
  const oneWay = await sendsInFlight(senders.map((from, i) => ({ via: viaOf(i), from, to: readers[i]! })));
  const twoWay = await sendsInFlight(senders.slice(0, 2 * half).map((from, i) => ({ via: viaOf(i), from, to: senders[i < half ? i + half : i - half]! })));

  interface Row {
    streams: number;
    opened: { a: number; b: number };
    failures: string;
    same: { p50: number; p99: number; answer: number };
    cross: { p50: number; p99: number; answer: number; afterP50: number; afterP99: number };
    perSecond: number;
    rssPerStream: { a: number; b: number };
    openSeconds: number;
    cpuPerMessage: number;
  }
  const results: Row[] = [];
  let openA = 0;
  let openB = 0;
  for (const level of [...LEVELS].sort((x, y) => x - y)) {
    const t = performance.now();
    const [ra, rb] = await Promise.all([
      holders.open(a, idleA.slice(openA, level), benchStarted + DEADLINE_MS - MEASURE_RESERVE_MS),
      holders.open(b, idleB.slice(openB, level), benchStarted + DEADLINE_MS - MEASURE_RESERVE_MS),
    ]);
    openA += ra.opened;
    openB += rb.opened;
    const openSeconds = (performance.now() - t) / 1000;
    const reasons = { ...ra.reasons };
    for (const [k, v] of Object.entries(rb.reasons)) reasons[k] = (reasons[k] ?? 0) + v;
    // Let the opening's garbage be collected before RSS is read: a few idle heartbeats' worth.
    await new Promise((r) => setTimeout(r, 2_000));
    const rss = { a: rssKb(a.child.pid!), b: rssKb(b.child.pid!) };
    const same = await latencies(a, senders[1]!, onA, SENDS);
    const cross = await latencies(a, senders[2]!, onB[0]!, SENDS);
    const cpuBefore = cpuMs(a.child.pid!) + cpuMs(b.child.pid!);
    const load = await sustained(a, senders, onB);
    const cpuPerMessage = (cpuMs(a.child.pid!) + cpuMs(b.child.pid!) - cpuBefore) / Math.max(1, load.delivered);
    results.push({
      cpuPerMessage,
      streams: level,
      opened: { a: openA, b: openB },
      failures: Object.entries(reasons)
        .map(([k, v]) => `${v}× ${k}`)
        .join(', '),
      same: { p50: percentile(same.ms, 50), p99: percentile(same.ms, 99), answer: percentile(same.answerMs, 50) },
      cross: {
        p50: percentile(cross.ms, 50),
        p99: percentile(cross.ms, 99),
        answer: percentile(cross.answerMs, 50),
        afterP50: percentile(cross.afterAnswerMs, 50),
        afterP99: percentile(cross.afterAnswerMs, 99),
      },
      perSecond: load.perSecond,
      rssPerStream: { a: (rss.a - warmRss.a) / Math.max(1, openA), b: (rss.b - warmRss.b) / Math.max(1, openB) },
      openSeconds,
    });
    const r = results[results.length - 1]!;
    console.log(
      `  measured ${level} idle streams per process (${r.opened.a}/${r.opened.b} open, in ${openSeconds.toFixed(0)} s): cross p99 ${r.cross.p99.toFixed(1)} ms, ${r.perSecond.toFixed(0)} msg/s`,
    );
  }

  onA.close();
  for (const r of onB) r.close();
  const f = (n: number, d = 1) => n.toFixed(d).padStart(9);
  console.log(
    `\nmachine: ${availableParallelism()} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (other work shares the cores: wall-clock figures are noisy, CPU ms/msg less so)`,
  );
  console.log(`chat delivery on PostgreSQL (fresh database, seeded in ${seeded.toFixed(1)} s), two server processes A and B (one process each), ${SENDS} sends per figure`);
  console.log("latency: HTTP POST /api/chat.php written to A → the message event read off the receiver's SSE stream; same = stream on A, cross = stream on B");
  console.log(`server RSS: A ${(baseRss.a / 1024).toFixed(0)} MB at start, ${(warmRss.a / 1024).toFixed(0)} MB warmed up; B ${(baseRss.b / 1024).toFixed(0)} MB, ${(warmRss.b / 1024).toFixed(0)} MB`);
  console.log(
    `\n${'idle streams per process'.padEnd(26)}${'open A/B'.padStart(13)}${'same p50'.padStart(9)}${'same p99'.padStart(9)}${'cross p50'.padStart(10)}${'cross p99'.padStart(10)}${'POST p50'.padStart(9)}${'msg/s'.padStart(9)}${'CPU ms/msg'.padStart(11)}${'KB/stream A'.padStart(12)}${'KB/stream B'.padStart(12)}`,
  );
  for (const r of results)
    console.log(
      `${String(r.streams).padEnd(26)}${`${r.opened.a}/${r.opened.b}`.padStart(13)}${f(r.same.p50, 2)}${f(r.same.p99, 2)}${f(r.cross.p50, 2).padStart(10)}${f(r.cross.p99, 2).padStart(10)}${f(r.cross.answer, 2)}${f(r.perSecond, 0)}${f(r.cpuPerMessage, 2).padStart(11)}${f(r.rssPerStream.a).padStart(12)}${f(r.rssPerStream.b).padStart(12)}`,
    );
  for (const r of results) if (r.failures) console.log(`  ${r.streams}: streams not opened: ${r.failures}`);
  console.log(
    `  (latencies in ms; msg/s = ${SENDERS} senders at once through A to ${onB.length} receivers on B for ${SUSTAIN_SECONDS} s, counted on arrival; CPU ms/msg = CPU time of A and B together during that load / messages; KB/stream = RSS growth over the warmed-up server / its open streams)`,
  );
  console.log(`  opening the streams took ${results.map((r) => `${r.openSeconds.toFixed(1)} s`).join(', ')}`);
  console.log(`\nsends between members (before the idle streams): ${SENDERS} senders, ${IN_FLIGHT} in flight each, for ${SUSTAIN_SECONDS} s, half through A, half through B`);
  console.log(`${'case'.padEnd(26)}${'sends'.padStart(9)}${'2xx'.padStart(9)}${'5xx'.padStart(9)}${'other'.padStart(9)}${'msg/s'.padStart(9)}${'POST p50'.padStart(10)}${'POST p99'.padStart(10)}`);
  for (const [label, r] of [
    ['one-way (to a reader)', oneWay],
    ['two-way (pairs, A ↔ B)', twoWay],
  ] as const)
    console.log(`${label.padEnd(26)}${f(r.sends, 0)}${f(r.ok, 0)}${f(r.serverErrors, 0)}${f(r.other, 0)}${f(r.perSecond, 0)}${f(r.p50, 2).padStart(10)}${f(r.p99, 2).padStart(10)}`);
  console.log(`  (msg/s = 2xx answers per second; POST latency in ms over every answer; 5xx are failed sends, e.g. deadlocks)`);
  console.log(`\nbare NOTIFY round trip (LISTEN on one connection, NOTIFY from another, ${NOTIFY_RUNS} runs): p50 ${notify.p50.toFixed(2)} ms, p99 ${notify.p99.toFixed(2)} ms`);
  const top = results[results.length - 1]!;
  const ratio = top.cross.p99 / notify.p99;
  console.log('\ngoals');
  console.log(
    `  cross-process p99 ≤ 3× bare NOTIFY p99 (${(3 * notify.p99).toFixed(2)} ms): ${top.cross.p99.toFixed(2)} ms at ${top.streams} streams = ${ratio.toFixed(1)}× → ${ratio <= 3 ? 'met' : 'NOT met'}`,
  );
  const after = top.cross.afterP99 / notify.p99;
  console.log(
    `    the delivery path alone (arrival on B after A answered the send, i.e. after the commit): p50 ${top.cross.afterP50.toFixed(2)} ms, p99 ${top.cross.afterP99.toFixed(2)} ms = ${after.toFixed(1)}× the bare NOTIFY p99 → ${after <= 3 ? 'met' : 'NOT met'}`,
  );
  const added = top.cross.p99 - top.same.p99;
  console.log(
    `    what crossing processes adds (cross p99 − same p99): ${added.toFixed(2)} ms = ${(added / notify.p99).toFixed(1)}× the bare NOTIFY p99 → ${added <= 3 * notify.p99 ? 'met' : 'NOT met'}`,
  );
  const worst = Math.max(top.rssPerStream.a, top.rssPerStream.b);
  const all = top.opened.a >= 10_000 && top.opened.b >= 10_000;
  if (!all) console.log(`  (fewer than 10,000 streams per process: ${top.failures || 'see above'})`);
  console.log(`  10,000 open streams per process at ≤ 20 KB each: ${top.opened.a}/${top.opened.b} open at ${worst.toFixed(1)} KB → ${all && worst <= 20 ? 'met' : 'NOT met'}`);
  console.log(`\ntotal ${((performance.now() - startedAt) / 1000).toFixed(0)} s`);
} finally {
  await cleanup();
}
