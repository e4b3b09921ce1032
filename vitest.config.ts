import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/integration/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ['tests/setup/global.ts'],
    reporters: ['default'],
    // A test that asserts nothing fails (it could never catch a regression).
    expect: { requireAssertions: true },
  },
});
