/**
 * Capacity figures (SCALE-03, docs/scaling.md): what the capacity model is computed from, measured on
 * this machine against the local PostgreSQL (127.0.0.1:5432, a throwaway database).
 *
 * 1. NOTIFY throughput: 8 connections publish `pg_notify` (a 120-byte payload like the bus's, each its
 *    own transaction) as fast as they can for a few seconds while 1, 4 and 16 connections LISTEN (one
 *    per app process): notifications per second every listener received, and the delivery latency.
 * 2. Storage per row: 20,000 members (users, profiles, 1–3 photo rows, likes, blocks) and 200,000
 *    messages (text of 20–140 characters, with their credit-ledger rows), sizes with indexes and TOAST.
 * 3. CPU per chat message: the built server (one process) on that database; two members send 400
 *    messages to each other, one after another; the app's and PostgreSQL's CPU per send (from /proc).
 * 4. A photo upload: a 1600×1200 photo-like JPEG through the app's pipeline (processImage): bytes stored
 *    (main, thumbnail) and CPU milliseconds.
 *
 *   npm run build && npm run bench:capacity
 *   BENCH_PARTS=chat,photo npm run bench:capacity
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import postgres from 'postgres';
import sharp from 'sharp';
import { openDatabase, type Database } from '../src/db/client';
import { DEMO_ACCOUNTS, seedDemo } from '../src/demo/seed';
import { grant } from '../src/server/credits/ledger';
import { LocalPhotoStore } from '../src/server/photos/store';
import { processImage } from '../src/server/photos/upload';
import { percentile } from '../src/server/staff/operator';
import { call, startBuiltServer, stopBuiltServer } from '../tests/setup/built-server';
import { localPostgresPid, treeCpuMs } from './process';

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const PARTS = new Set((process.env.BENCH_PARTS ?? 'notify,storage,chat,photo').split(',').map((p) => p.trim()));

async function rows<T>(database: Database, query: SQL): Promise<T[]> {
  const result = (await database.db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

// ---------------------------------------------------------------------------------------------------
// 1. NOTIFY

interface NotifyFigures {
  listeners: number;
  perSecond: number;
  p50: number;
  p99: number;
}

async function notifyThroughput(url: string, listeners: number): Promise<NotifyFigures> {
  const channel = `capacity_${randomBytes(3).toString('hex')}`;
  const listening = Array.from({ length: listeners }, () => postgres(url, { max: 1, onnotice: () => {} }));
  const received = listening.map(() => 0);
  const latencies: number[] = [];
  await Promise.all(
    listening.map((client, i) =>
      client.listen(channel, (payload) => {
        received[i]!++;
        if (i === 0) latencies.push(performance.timeOrigin + performance.now() - Number(payload.slice(0, payload.indexOf('|'))));
      }),
    ),
  );
  const publishers = Array.from({ length: 8 }, () => postgres(url, { max: 1, onnotice: () => {} }));
  const filler = 'x'.repeat(100);
  let sent = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    publishers.map(async (client) => {
      while (performance.now() < until) {
        await client`select pg_notify(${channel}, ${`${performance.timeOrigin + performance.now()}|${filler}`})`;
        sent++;
      }
    }),
  );
  // Let the listeners drain what is still queued (bounded).
  const drainUntil = performance.now() + 10_000;
  while (Math.min(...received) < sent && performance.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 20));
  await Promise.all([...listening, ...publishers].map((c) => c.end({ timeout: 1 })));
  latencies.sort((a, b) => a - b);
  return { listeners, perSecond: Math.round(Math.min(...received) / SECONDS), p50: percentile(latencies, 0.5) ?? NaN, p99: percentile(latencies, 0.99) ?? NaN };
}

// ---------------------------------------------------------------------------------------------------
// 2. Storage

/** Adds `count` members to site 1 as the members benchmark does: profile, two photo rows, two likes, a session each. */
async function addMembers(database: Database, count: number): Promise<void> {
  const [free] = await rows<{ id: number }>(database, sql`select id from users where site_id = 1 and lower(email) = ${DEMO_ACCOUNTS.free.email}`);
  const [{ first }] = (await rows<{ first: number }>(database, sql`select coalesce(max(id), 0) + 1 as first from users`)) as [{ first: number }];
  const from = Number(first);
  const to = from + count - 1;
  await database.db.execute(sql`
    insert into users (id, site_id, email, password_hash, role, status, email_confirmed_at, language)
    select g, 1, 'capacity-' || g || '@bench.test', '$argon2id$v=19$m=19456,t=2,p=1$' || md5(g::text) || '$' || md5((g + 1)::text), 'member', 'active', now(), 'nl'
    from generate_series(${from}::int, ${to}::int) g`);
  await database.db.execute(sql`select setval(pg_get_serial_sequence('users', 'id'), (select max(id) from users))`);
  await database.db.execute(sql`
    insert into profiles (user_id, site_id, name, status, gender, sexuality, birth_date, country, region_id, about)
    select g, 1, 'Lid ' || g, 'active', p.gender, p.sexuality, p.birth_date, p.country, p.region_id, left(repeat(md5(g::text), 6), 40 + g % 160)
    from generate_series(${from}::int, ${to}::int) g, profiles p where p.user_id = ${Number(free!.id)}`);
  await database.db.execute(sql`
    insert into photos (user_id, filename, thumb_filename, status, width, height, position)
    select g, md5(g::text || k) || '-main.webp', md5(g::text || k) || '-thumb.webp', 'active', 480, 600, k from generate_series(${from}::int, ${to}::int) g, generate_series(0, 1) k`);
  await database.db.execute(sql`
    insert into likes (liker_id, liked_id, site_id) select g, ${from} + ((g * 7919 + k) % ${count}), 1 from generate_series(${from}::int, ${to}::int) g, generate_series(1, 2) k
    where ${from} + ((g * 7919 + k) % ${count}) <> g on conflict do nothing`);
  await database.db.execute(sql`
    insert into sessions (id, user_id, expires_at) select encode(sha256(convert_to('capacity-' || g, 'UTF8')), 'hex'), g, now() + interval '29 days' from generate_series(${from}::int, ${to}::int) g`);
}

