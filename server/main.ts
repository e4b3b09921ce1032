/**
 * Production entry: `npm start` builds, then runs this. Migrates and seeds the database, serves the app
 * and shuts down gracefully on SIGTERM/SIGINT.
 */
import pino from 'pino';
import { ConfigError, loadConfig } from '../src/server/config';
import { createLogger } from '../src/server/logger';
import { bootServer } from '../src/server/http/boot';

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
const started = Date.now();
const running = await bootServer({ config, log }).catch((err: unknown) => {
  log.fatal({ err }, 'could not start');
  process.exit(1);
});
log.info({ url: running.url, ms: Date.now() - started, db: running.app.database.kind }, `serving on ${running.url}`);
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
