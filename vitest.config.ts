import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/integration/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    // Integration files spend most of their time waiting on a server process or PostgreSQL, so several
    // files at once overlap those waits even on a two-core machine (vitest's default there is one):
    // 270 s → 185 s with two workers (2026-11-23); with the chat, payments and back-office files the
    // suite took 435 s with two, so three now (CPU per core stays below 1.5 files).
    maxWorkers: Math.max(3, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ['tests/setup/global.ts'],
    reporters: ['default'],
    // A test that asserts nothing fails (it could never catch a regression).
    expect: { requireAssertions: true },
  },
});
