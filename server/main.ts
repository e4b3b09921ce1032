/**
 * Production entry: `npm start` builds, then runs this. Migrates and seeds the database, serves the app
 * and shuts down gracefully on SIGTERM/SIGINT.
 *
 * On PostgreSQL it runs one server process per CPU (WEB_CONCURRENCY) sharing the port through
 * node:cluster: this process then only starts the workers, restarts one that dies, and stops them all on
 * SIGTERM/SIGINT. Each worker is the same server as the single process (migrations and the demo seed
 * take turns under an advisory lock; caches are invalidated through the bus's LISTEN/NOTIFY).
 * docs/decisions/032-member-page-cost.md
 */
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import pino from 'pino';
import { ConfigError, loadConfig, serverProcesses } from '../src/server/config';
import { createLogger } from '../src/server/logger';
import { bootServer } from '../src/runtime/boot';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
// Logs go to stdout through a buffer written asynchronously (every 4 kB or 200 ms): a synchronous write
// per request line cost a sixth of a cached page's CPU time (docs/decisions/021). What is buffered is
// written out synchronously when the process exits, so a fatal line or the last requests are not lost.
const logDestination = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 200 });
process.on('exit', () => {
  try {
    logDestination.flushSync();
  } catch {
    // Nothing was opened yet: nothing to write.
  }
});
const log = createLogger(config.LOG_LEVEL, logDestination);
const processes = serverProcesses(config, availableParallelism());

if (cluster.isPrimary && processes > 1) await runPrimary(processes);
else await runServer();

/** One server process: the whole app on the port, until SIGTERM/SIGINT drains it. */
async function runServer(): Promise<void> {
  const started = Date.now();
  const running = await bootServer({ config: config!, log }).catch((err: unknown) => {
    log.fatal({ err }, 'could not start');
    process.exit(1);
  });
  if (cluster.isWorker) {
    // The primary says 'serving' once for all of them.
    process.send?.({ type: 'listening', url: running.url });
    log.debug({ url: running.url, ms: Date.now() - started, db: running.app.database.kind }, 'worker serving');
  } else {
    log.info({ url: running.url, ms: Date.now() - started, db: running.app.database.kind }, `serving on ${running.url}`);
  }
  logDestination.flush(); // whoever waits for this line (a supervisor, the benchmark) sees it at once

  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'shutting down: draining connections');
      running.close().then(
        () => {
          log.info('stopped');
          process.exit(0);
        },
        (err: unknown) => {
          log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

/** Starts `count` workers, says 'serving' when all listen, replaces a worker that dies, stops them on a signal. */
async function runPrimary(count: number): Promise<void> {
  const started = Date.now();
  let stopping = false;
  let announced = false;
  const listening = new Set<number>();
  const recentDeaths: number[] = [];
  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.on('message', (message: { type?: string; url?: string }) => {
      if (message?.type !== 'listening' || typeof message.url !== 'string') return;
      listening.add(worker.id);
      if (!announced && listening.size === count) {
        announced = true;
        log.info({ url: message.url, ms: Date.now() - started, db: 'postgres', processes: count }, `serving on ${message.url} with ${count} processes`);
        logDestination.flush();
      }
    });
    return worker;
  };
  cluster.on('exit', (worker, code, signal) => {
    listening.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        log.info('stopped');
        process.exit(0);
      }
      return;
    }
    // A worker that dies on its own is replaced, unless they keep dying (a bad config, no database).
    const now = Date.now();
    recentDeaths.push(now);
    while (recentDeaths.length > 0 && now - recentDeaths[0]! > 60_000) recentDeaths.shift();
    if (recentDeaths.length > count * 3) {
      log.fatal({ code, signal }, 'server processes keep dying: giving up');
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      process.exitCode = 1;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
      return;
    }
    log.error({ pid: worker.process.pid, code, signal }, 'a server process died: starting another');
    fork();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log.info({ signal, processes: count }, 'shutting down: draining connections');
      const workers = Object.values(cluster.workers ?? {});
      if (workers.length === 0) process.exit(0);
      for (const worker of workers) worker?.process.kill('SIGTERM');
    });
  }
  for (let i = 0; i < count; i++) fork();
}
