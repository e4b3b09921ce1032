import { defineConfig, devices } from '@playwright/test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// A port per run (kept in the environment so Playwright's workers agree), so parallel runs don't clash.
// Tests reach site 1 at http://localhost:<port> (baseURL) and site 2 at http://127.0.0.1:<port>.
// 4400–4999 holds none of the ports Chromium refuses (5060, 5061, 6000, 6566, … ERR_UNSAFE_PORT).
process.env.E2E_PORT ??= String(4400 + Math.floor(Math.random() * 600));
const port = Number(process.env.E2E_PORT);
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** End-to-end tests in the system Chromium (no browser download) against the built server. */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  reporter: [['list']],
  timeout: 30_000,
  // Screenshot baselines (LOOK-02, tests/e2e/screens.spec.ts, docs/decisions/080-screenshot-baselines.md):
  // next to the spec, one file per picture, no platform suffix (they are made with the system Chromium
  // on Linux and compared only there); `npm run screens:update` rewrites them.
  snapshotPathTemplate: '{testDir}/{testFilePath}-snapshots/{arg}{ext}',
  expect: {
    toHaveScreenshot: {
      maxDiffPixelRatio: 0.01,
      animations: 'disabled',
      caret: 'hide',
      scale: 'css',
      // Hides text that changes with the clock (times, timers) while a picture is taken.
      stylePath: fileURLToPath(new URL('tests/e2e/screens.css', import.meta.url)),
    },
  },
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'off',
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: chromium,
          args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
        },
      },
    },
  ],
  webServer: {
    command: 'node dist/server/main.mjs',
    url: `http://127.0.0.1:${port}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '0.0.0.0',
      DATABASE_URL: 'memory://',
      DATA_DIR: join(tmpdir(), `dating-e2e-${process.pid}`),
      SEED_PROFILES_PER_SITE: '24',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // The end-to-end purchases go through the simulated checkout, chosen explicitly (SEC-14).
      PAYMENTS_PROVIDER: 'simulated',
    },
  },
});
