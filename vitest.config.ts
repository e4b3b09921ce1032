import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/integration/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    // Integration files spend most of their time waiting on a server process or PostgreSQL, so two
    // files at once overlap those waits even on a two-core machine (vitest's default there is one):
    // 270 s → 185 s for the whole suite on CI's machine. Three workers were slower (474 s against 435 s
    // with two, 2026-11-25): the server processes the files start need the cores too.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker keeps its module cache from one file to the next (decision 055): each file used to import
    // the app again and start PGlite's WebAssembly and the built Astro handler cold, which was most of the
    // suite's time (539 s → 224 s on CI's machine). Files still get their own databases, servers and
    // clocks; module mocks are refused by scripts/check-tests.ts, since they could not reach a module an
    // earlier file imported.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ['tests/setup/global.ts'],
    // The built app (dist/server, 6 MB of bundled chunks the test servers import) is loaded by Node
    // itself, as in production, not transformed and run by Vite's module runner: on a fresh clone three
    // server-starting files took 14.7 s instead of 17.0 s.
    server: { deps: { external: [/\/dist\/server\//] } },
    reporters: ['default'],
    // A test that asserts nothing fails (it could never catch a regression).
    expect: { requireAssertions: true },
  },
});
