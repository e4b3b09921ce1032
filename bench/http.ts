/**
 * HTTP benchmark: starts the built server (its own process, embedded PGlite, demo seed) and a plain
 * node:http server returning the landing page's bytes, loads each with autocannon, and prints requests
 * per second and p99 latency side by side with the ratios to the baseline.
 *
 *   npm run bench                    (10 s per target, 100 connections)
 *   BENCH_SECONDS=5 BENCH_CONNECTIONS=50 npm run bench
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const root = join(import.meta.dirname, '..');

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const m = pattern.exec(buffer);
      if (m) {
        child.stdout?.off('data', onData);
        resolve(m[1] ?? m[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before it was ready:\n${buffer}`)));
  });
}

interface Result {
  name: string;
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(name: string, url: string, headers: Record<string, string>): Promise<Result> {
  // Warm up (JIT, caches), then measure.
  await autocannon({ url, connections: 10, duration: 1, headers });
  const r = await autocannon({ url, connections, duration: seconds, headers });
  return { name, rps: r.requests.average, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

const dataDir = await mkdtemp(join(tmpdir(), 'dating-bench-'));
const children: ChildProcess[] = [];
try {
  const app = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_ENV: 'production', SEED_PROFILES_PER_SITE: '60' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(app);
  const appUrl = await waitForLine(app, /"url":"(http:\/\/[^"]+)"/);
  app.stdout?.resume();
  // The app logs every request at info level; silence is not possible after start, so drain stdout.
  const headers = { cookie: 'lang=nl; entry_ok=1', host: 'localhost' };
  const landing = await fetch(`${appUrl}/`, { headers });
  const bytes = Buffer.from(await landing.arrayBuffer());
  const file = join(dataDir, 'landing.html');
  await writeFile(file, bytes);

  const baseline = spawn(process.execPath, [join(root, 'bench/baseline-server.mjs'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(baseline);
  const baselinePort = await waitForLine(baseline, /^(\d+)$/m);

  console.log(`benchmark: ${connections} connections, ${seconds} s per target, landing page ${bytes.length} bytes`);
  const settings = await load('(a) /api/settings.php', `${appUrl}/api/settings.php`, headers);
  const page = await load('(b) landing page /', `${appUrl}/`, headers);
  const plain = await load('(c) node:http, same bytes', `http://127.0.0.1:${baselinePort}/`, {});

  const rows = [settings, page, plain];
  console.log('');
  console.log('target                          req/s      p99 ms   errors  non-2xx');
  for (const r of rows) {
    console.log(`${r.name.padEnd(30)} ${r.rps.toFixed(0).padStart(7)} ${r.p99.toFixed(1).padStart(10)} ${String(r.errors).padStart(8)} ${String(r.non2xx).padStart(8)}`);
  }
  console.log('');
  console.log(`(a)/(c) throughput ${(settings.rps / plain.rps).toFixed(3)}   p99 ${(settings.p99 / Math.max(plain.p99, 0.1)).toFixed(2)}x`);
  console.log(`(b)/(c) throughput ${(page.rps / plain.rps).toFixed(3)}   p99 ${(page.p99 / Math.max(plain.p99, 0.1)).toFixed(2)}x`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await rm(dataDir, { recursive: true, force: true });
}
