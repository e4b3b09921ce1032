/**
 * What SCALE-02 asks of three processes behind a balancer, as checks over HTTP (and the database and
 * bucket where a check must look behind the answers). Each check throws with what it saw when the
 * guarantee does not hold, and otherwise answers one line with its figures. The cluster test runs them
 * as its tests; `npm run cluster` prints them.
 */
import { request, type ClientRequest } from 'node:http';
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { openDatabase, type Database } from '../../src/db/client';
import { jobRuns, messages, photos, users } from '../../src/db/schema';
import { DEMO_ACCOUNTS } from '../../src/demo/seed';
import { DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET } from '../../src/demo/staff';
import { grant } from '../../src/server/credits/ledger';
import { totpCode } from '../../src/server/staff/accounts';
import { call, raw, type Answer } from './built-server';
import type { Cluster } from './cluster';
import { inFlight } from './kit';
import { onSseEvents, type SseEvent } from './sse';

interface Member {
  id: number;
  session: string;
}

/** What the checks share: the database, the two demo members (logged in through the balancer). */
export interface ClusterContext {
  cluster: Cluster;
  db: Database;
  a: Member;
  b: Member;
}

const servedBy = (answer: { headers: Record<string, string | string[] | undefined> }) => String(answer.headers['x-served-by'] ?? '?');
const lb = (c: Cluster) => c.balancer;

function must(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** Waits for `ready()` to hold, asking every 50 ms, at most `ms`; throws `message` then. */
async function until(ready: () => Promise<boolean>, ms: number, message: string): Promise<number> {
  const started = performance.now();
  while (!(await ready())) {
    if (performance.now() - started > ms) throw new Error(message);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Math.round(performance.now() - started);
}

async function login(c: Cluster, email: string, password: string): Promise<Member & { by: string }> {
  const answer = await call(lb(c), 'POST', '/api/user.php', { json: { email, password } });
  must(answer.status === 200, `login of ${email} answered ${answer.status} ${JSON.stringify(answer.json)}`);
  return { id: answer.json.id, session: answer.cookies.session!, by: servedBy(answer) };
}

export async function clusterContext(cluster: Cluster): Promise<ClusterContext> {
  const db = await openDatabase(cluster.databaseUrl, { migrate: false, poolSize: 2 });
  const a = await login(cluster, DEMO_ACCOUNTS.premium.email, DEMO_ACCOUNTS.premium.password);
  const b = await login(cluster, DEMO_ACCOUNTS.free.email, DEMO_ACCOUNTS.free.password);
  // Credits for every send of the checks, booked through the ledger like a purchase.
  for (const m of [a, b]) await grant(db.db, { memberId: m.id, amount: 20_000, reason: 'test', reference: `test:cluster:${m.id}:${Date.now()}` });
  return { cluster, db, a, b };
}

/** A small PNG of its own colour per call (sharp), as a member's upload. */
async function png(seed: number): Promise<Buffer> {
  return sharp({ create: { width: 400, height: 500, channels: 3, background: { r: (seed * 37) % 256, g: (seed * 91) % 256, b: 140 } } })
    .png()
    .toBuffer();
}

/** POST /api/photos.php through `server` with the file and an idempotency key. */
async function uploadPhoto(server: { port: number }, member: Member, seed: number, clientId: string) {
  const form = new FormData();
  form.append('photo', new File([new Uint8Array(await png(seed))], 'photo.png', { type: 'image/png' }));
  form.append('client_id', clientId);
  const encoded = new Response(form);
  const answer = await raw(server, 'POST', '/api/photos.php', {
    body: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
    cookies: { session: member.session },
  });
  let json: { photo?: { id: number; thumb_filename: string } } = {};
  try {
    json = JSON.parse(answer.body.toString());
  } catch {
    // A balancer's error page.
  }
  return { status: answer.status, photo: json.photo, by: servedBy(answer) };
}

const sendMessage = (server: { port: number }, from: Member, to: number, clientId: string, body: string) =>
  call(server, 'POST', '/api/chat.php', { json: { to, client_id: clientId, body }, cookies: { session: from.session } });

/** A live stream of `member` on `server`, collecting its events; `lastEventId` asks for a resync. */
function openStream(server: { port: number }, member: Member, lastEventId?: string) {
  const events: SseEvent[] = [];
  const waiters: Array<() => void> = [];
  let closed = false;
  const req: ClientRequest = request(
    {
      host: '127.0.0.1',
      port: server.port,
      path: '/api/events.php',
      agent: false,
      headers: { host: `localhost:${server.port}`, cookie: `lang=en; session=${member.session}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    },
    (res) => {
      onSseEvents(res, (event) => {
        events.push(event);
        for (const w of waiters.splice(0)) w();
      });
      res.on('close', () => {
        closed = true;
        for (const w of waiters.splice(0)) w();
      });
    },
  );
  req.on('error', () => {
    closed = true;
    for (const w of waiters.splice(0)) w();
  });
  req.end();
  return {
    events,
    get closed() {
      return closed;
    },
    /** Resolves when an event matches (or the stream ends: then rejects). */
    next(match: (e: SseEvent) => boolean, ms = 15_000): Promise<SseEvent> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching event in ${ms} ms (saw ${events.map((e) => e.event).join(', ')})`)), ms);
        const look = () => {
          const found = events.find(match);
          if (found) return (clearTimeout(timer), resolve(found));
          if (closed) return (clearTimeout(timer), reject(new Error('the stream ended')));
          waiters.push(look);
        };
        look();
      });
    },
    /** Resolves when the stream has ended (the process serving it died). */
    ended(): Promise<void> {
      return new Promise((resolve) => {
        const look = () => (closed ? resolve() : waiters.push(look));
        look();
      });
    },
    close: () => req.destroy(),
  };
}

