import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two files at a time even on two cores (vitest's default there is one): most of a file's time is
    // spent waiting on its child servers, PostgreSQL or a timer, not computing. Every file builds its own
    // databases, directories and ports (harness.ts), so files never share state.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
