/**
 * A server of its own for a spec whose pictures must not depend on what other specs did first
 * (LOOK-02, decision 080): the built app (dist/) with a fresh in-memory database and the demo seed,
 * which is deterministic (seeded PRNG per site and member, dates relative to the start), on a free
 * port of 127.0.0.1. The shared server of playwright.config.ts serves every other spec; on it the demo
 * accounts have been liking, chatting and buying by the time this spec runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface OwnServer {
  /** `http://localhost:<port>` (site 1). */
  baseURL: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `node dist/server/main.mjs` and resolves once /readyz answers 200 (or fails after `limitMs`). */
export async function startOwnServer(limitMs = 150_000): Promise<OwnServer> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'dating-screens-'));
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.mjs'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: 'memory://',
      DATA_DIR: dataDir,
      SEED_PROFILES_PER_SITE: '24',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      PAYMENTS_PROVIDER: 'simulated',
    },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2_000)));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { baseURL: `http://localhost:${port}`, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`the screens' own server did not get ready on port ${port}: ${stderr}`);
}
