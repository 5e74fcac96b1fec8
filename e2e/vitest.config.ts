import { defineConfig } from 'vitest/config';

// Browser tests drive the built dashboard in real Chromium against a real server (see support/global-setup.ts).
export default defineConfig({
  test: {
    include: ['specs/**/*.test.ts'],
    globalSetup: ['support/global-setup.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A screen that polls or re-renders after a request can take seconds on a busy machine; a poll's own
    // default (1 s) made such tests fail for load alone.
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
