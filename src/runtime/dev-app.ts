/** The context for `astro dev`, where server/main.ts does not run: made once per dev server. */
import { loadConfig } from '../server/config';
import { createAppContext } from './app-context';
import type { AppContext } from '../server/app';
import { seedIfConfigured } from '../demo/demo-seed';
import { createLogger } from '../server/logger';

let pending: Promise<AppContext> | undefined;

export function devAppContext(): Promise<AppContext> {
  pending ??= (async () => {
    const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' };
    // `npm run dev` clicks through purchases like the demo: the simulated checkout, unless a provider is
    // configured (SEC-14: an explicit choice made here, for development only; never in production).
    const configured = env.PAYMENTS_PROVIDER || env.PAYNL_TOKEN_CODE || env.PAYNL_API_TOKEN || env.PAYNL_SERVICE_ID;
    if (env.NODE_ENV === 'development' && !configured) env.PAYMENTS_PROVIDER = 'simulated';
    const config = loadConfig(env);
    const app = await createAppContext({ config, log: createLogger(config.LOG_LEVEL) });
    await seedIfConfigured(app);
    return app;
  })();
  return pending;
}
