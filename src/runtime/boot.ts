/**
 * Starts the whole app in this process: configuration, database (migrated; the demo seeded when
 * SEED_DEMO), Astro's built handler (dist/server/entry.mjs) and the node:http server. Used by
 * server/main.ts, tests and benches.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadConfig, type Config } from '../server/config';
import { createAppContext } from './app-context';
import type { AppContext } from '../server/app';
import { seedIfConfigured } from '../demo/demo-seed';
import { createLogger, type Logger } from '../server/logger';
import { startNodeServer, type AstroHandler, type RunningServer } from './node-server';

export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6 && !existsSync(join(dir, 'package.json')); i++) dir = dirname(dir);
  return dir;
}

export interface BootOptions {
  env?: Record<string, string | undefined>;
  config?: Config;
  log?: Logger;
  port?: number;
  host?: string;
  /** Overrides config.SEED_DEMO (seed the demo when the database has no site yet). */
  seed?: boolean;
}

export interface BootedServer extends RunningServer {
  app: AppContext;
}

export async function bootServer(options: BootOptions = {}): Promise<BootedServer> {
  const config = options.config ?? loadConfig(options.env ?? process.env);
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  const root = projectRoot();
  const entry = join(root, 'dist', 'server', 'entry.mjs');
  if (!existsSync(entry)) throw new Error(`The app is not built yet (${entry} is missing): run \`npm run build\` first.`);
  const app = await createAppContext({ config, log });
  try {
    // Seeding is the entry's step, not the context's (a fresh `npm start` gets the demo as before).
    await seedIfConfigured(app, options.seed);
    const { handler } = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
    const running = await startNodeServer({
      app,
      handler,
      clientDir: join(root, 'dist', 'client'),
      ...(options.port === undefined ? {} : { port: options.port }),
      ...(options.host === undefined ? {} : { host: options.host }),
    });
    return { ...running, app };
  } catch (err) {
    await app.close();
    throw err;
  }
}
