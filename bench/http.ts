/**
 * HTTP benchmark: starts the built server (its own process, embedded PGlite, demo seed) and a plain
 * node:http server answering with the very same bytes, loads each with autocannon, and prints requests
 * per second, p99 latency and the server process's CPU time per response (robust on a busy machine)
 * side by side with the ratios to the baseline:
 *   (a) /api/settings.php, (b) the landing page /, (d) a lander (/landers/gallery; skipped with a note
 *   while it answers 404), each next to the baseline serving its bytes;
 *   compressed transfer (Accept-Encoding: gzip, br) of the landing page, the lander and a stylesheet,
 *   next to a baseline serving the same compressed bytes — plus how many bytes compression saves and
 *   what that means on a 100 Mbit/s link.
 *
 *   npm run bench                    (10 s per target, 200 connections)
 *   BENCH_SECONDS=5 BENCH_CONNECTIONS=50 npm run bench
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { waitForLine } from './process';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 200);
const root = join(import.meta.dirname, '..');
const LANDER = '/landers/gallery';
/** A link of 100 Mbit/s carries this many bytes per second (to show what compression buys). */
const LINK_BYTES_PER_SECOND = 100e6 / 8;

/** One GET with the body as it came over the wire (fetch would decompress it). */
function getRaw(url: string, headers: Record<string, string>): Promise<{ status: number; type: string; encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), encoding: res.headers['content-encoding'] as string | undefined, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

