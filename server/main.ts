/**
 * Production entry: `npm start` builds, then runs this. Migrates and seeds the database, serves the app
 * and shuts down gracefully on SIGTERM/SIGINT.
 */
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
const log = createLogger(config.LOG_LEVEL);
const started = Date.now();
const running = await bootServer({ config, log }).catch((err: unknown) => {
  log.fatal({ err }, 'could not start');
  process.exit(1);
});
log.info({ url: running.url, ms: Date.now() - started, db: running.app.database.kind }, `serving on ${running.url}`);

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