// ---------------------------------------------------------------------------------------------------
// The checks

export async function checkSessions(ctx: ClusterContext): Promise<string> {
  const { cluster } = ctx;
  const member = await login(cluster, DEMO_ACCOUNTS.premium.email, DEMO_ACCOUNTS.premium.password);
  const seen = new Map<string, number>();
  for (let i = 0; i < 9; i++) {
    const answer = await call(lb(cluster), 'GET', '/api/user.php', { cookies: { session: member.session } });
    must(answer.status === 200 && answer.json.id === member.id, `the session from ${member.by} answered ${answer.status} on ${servedBy(answer)}`);
    seen.set(servedBy(answer), (seen.get(servedBy(answer)) ?? 0) + 1);
  }
  must(seen.size === cluster.apps.length, `the balancer sent the session's requests to ${[...seen.keys()].join(', ')} only`);
  return `logged in through ${member.by}; the session answered by ${[...seen].map(([k, n]) => `${k} ×${n}`).join(', ')}`;
}

export async function checkRateLimits(ctx: ClusterContext): Promise<string> {
  const { cluster } = ctx;
  const email = `nobody-${Date.now()}@example.com`;
  const by = new Set<string>();
  const statuses: number[] = [];
  // AUTH-03: the fifth failure of one account within 15 minutes blocks it, wherever the failures were counted.
  for (let i = 0; i < 5; i++) {
    const answer = await call(lb(cluster), 'POST', '/api/user.php', { json: { email, password: `wrong-${i}` } });
    statuses.push(answer.status);
    by.add(servedBy(answer));
  }
  const sixth = await call(lb(cluster), 'POST', '/api/user.php', { json: { email, password: 'wrong-again' } });
  must(by.size === cluster.apps.length, `the failures went to ${[...by].join(', ')} only`);
  must(statuses.join() === '401,401,401,401,429', `the five tries answered ${statuses.join(', ')}, not four refusals and a block`);
  must(sixth.status === 429, `the sixth try (on ${servedBy(sixth)}) answered ${sixth.status} ${JSON.stringify(sixth.json)}, not 429`);
  return `5 failed logins spread over ${[...by].sort().join(', ')}: the fifth blocks (429); the sixth, on ${servedBy(sixth)}: 429 ${sixth.json?.error}`;
}

export async function checkPhotos(ctx: ClusterContext): Promise<string> {
  const { cluster, a } = ctx;
  const upload = await uploadPhoto(lb(cluster), a, 1, `cluster-photo-${Date.now()}`);
  must(upload.status === 201 && upload.photo, `the upload answered ${upload.status}`);
  const etags = new Set<string>();
  for (const app of cluster.apps) {
    const image = await raw(app, 'GET', `/photos/${upload.photo.thumb_filename}`, { cookies: { session: a.session } });
    must(image.status === 200 && image.body.length > 0, `${app.name} answered ${image.status} for the photo uploaded through ${upload.by}`);
    etags.add(String(image.headers.etag));
  }
  must(etags.size === 1, `the processes answered different photos: ${[...etags].join(', ')}`);
  return `uploaded through ${upload.by}; served by ${cluster.apps.map((x) => x.name).join(', ')} with one ETag`;
}

