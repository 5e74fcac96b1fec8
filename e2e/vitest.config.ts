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
  },
});
