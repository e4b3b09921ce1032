/** The context for `astro dev`, where server/main.ts does not run: made once per dev server. */
import { loadConfig } from './config';
import { createAppContext, type AppContext } from './context';
import { seedIfConfigured } from './demo-seed';
import { createLogger } from './logger';

let pending: Promise<AppContext> | undefined;

export function devAppContext(): Promise<AppContext> {
  pending ??= (async () => {
    const config = loadConfig({ ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' });
    const app = await createAppContext({ config, log: createLogger(config.LOG_LEVEL) });
    await seedIfConfigured(app);
    return app;
  })();
  return pending;
}
