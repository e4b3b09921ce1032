/**
 * One member page under load against a kept benchmark database (`BENCH_KEEP=1 npm run bench:members`
 * prints its DATABASE_URL and DATA_DIR): CPU per request of the app and of the database's backends, and
 * with BENCH_PROFILE_DIR a V8 CPU profile of the server (its dearest functions by self time are printed, BENCH_PROFILE_TOP of them).
 *
 *   DATABASE_URL=… DATA_DIR=… npm run bench:page -- /members /members/123 /chats
 *   BENCH_PROFILE_DIR=/tmp/prof BENCH_CONNECTIONS=20 BENCH_ACCOUNT=premium BENCH_ACCEPT_ENCODING=zstd npm run bench:page -- /chats/1
 *   BENCH_ACCOUNT=none npm run bench:page -- /api/companyinfo.php     (an anonymous visitor: no session)
 *
 * One server process (WEB_CONCURRENCY=1) per page, so a profile holds all of its work. BENCH_SERVER runs
 * another build's `dist/server/main.mjs` (a copy of an earlier build, to compare two builds turn about).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request, type IncomingHttpHeaders } from 'node:http';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { DEMO_ACCOUNTS } from '../src/demo/seed';
import { pidCpuMs, treeCpuMs, waitForLine } from './process';

const root = join(import.meta.dirname, '..');
const url = process.env.DATABASE_URL!;
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const profileDir = process.env.BENCH_PROFILE_DIR;
const paths = process.argv.slice(2);
/** Whose session the requests carry: a demo member's, or none (an anonymous visitor). */
const account = (process.env.BENCH_ACCOUNT ?? 'free') as 'free' | 'premium' | 'none';

function http(target: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(target, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** CPU ms used so far by the backends of the benchmark's database (PostgreSQL on this machine). */
async function backendsCpu(sqlc: postgres.Sql): Promise<number> {
  const rows = await sqlc<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
  return rows.reduce((sum, { pid }) => sum + (pidCpuMs(pid) ?? 0), 0);
}

for (const path of paths) {
  const args = [...(process.env.BENCH_NODE_OPTIONS ?? '').split(' ').filter(Boolean), ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];
  const app = spawn(process.execPath, [...args, process.env.BENCH_SERVER ?? join(root, 'dist/server/main.mjs')], {
    cwd: root,
    env: { ...process.env, WEB_CONCURRENCY: '1', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'production', SEED_DEMO: 'false' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await waitForLine(app, /"url":"(http:\/\/[^"]+)"/);
  app.stdout?.resume();
  const login =
    account === 'none'
      ? { headers: {} as IncomingHttpHeaders }
      : await http(
          `${base}/api/user.php`,
          'POST',
          { host: 'localhost', 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', cookie: 'lang=nl; entry_ok=1' },
          JSON.stringify({ email: DEMO_ACCOUNTS[account as 'free'].email, password: DEMO_ACCOUNTS[account as 'free'].password }),
        );
  const cookie = `lang=nl; entry_ok=1; ${([] as string[])
    .concat(login.headers['set-cookie'] ?? [])
    .map((c) => c.split(';')[0])
    .join('; ')}`;
  const headers = { host: 'localhost', cookie, ...(process.env.BENCH_ACCEPT_ENCODING ? { 'accept-encoding': process.env.BENCH_ACCEPT_ENCODING } : {}) };
  const first = await http(`${base}${path}`, 'GET', headers);
  const body = first.body;
  // Warm up, then measure.
  await autocannon({ url: `${base}${path}`, headers, connections, duration: 2 });
  const sqlc = postgres(url, { max: 1, onnotice: () => {} });
  const a0 = treeCpuMs([app.pid!])!;
  const d0 = await backendsCpu(sqlc);
  const r = await autocannon({ url: `${base}${path}`, headers, connections, duration: seconds });
  const a1 = treeCpuMs([app.pid!])!;
  const d1 = await backendsCpu(sqlc);
  await sqlc.end();
  const n = r.requests.total;
  console.log(
    `${path.padEnd(30)} ${first.status} ${String(body.length).padStart(7)} B  ${(n / seconds).toFixed(0).padStart(5)} req/s  app ${((a1 - a0) / n).toFixed(2)}  PG ${((d1 - d0) / n).toFixed(2)}  total ${((a1 - a0 + d1 - d0) / n).toFixed(2)} ms`,
  );
  app.kill('SIGINT');
  await new Promise((r) => app.once('exit', r));
  if (profileDir) {
    const file = readdirSync(profileDir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .sort()
      .at(-1)!;
    summariseProfile(JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile, Number(process.env.BENCH_PROFILE_TOP ?? 25));
  }
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
  endTime: number;
}

/**
 * The dearest functions of the measured seconds (start-up, login and warm-up left out): by self time, and
 * by inclusive time (each function counted once per sample however deep it recurs), idle left out.
 */
function summariseProfile(prof: CpuProfile, top: number): void {
  const byId = new Map(prof.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of prof.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const keyOf = (id: number) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    return `${functionName || '(anon)'} ${url.replace(/.*\/(dist|node_modules)\//, '$1/')}:${lineNumber}`;
  };
  // The measured run is the profile's last `seconds` (the server stops right after it).
  const from = prof.endTime - (seconds + 0.2) * 1e6;
  let at = prof.endTime - prof.timeDeltas.reduce((sum, d) => sum + d, 0);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  prof.samples.forEach((id, i) => {
    at += prof.timeDeltas[i]!;
    const leaf = keyOf(id);
    if (at < from || leaf.startsWith('(idle)')) return;
    total += 1;
    self.set(leaf, (self.get(leaf) ?? 0) + 1);
    const seen = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
      const key = keyOf(node);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + 1);
    }
  });
  const print = (title: string, counts: Map<string, number>) => {
    console.log(`  ${title} (${total} samples of the measured ${seconds} s)`);
    for (const [k, v] of [...counts].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`  ${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`);
  };
  print('self time', self);
  print('inclusive time', new Map([...inclusive].filter(([k]) => !/^\((root|program)\)/.test(k))));
}