interface Result {
  name: string;
  bytes: number;
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** CPU time the serving process spent per response (user + system, all threads), in microseconds. */
  cpuUs: number | undefined;
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU milliseconds a process has used so far (Linux /proc), or undefined elsewhere. */
function cpuMs(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

async function load(name: string, url: string, headers: Record<string, string>, bytes: number, pid: number | undefined): Promise<Result> {
  // Warm up (JIT, caches), then measure.
  await autocannon({ url, connections: 10, duration: 1, headers });
  const before = cpuMs(pid);
  const r = await autocannon({ url, connections, duration: seconds, headers });
  const after = cpuMs(pid);
  const cpuUs = before !== undefined && after !== undefined && r.requests.total > 0 ? ((after - before) * 1000) / r.requests.total : undefined;
  return { name, bytes, rps: r.requests.average, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx, cpuUs };
}

const dataDir = await mkdtemp(join(tmpdir(), 'dating-bench-'));
const children: ChildProcess[] = [];
try {
  const app = spawn(process.execPath, [join(root, 'dist/server/main.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_ENV: 'production', SEED_PROFILES_PER_SITE: '60' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(app);
  const appUrl = await waitForLine(app, /"url":"(http:\/\/[^"]+)"/);
  // The app logs every request at info level; silence is not possible after start, so drain stdout.
  app.stdout?.resume();
  const headers = { cookie: 'lang=nl; entry_ok=1', host: 'localhost' };
  const compressed = { ...headers, 'accept-encoding': 'gzip, br' };

  // The bytes each baseline route serves: exactly what the app answered.
  const routes: Record<string, { file: string; type: string; encoding?: string }> = {};
  const bodies: Record<string, number> = {};
  const capture = async (route: string, path: string, reqHeaders: Record<string, string>) => {
    const res = await getRaw(`${appUrl}${path}`, reqHeaders);
    if (res.status !== 200) return null;
    const file = join(dataDir, `${route.replace(/\W+/g, '_')}.bin`);
    await writeFile(file, res.body);
    routes[route] = { file, type: res.type, ...(res.encoding ? { encoding: res.encoding } : {}) };
    bodies[route] = res.body.length;
    return res;
  };
  const landing = await capture('/landing', '/', headers);
  if (!landing) throw new Error('the landing page did not answer 200');
  await capture('/landing-br', '/', compressed);
  const lander = await capture('/lander', LANDER, headers);
  if (lander) await capture('/lander-br', LANDER, compressed);
  const stylesheet = /<link rel="stylesheet" href="(\/_astro\/[^"]+\.css)"/.exec(landing.body.toString('utf8'))?.[1];
  if (stylesheet) {
    // The first request compresses quickly; the cache then holds the best encoding: wait for it.
    await getRaw(`${appUrl}${stylesheet}`, compressed);
    await new Promise((r) => setTimeout(r, 1500));
    await capture('/css', stylesheet, headers);
    await capture('/css-br', stylesheet, compressed);
  }
  const routesFile = join(dataDir, 'routes.json');
  await writeFile(routesFile, JSON.stringify(routes));
  const baseline = spawn(process.execPath, [join(root, 'bench/baseline-server.mjs'), routesFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(baseline);
  const base = `http://127.0.0.1:${await waitForLine(baseline, /^(\d+)$/m)}`;

  console.log(`benchmark: ${connections} connections, ${seconds} s per target; app vs a plain node:http server sending the same bytes`);
  const pairs: Array<[Result, Result]> = [];
  const settings = await load('(a) /api/settings.php', `${appUrl}/api/settings.php`, headers, 0, app.pid);
  const page = await load('(b) landing page /', `${appUrl}/`, headers, bodies['/landing']!, app.pid);
  const plain = await load('(c) node:http, same bytes', `${base}/landing`, {}, bodies['/landing']!, baseline.pid);
  pairs.push([page, plain]);
  let landerPair: [Result, Result] | undefined;
  if (lander) {
    landerPair = [
      await load(`(d) lander ${LANDER}`, `${appUrl}${LANDER}`, headers, bodies['/lander']!, app.pid),
      await load('(e) node:http, same bytes', `${base}/lander`, {}, bodies['/lander']!, baseline.pid),
    ];
    pairs.push(landerPair);
  }
  const compressedPairs: Array<[Result, Result, number, Result | undefined]> = [];
  const addCompressed = async (label: string, path: string, route: string, identityBytes: number, identity?: Result) => {
    if (!routes[route]) return;
    const encoding = routes[route]!.encoding ?? 'identity';
    const appResult = await load(`${label} ${encoding}`, `${appUrl}${path}`, compressed, bodies[route]!, app.pid);
    const baseResult = await load(`    node:http, same ${encoding} bytes`, `${base}${route}`, {}, bodies[route]!, baseline.pid);
    compressedPairs.push([appResult, baseResult, identityBytes, identity]);
  };
  await addCompressed('(f) landing /', '/', '/landing-br', bodies['/landing']!, page);
  if (lander) await addCompressed(`(g) lander`, LANDER, '/lander-br', bodies['/lander']!, landerPair?.[0]);
  if (stylesheet) await addCompressed('(h) stylesheet', stylesheet, '/css-br', bodies['/css']!);

  const rows = [settings, ...pairs.flat(), ...compressedPairs.flatMap(([a, b]) => [a, b])];
  console.log('');
  console.log(`${'target'.padEnd(38)} ${'bytes'.padStart(8)} ${'req/s'.padStart(8)} ${'p99 ms'.padStart(8)} ${'CPU µs/req'.padStart(11)} ${'errors'.padStart(7)} ${'non-2xx'.padStart(8)}`);
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(38)} ${(r.bytes ? String(r.bytes) : '-').padStart(8)} ${r.rps.toFixed(0).padStart(8)} ${r.p99.toFixed(1).padStart(8)} ` +
        `${(r.cpuUs === undefined ? '-' : r.cpuUs.toFixed(0)).padStart(11)} ${String(r.errors).padStart(7)} ${String(r.non2xx).padStart(8)}`,
    );
  }
  const ratio = (a: Result, b: Result) => `throughput ${(a.rps / b.rps).toFixed(3)}   p99 ${(a.p99 / Math.max(b.p99, 0.1)).toFixed(2)}x`;
  console.log('');
  console.log(`(a)/(c) ${ratio(settings, plain)}`);
  console.log(`(b)/(c) ${ratio(page, plain)}`);
  if (landerPair) console.log(`(d)/(e) ${ratio(...landerPair)}`);
  else console.log(`(d) lander ${LANDER}: skipped, it answers 404 (not built yet)`);
  for (const [app, baseResult, identityBytes, identity] of compressedPairs) {
    const label = app.name.slice(0, 3);
    if (identity) {
      const cpu = app.cpuUs !== undefined && identity.cpuUs !== undefined ? `   CPU per response ${(app.cpuUs / identity.cpuUs).toFixed(2)}x (+${(app.cpuUs - identity.cpuUs).toFixed(0)} µs)` : '';
      console.log(
        `${label}/${identity.name.slice(0, 3)} compressed vs uncompressed in the app: throughput ${(app.rps / identity.rps).toFixed(3)}   p99 ${(app.p99 / Math.max(identity.p99, 0.1)).toFixed(2)}x${cpu}`,
      );
    }
    const linkIdentity = LINK_BYTES_PER_SECOND / identityBytes;
    const linkCompressed = LINK_BYTES_PER_SECOND / app.bytes;
    console.log(
      `${label}/baseline ${ratio(app, baseResult)}   bytes ${app.bytes}/${identityBytes} = ${(app.bytes / identityBytes).toFixed(3)}` +
        `   a 100 Mbit/s link carries ${linkCompressed.toFixed(0)} instead of ${linkIdentity.toFixed(0)} responses/s`,
    );
  }
} finally {
  for (const child of children) child.kill('SIGTERM');
  await rm(dataDir, { recursive: true, force: true });
}
