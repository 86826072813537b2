import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Property tests run from a fixed seed (test/support/fast-check-seed.ts).
    setupFiles: ['test/support/fast-check-seed.ts'],
    globalSetup: ['test/support/announce-seed.ts'],
  },
});