async function relationBytes(database: Database, tables: string[]): Promise<number> {
  const [row] = await rows<{ bytes: string }>(
    database,
    sql`select sum(pg_total_relation_size(t::regclass))::bigint as bytes from unnest(${sql.raw(`array[${tables.map((t) => `'${t}'`).join(',')}]`)}) t`,
  );
  return Number(row!.bytes);
}

async function storage(database: Database): Promise<{ perMember: number; perMessage: number; members: number; messages: number }> {
  const memberTables = ['users', 'profiles', 'photos', 'likes', 'blocks', 'sessions'];
  const membersBefore = Number((await rows<{ n: string }>(database, sql`select count(*) as n from users`))[0]!.n);
  const bytesBefore = await relationBytes(database, memberTables);
  await addMembers(database, 20_000);
  await database.db.execute(sql`vacuum analyze`);
  const members = Number((await rows<{ n: string }>(database, sql`select count(*) as n from users`))[0]!.n) - membersBefore;
  const perMember = ((await relationBytes(database, memberTables)) - bytesBefore) / members;

  // 10,000 conversations of two new members each, 20 messages each, half of them paid (a ledger row).
  const messageTables = ['messages', 'credit_ledger', 'conversations', 'conversation_members'];
  const before = await relationBytes(database, messageTables);
  await database.db.execute(sql`
    insert into conversations (site_id, member_low, member_high, started_by, created_at)
    select 1, u.id, u.id + 1, u.id, now() from users u where u.email like 'capacity-%' and u.id % 2 = 0 and exists (select 1 from users v where v.id = u.id + 1)
    on conflict do nothing`);
  await database.db.execute(sql`
    insert into conversation_members (conversation_id, user_id, other_id)
    select id, member_low, member_high from conversations union all select id, member_high, member_low from conversations
    on conflict do nothing`);
  await database.db.execute(sql`select setseed(0.42)`);
  await database.db.execute(sql`
    insert into messages (conversation_id, sender_id, recipient_id, kind, body, client_id, credits, created_at)
    select c.id, case when g % 2 = 0 then c.member_low else c.member_high end, case when g % 2 = 0 then c.member_high else c.member_low end, 'text',
           left(repeat(md5(random()::text) || ' ', 5), 20 + (random() * 120)::int), gen_random_uuid()::text, case when g % 2 = 0 then 10 else 0 end, now()
    from conversations c, generate_series(1, 20) g`);
  await database.db.execute(sql`
    insert into credit_ledger (user_id, delta, reason, reference, created_at, balance_after)
    select sender_id, -credits, 'message', 'message:' || id, created_at, 1000 from messages where credits > 0`);
  await database.db.execute(sql`vacuum analyze`);
  const messages = Number((await rows<{ n: string }>(database, sql`select count(*) as n from messages`))[0]!.n);
  const perMessage = ((await relationBytes(database, messageTables)) - before) / messages;
  return { perMember, perMessage, members, messages };
}

// ---------------------------------------------------------------------------------------------------
// 3. CPU per chat message