export async function checkLiveDelivery(ctx: ClusterContext): Promise<string> {
  const { cluster, a, b } = ctx;
  const [first, , third] = cluster.apps;
  const stream = openStream(third!, b);
  try {
    await stream.next((e) => e.event === 'ready');
    const started = performance.now();
    const sent = await sendMessage(first!, a, b.id, `cluster-live-${Date.now()}`, 'Hallo van app1');
    must(sent.status === 201, `the send answered ${sent.status}`);
    const id = sent.json.message.id as number;
    await stream.next((e) => e.event === 'message' && (JSON.parse(e.data) as { id: number }).id === id);
    return `sent through ${first!.name}, arrived live on the stream held by ${third!.name} in ${Math.round(performance.now() - started)} ms`;
  } finally {
    stream.close();
  }
}

export async function checkSettingsCaches(ctx: ClusterContext): Promise<string> {
  const { cluster } = ctx;
  const settings = async (server: { port: number }) => (await call(server, 'GET', '/api/settings.php')).json as { id: number; message_credits: number };
  // Every process has the site cached now (the cluster runs with an hour-long settings cache).
  const before = await Promise.all(cluster.apps.map(settings));
  const credits = before[0]!.message_credits + 1;
  const staff = await call(lb(cluster), 'POST', '/admin/login', { form: { email: 'admin@demo.test', password: DEMO_STAFF_PASSWORD, code: totpCode(DEMO_TOTP_SECRET, new Date()) } });
  must(staff.cookies.staff_session, `the admin login answered ${staff.status}`);
  const saved = await call(lb(cluster), 'POST', `/admin/sites/${before[0]!.id}`, { form: { 'settings.message_credits': String(credits) }, cookies: { staff_session: staff.cookies.staff_session } });
  must(saved.status === 303 && saved.location?.includes('done=saved'), `saving answered ${saved.status} ${saved.location}`);
  const waited = await Promise.all(
    cluster.apps.map((app) => until(async () => (await settings(app)).message_credits === credits, 10_000, `${app.name} still answers the old message price after 10 s`)),
  );
  return `message price ${before[0]!.message_credits} → ${credits} saved through ${servedBy(saved)}; every process answered it within ${Math.max(...waited)} ms (cache: 1 hour)`;
}

/** The `scheduled job ran` lines of every process: job and round. */
function jobLines(cluster: Cluster): Array<{ job: string; round: string; by: string }> {
  const ran: Array<{ job: string; round: string; by: string }> = [];
  for (const app of cluster.apps)
    for (const line of app.lines) {
      if (!line.includes('"scheduled job ran"')) continue;
      const entry = JSON.parse(line) as { job: string; round: string };
      ran.push({ job: entry.job, round: entry.round, by: app.name });
    }
  return ran;
}

export async function checkJobsOnce(ctx: ClusterContext, rounds = 3): Promise<string> {
  const { cluster, db } = ctx;
  const jobNames = async () => new Set((await db.db.select({ job: jobRuns.job }).from(jobRuns)).map((r) => r.job));
  const finishedRounds = async () => new Set((await db.db.select({ round: jobRuns.roundStart }).from(jobRuns)).map((r) => r.round.toISOString())).size;
  const interval = Number(cluster.env.JOBS_INTERVAL_SECONDS ?? 3600);
  await until(async () => (await finishedRounds()) >= rounds + 1, (rounds + 2) * interval * 1000 + 10_000, `fewer than ${rounds + 1} rounds ran`);
  const names = await jobNames();
  const rows = await db.db.select().from(jobRuns);
  // Rounds that are over: every job ran in each, once, and each process said so once.
  const lastRound = rows.map((r) => r.roundStart.getTime()).reduce((x, y) => Math.max(x, y));
  const over = rows.filter((r) => r.roundStart.getTime() < lastRound && r.finishedAt !== null);
  const lines = jobLines(cluster);
  const perKey = new Map<string, string[]>();
  for (const l of lines) perKey.set(`${l.job}@${l.round}`, [...(perKey.get(`${l.job}@${l.round}`) ?? []), l.by]);
  const twice = [...perKey].filter(([, by]) => by.length > 1);
  must(twice.length === 0, `jobs ran more than once in a round: ${twice.map(([k, by]) => `${k} by ${by.join('+')}`).join('; ')}`);
  for (const r of over) must(perKey.get(`${r.job}@${r.roundStart.toISOString()}`)?.length === 1, `${r.job} of ${r.roundStart.toISOString()} is claimed by ${r.ranBy} but no process said it ran`);
  const roundsOver = new Set(over.map((r) => r.roundStart.getTime()));
  for (const round of roundsOver) must(over.filter((r) => r.roundStart.getTime() === round).length === names.size, `a round without all ${names.size} jobs`);
  const byProcess = new Map<string, number>();
  for (const l of lines) byProcess.set(l.by, (byProcess.get(l.by) ?? 0) + 1);
  return `${roundsOver.size} rounds of ${interval} s over: ${names.size} jobs, each run once per round (${[...byProcess]
    .sort()
    .map(([k, n]) => `${k} ran ${n}`)
    .join(', ')})`;
}

