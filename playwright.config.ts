import { defineConfig, devices } from '@playwright/test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BROWSER_ARGS, browserPath } from './scripts/ensure-chromium';

// A port per run (kept in the environment so Playwright's workers agree), so parallel runs don't clash;
// the second server listens on the next port. Tests reach site 1 at http://localhost:<port> (baseURL)
// and site 2 at http://127.0.0.1:<port>. 4400–4999 holds none of the ports Chromium refuses (5060,
// 5061, 6000, 6566, … ERR_UNSAFE_PORT).
process.env.E2E_PORT ??= String(4400 + 2 * Math.floor(Math.random() * 299));
const port = Number(process.env.E2E_PORT);
// Debian's headless shell when it is there (npm test's first step brings it), else the full browser
// (scripts/ensure-chromium.ts, docs/decisions/096-headless-shell-and-axe-in-the-page.md).
const chromium = browserPath('light');

/**
 * Two lanes run side by side, each one spec at a time against a server of its own (decision 094): a
 * browser test spends part of its time waiting for pages, frames and idle periods, so one lane left a
 * quarter of CI's two cores idle. The specs of a lane share its server's data as they always shared
 * one server; no spec sees the other lane's. The page sweeps (axe, every page at 360 px, the landers,
 * the screenshots) are one lane, the member and staff flows the other, about equal in
 * time (decision 096).
 */
const PAGE_SWEEPS = [
  '**/a11y.spec.ts',
  '**/layout-360.spec.ts',
  '**/landers.spec.ts',
  '**/landers-untouched.spec.ts',
  '**/static-pages.spec.ts',
  '**/foundation.spec.ts',
  '**/lazy-islands.spec.ts',
  '**/keep-state.spec.ts',
  '**/screens.spec.ts',
];

function server(lanePort: number, lane: string) {
  return {
    command: 'node dist/server/main.mjs',
    url: `http://127.0.0.1:${lanePort}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(lanePort),
      HOST: '0.0.0.0',
      DATABASE_URL: 'memory://',
      DATA_DIR: join(tmpdir(), `dating-e2e-${process.pid}-${lane}`),
      SEED_PROFILES_PER_SITE: '24',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // The end-to-end purchases go through the simulated checkout, chosen explicitly (SEC-14).
      PAYMENTS_PROVIDER: 'simulated',
    },
  };
}

function lane(name: string, lanePort: number, files: { testMatch?: string[]; testIgnore?: string[] }) {
  return {
    name,
    ...files,
    workers: 1,
    use: {
      ...devices['Desktop Chrome'],
      baseURL: `http://localhost:${lanePort}`,
      launchOptions: { executablePath: chromium, args: BROWSER_ARGS },
    },
  };
}

/** End-to-end tests in the system Chromium (no browser download) against the built server. */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 2,
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
    trace: 'off',
    launchOptions: { executablePath: chromium, args: BROWSER_ARGS },
  },
  projects: [lane('pages', port, { testMatch: PAGE_SWEEPS }), lane('flows', port + 1, { testIgnore: PAGE_SWEEPS })],
  webServer: [server(port, 'pages'), server(port + 1, 'flows')],
});