async function chatCpu(url: string, dataDir: string): Promise<{ sends: number; appMs: number; dbMs: number | null }> {
  const server = await startBuiltServer(url, { DATA_DIR: dataDir, SEED_DEMO: 'false' });
  const database = await openDatabase(url, { migrate: false, poolSize: 2 });
  try {
    const login = async (account: { email: string; password: string }) => {
      const answer = await call(server, 'POST', '/api/user.php', { json: account });
      await grant(database.db, { memberId: answer.json.id, amount: 100_000, reason: 'test', reference: `bench:capacity:${answer.json.id}:${Date.now()}` });
      return { id: answer.json.id as number, session: answer.cookies.session! };
    };
    const a = await login(DEMO_ACCOUNTS.premium);
    const b = await login(DEMO_ACCOUNTS.free);
    const send = (from: typeof a, to: typeof b, i: number) =>
      call(server, 'POST', '/api/chat.php', { json: { to: to.id, client_id: `cap-${i}-${Date.now()}`, body: `Bericht nummer ${i}, hoe gaat het?` }, cookies: { session: from.session } });
    for (let i = 0; i < 40; i++) await send(i % 2 ? a : b, i % 2 ? b : a, i); // warm up
    // PostgreSQL's CPU: the backends of this database only (other databases on this server are not ours).
    const backends = (await rows<{ pid: number }>(database, sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`)).map((r) => Number(r.pid));
    const local = (await localPostgresPid(url)) !== null;
    const appBefore = treeCpuMs([server.child.pid!])!;
    const dbBefore = local ? treeCpuMs(backends) : null;
    const SENDS = 400;
    for (let i = 0; i < SENDS; i++) {
      const answer = await send(i % 2 ? a : b, i % 2 ? b : a, 1000 + i);
      if (answer.status !== 201) throw new Error(`send answered ${answer.status} ${JSON.stringify(answer.json)}`);
    }
    const appMs = (treeCpuMs([server.child.pid!])! - appBefore) / SENDS;
    const dbMs = dbBefore === null ? null : (treeCpuMs(backends)! - dbBefore) / SENDS;
    return { sends: SENDS, appMs, dbMs };
  } finally {
    await database.close();
    await stopBuiltServer(server);
  }
}

// ---------------------------------------------------------------------------------------------------
// 4. A photo upload

async function photoFigures(): Promise<{ inputKb: number; mainKb: number; thumbKb: number; cpuMs: number }> {
  // Photo-like: smooth light and shade with random grain (what makes real photos cost bytes), softened a little.
  const width = 1600;
  const height = 1200;
  const grain = randomBytes(width * height * 3);
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < 3; c++) {
        const i = (y * width + x) * 3 + c;
        pixels[i] = Math.min(255, Math.round(60 + (x / width) * 90 + (y / height) * 50 * (c + 1) * 0.5 + (grain[i]! - 128) * 0.35));
      }
  const input = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .blur(1.2)
    .jpeg({ quality: 85 })
    .toBuffer();
  const started = process.cpuUsage();
  let last: { main: Buffer; thumb: Buffer } = { main: Buffer.alloc(0), thumb: Buffer.alloc(0) };
  const RUNS = 10;
  for (let i = 0; i < RUNS; i++) last = await processImage(input);
  const used = process.cpuUsage(started);
  return { inputKb: input.length / 1024, mainKb: last.main.length / 1024, thumbKb: last.thumb.length / 1024, cpuMs: (used.user + used.system) / 1000 / RUNS };
}

// ---------------------------------------------------------------------------------------------------

const admin = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} });
const name = `bench_capacity_${randomBytes(4).toString('hex')}`;
await admin.unsafe(`create database ${name}`);
const url = new URL(POSTGRES_URL);
url.pathname = `/${name}`;
const dataDir = await mkdtemp(join(tmpdir(), 'bench-capacity-'));
try {
  console.log(`capacity figures on this machine (${POSTGRES_URL.replace(/\/[^/]*$/, '')}, PostgreSQL ${(await admin`show server_version`)[0]!.server_version})\n`);
  if (PARTS.has('notify')) console.log('1. NOTIFY: 8 publishers, 120-byte payloads, each its own transaction');
  for (const listeners of PARTS.has('notify') ? [1, 4, 16] : []) {
    const n = await notifyThroughput(url.toString(), listeners);
    console.log(`   ${String(listeners).padStart(2)} listening: ${n.perSecond.toLocaleString('en')} notifications/s to each, latency p50 ${n.p50.toFixed(1)} ms, p99 ${n.p99.toFixed(1)} ms`);
  }

  const database = await openDatabase(url.toString());
  await seedDemo({ db: database.db, photos: new LocalPhotoStore(join(dataDir, 'photos')), clock: { now: () => new Date() }, profilesPerSite: 8 });
  const s = PARTS.has('storage') ? await storage(database) : null;
  await database.close();
  if (s)
    console.log(
      `\n2. storage with indexes: ${(s.perMember / 1024).toFixed(2)} kB per member (${s.members.toLocaleString('en')} added), ${s.perMessage.toFixed(0)} B per message with its ledger row (${s.messages.toLocaleString('en')})`,
    );

  const chat = PARTS.has('chat') ? await chatCpu(url.toString(), dataDir) : null;
  if (chat)
    console.log(
      `\n3. a chat message sent (POST /api/chat.php, one process, one after another, ${chat.sends} sends): app ${chat.appMs.toFixed(2)} ms CPU, PostgreSQL ${chat.dbMs?.toFixed(2) ?? '?'} ms CPU`,
    );

  const photo = PARTS.has('photo') ? await photoFigures() : null;
  if (photo)
    console.log(
      `\n4. a photo upload (a ${photo.inputKb.toFixed(0)} kB 1600×1200 JPEG): ${photo.mainKb.toFixed(1)} kB main + ${photo.thumbKb.toFixed(1)} kB thumbnail stored, ${photo.cpuMs.toFixed(0)} ms CPU to process`,
    );
  console.log(`\n${JSON.stringify({ storage: s, chat, photo })}`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}