export async function checkConnections(ctx: ClusterContext): Promise<string> {
  const { cluster, db, a } = ctx;
  // Load first, so the pools open what they may: 120 member pages, 24 at a time.
  await inFlight(120, 24, (i) => call(lb(cluster), 'GET', i % 2 ? '/members' : '/api/user.php', { cookies: { session: a.session } }));
  const pool = Number(cluster.env.DATABASE_POOL_SIZE ?? 10);
  const bound = cluster.apps.length * (pool + 1);
  const [row] = (await db.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`)) as unknown as Array<{ n: number }>;
  // This check's own pool (2) is not the apps'.
  const apps = row!.n - (2 - 1);
  must(apps <= bound, `${apps} connections of the apps, more than ${cluster.apps.length} × (${pool} + 1) = ${bound}`);
  return `${apps} connections after 120 requests, 24 at a time (bound ${cluster.apps.length} × (${pool} + 1) = ${bound})`;
}

export interface KillFigures {
  line: string;
  statuses: Record<string, number>;
}

/**
 * SIGKILL of one process in the middle of chat (both directions) and upload traffic through the
 * balancer, then its restart. Every write carries its idempotency key and is retried with it when its
 * answer was lost (a broken connection, a 502/503 from the balancer) — as the app's own client does.
 */
export async function checkKill(ctx: ClusterContext, victim = 1): Promise<KillFigures> {
  const { cluster, db, a, b } = ctx;
  const tag = `kill-${Date.now()}`;
  const statuses: Record<string, number> = {};
  const count = (s: number | string) => (statuses[String(s)] = (statuses[String(s)] ?? 0) + 1);
  // B's live stream is held by the process that dies.
  const stream = openStream(cluster.apps[victim]!, b);
  await stream.next((e) => e.event === 'ready');
  const streamEnded = stream.ended();

  let acknowledged = 0;
  let killed: Promise<void> | null = null;
  const maybeKill = () => {
    acknowledged++;
    if (acknowledged === 20 && !killed) killed = cluster.kill(victim);
  };
  const retrying = async <T>(attempt: () => Promise<{ status: number } & T>): Promise<({ status: number } & T) | null> => {
    for (let i = 0; i < 8; i++) {
      const answer = await attempt().catch(() => ({ status: 0 }) as { status: number } & T);
      count(answer.status);
      if (answer.status !== 0 && answer.status < 500) return answer;
    }
    return null;
  };
  const SENDS = 40;
  const toB = inFlight(SENDS, 3, async (i) => {
    const clientId = `${tag}-ab-${i}`;
    const answer = await retrying(() => sendMessage(lb(cluster), a, b.id, clientId, `A naar B ${i}`));
    if (answer && (answer.status === 201 || answer.status === 200)) maybeKill();
    return { clientId, id: (answer as Answer | null)?.json?.message?.id as number | undefined, status: answer?.status ?? 0 };
  });
  const toA = inFlight(SENDS, 3, async (i) => {
    const clientId = `${tag}-ba-${i}`;
    const answer = await retrying(() => sendMessage(lb(cluster), b, a.id, clientId, `B naar A ${i}`));
    if (answer && (answer.status === 201 || answer.status === 200)) maybeKill();
    return { clientId, id: (answer as Answer | null)?.json?.message?.id as number | undefined, status: answer?.status ?? 0 };
  });
  const uploads = inFlight(8, 2, async (i) => {
    const clientId = `${tag}-photo-${i}`;
    const answer = await retrying(() => uploadPhoto(lb(cluster), a, 100 + i, clientId));
    if (answer && (answer.status === 201 || answer.status === 200)) maybeKill();
    return { clientId, photo: answer?.photo, status: answer?.status ?? 0 };
  });
  const [ab, ba, up] = await Promise.all([toB, toA, uploads]);
  must(killed, `the traffic ended before ${20} acknowledgements`);
  await killed;
  await streamEnded;
  const lastSeen = [...stream.events].reverse().find((e) => e.id !== '')?.id;
  await cluster.restart(victim);
  // The balancer's health check takes the process back.
  const back = await until(
    async () => servedBy(await call(lb(cluster), 'GET', '/api/settings.php')) === cluster.apps[victim]!.name,
    10_000,
    `${cluster.apps[victim]!.name} did not serve again after its restart`,
  );

  // Every acknowledged message is stored once, under its client id; nothing of the tag twice.
  const acked = [...ab, ...ba].filter((s) => s.status === 201 || s.status === 200);
  must(acked.length === SENDS * 2, `${SENDS * 2 - acked.length} sends never got an answer after 8 tries`);
  const stored = await db.db
    .select({ id: messages.id, clientId: messages.clientId })
    .from(messages)
    .where(like(messages.clientId, `${tag}-%`));
  must(new Set(stored.map((m) => m.clientId)).size === stored.length, 'a client id is stored twice');
  const storedIds = new Map(stored.map((m) => [m.clientId, m.id]));
  for (const s of acked) must(storedIds.get(s.clientId) === s.id, `${s.clientId} acknowledged as ${s.id} but stored as ${storedIds.get(s.clientId)}`);

  // Every acknowledged photo is stored once, its objects are in the bucket and the balancer serves it.
  const ackedPhotos = up.filter((u) => u.photo);
  must(ackedPhotos.length === 8, `${8 - ackedPhotos.length} uploads never got an answer after 8 tries`);
  const photoRows = await db.db
    .select({ id: photos.id, clientId: photos.clientId, filename: photos.filename, thumb: photos.thumbFilename })
    .from(photos)
    .where(and(eq(photos.userId, a.id), like(photos.clientId, `${tag}-%`)));
  must(photoRows.length === 8, `${photoRows.length} photos stored for 8 uploads`);
  for (const row of photoRows) {
    must(await cluster.s3.has(`photos/${row.filename.slice(0, 2)}/${row.filename}`), `photo ${row.id} has no object in the bucket`);
    const image = await raw(lb(cluster), 'GET', `/photos/${row.thumb}`, { cookies: { session: a.session } });
    must(image.status === 200, `photo ${row.id} answered ${image.status}`);
  }

  // The stream reconnects through the balancer with the last id it saw and gets every message it missed.
  const again = openStream(lb(cluster), b, lastSeen);
  try {
    await again.next((e) => e.event === 'ready');
    const delivered = new Set([...stream.events, ...again.events].filter((e) => e.event === 'message').map((e) => (JSON.parse(e.data) as { id: number }).id));
    const missing = ab.filter((s) => s.id !== undefined && !delivered.has(s.id));
    must(missing.length === 0, `the resynced stream lacks ${missing.length} of the ${ab.length} messages to B`);
  } finally {
    again.close();
  }
  const users_ = await db.db
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.id, [a.id, b.id]));
  must(users_.length === 2, 'the members are gone');
  const retried = Object.entries(statuses)
    .filter(([s]) => s === '0' || Number(s) >= 500)
    .map(([s, n]) => `${s === '0' ? 'broken connection' : s} ×${n}`);
  return {
    statuses,
    line:
      `SIGKILL of ${cluster.apps[victim]!.name} after 20 acknowledgements of ${SENDS * 2} sends (both ways, 3+3 in flight) and 8 uploads: ` +
      `all ${acked.length} messages and 8 photos stored once and served; lost answers retried with their keys (${retried.join(', ') || 'none'}); ` +
      `back in the balancer ${back} ms after its restart; B's stream resynced from id ${lastSeen} with every message it missed`,
  };
}
