/**
 * Several machines on one (SCALE-02): three built app processes (dist/server/main.mjs, one worker each,
 * as three machines would run them) on one PostgreSQL database and one S3-compatible bucket (s3rver),
 * behind HAProxy from Debian's packages (round robin, no stickiness, health checks on /readyz). Used by
 * the cluster test (tests/integration/cluster.test.ts) and by `npm run cluster` (scripts/cluster.ts).
 *
 * HAProxy adds `X-Served-By: app1|app2|app3` to every answer, so a check can see which process served
 * a request that went through the balancer. Each process's log lines are kept (`lines`), so a check can
 * read what each one did (the jobs it ran).
 *
 * Where HAProxy is missing and cannot be installed (not root, no apt) or the bucket cannot start,
 * `startCluster` answers `{ unavailable: <one line> }`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForLine } from '../../bench/process';
import { ensureDebianPackage, thisMachine } from '../../scripts/ensure-chromium';
import { startLocalS3, type LocalS3 } from './s3';

const root = join(import.meta.dirname, '..', '..');
export const HAPROXY_PATH = '/usr/sbin/haproxy';

export interface AppProcess {
  name: string;
  port: number;
  child: ChildProcess;
  exited: Promise<NodeJS.Signals | number | null>;
  /** Every line the process wrote to stdout (pino's JSON lines), across restarts. */
  lines: string[];
}

export interface Cluster {
  /** The balancer: requests to 127.0.0.1:<port>, as site 1 (Host: localhost:<port>). */
  balancer: { port: number };
  apps: AppProcess[];
  s3: LocalS3;
  databaseUrl: string;
  /** The environment every app process runs with (besides PORT). */
  env: Record<string, string>;
  /** SIGKILL: no draining, transactions cut wherever they were. */
  kill(index: number): Promise<void>;
  /** Starts the process again on its port (the balancer's health check takes it back). */
  restart(index: number): Promise<void>;
  stop(): Promise<void>;
}

export type ClusterOutcome = Cluster | { unavailable: string };

export interface ClusterOptions {
  databaseUrl: string;
  processes?: number;
  /** Extra environment for the app processes. */
  env?: Record<string, string>;
  /** The balancer's port (0: a free one). */
  port?: number;
  /** Progress lines ("starting app2 …"). */
  say?: (line: string) => void;
}

/** A free TCP port of 127.0.0.1 (asked of the kernel, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** HAProxy's configuration: round robin over the apps, no stickiness, the client's address forwarded. */
export function haproxyConfig(port: number, apps: Array<{ name: string; port: number }>): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // The live streams stay open (heartbeats every 25 s keep them under the client and server timeouts).
    '  timeout tunnel 1h',
    // A request whose process is down (refused connection) goes to another one.
    '  retries 2',
    '  option redispatch',
    '  option forwardfor',
    'frontend web',
    `  bind 127.0.0.1:${port}`,
    '  default_backend apps',
    'backend apps',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    '  default-server inter 300ms fall 2 rise 1',
    '  http-response set-header X-Served-By %[srv_name]',
    ...apps.map((a) => `  server ${a.name} 127.0.0.1:${a.port} check`),
    '',
  ].join('\n');
}

/** HAProxy at /usr/sbin/haproxy, installed from Debian's package when root with apt; else the line to show. */
export function ensureHaproxy(): { ok: true } | { ok: false; why: string } {
  const outcome = ensureDebianPackage(thisMachine(), {
    path: HAPROXY_PATH,
    pkg: 'haproxy',
    hint: 'the cluster needs HAProxy: run `apt-get install haproxy` as root',
    purpose: 'the cluster needs HAProxy',
    alternative: 'run it as root on Debian',
  });
  return outcome.type === 'missing' ? { ok: false, why: outcome.message } : { ok: true };
}

function startApp(name: string, port: number, env: Record<string, string>, lines: string[]): Promise<AppProcess> {
  const child = spawn(process.execPath, [join(root, 'dist', 'server', 'main.mjs')], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    partial += chunk.toString();
    const parts = partial.split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  return waitForLine(child, /serving on (http:\/\/[^\s"]+)/).then(() => ({ name, port, child, exited, lines }));
}

/** Brings the cluster up: bucket, three apps (they migrate and seed an empty database in turns), then the balancer. */
export async function startCluster(options: ClusterOptions): Promise<ClusterOutcome> {
  const say = options.say ?? (() => {});
  const haproxy = ensureHaproxy();
  if (!haproxy.ok) return { unavailable: haproxy.why };
  const s3 = await startLocalS3('cluster-photos');
  if ('unavailable' in s3) return { unavailable: s3.unavailable };
  const count = options.processes ?? 3;
  const dataDir = await mkdtemp(join(tmpdir(), 'cluster-'));
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    DATABASE_URL: options.databaseUrl,
    // Each process is a machine: one worker, its own data folder, nothing shared but database and bucket.
    WEB_CONCURRENCY: '1',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    TRUST_PROXY: 'true',
    TRUSTED_PROXIES: '1',
    SEED_PROFILES_PER_SITE: '8',
    ...s3.env,
    ...options.env,
  };
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const names = ports.map((_, i) => `app${i + 1}`);
  say(`starting ${names.join(', ')} on 127.0.0.1:${ports.join(', ')} (one PostgreSQL database, one bucket)`);
  const apps = await Promise.all(names.map((name, i) => startApp(name, ports[i]!, { ...env, DATA_DIR: join(dataDir, name) }, [])));

  const port = options.port || (await freePort());
  const configFile = join(dataDir, 'haproxy.cfg');
  await writeFile(configFile, haproxyConfig(port, apps));
  const balancer = spawn(HAPROXY_PATH, ['-f', configFile, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let balancerErrors = '';
  balancer.stderr!.on('data', (c: Buffer) => (balancerErrors += c.toString()));
  const balancerExited = new Promise<void>((resolve) => balancer.once('exit', () => resolve()));
  await waitUntilUp(port, balancerExited, () => balancerErrors);
  say(`HAProxy balances http://localhost:${port} over them (round robin, no stickiness)`);

  const cluster: Cluster = {
    balancer: { port },
    apps,
    s3,
    databaseUrl: options.databaseUrl,
    env,
    async kill(index) {
      const app = apps[index]!;
      app.child.kill('SIGKILL');
      await app.exited;
    },
    async restart(index) {
      const app = apps[index]!;
      apps[index] = await startApp(app.name, app.port, { ...env, DATA_DIR: join(dataDir, app.name) }, app.lines);
    },
    async stop() {
      balancer.kill('SIGTERM');
      await balancerExited;
      await Promise.all(
        apps.map(async (a) => {
          if (a.child.exitCode === null && a.child.signalCode === null) {
            a.child.kill('SIGTERM');
            await a.exited;
          }
        }),
      );
      await s3.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return cluster;
}

/** Waits for the balancer's port to answer /readyz through it (every app is up by then). */
async function waitUntilUp(port: number, exited: Promise<void>, errors: () => string): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  for (let i = 0; i < 200; i++) {
    if (gone) throw new Error(`HAProxy stopped: ${errors().trim()}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`HAProxy did not answer on ${port}: ${errors().trim()}`);
}
