import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Zod and app/zodConfig.ts share a chunk, so the config runs as Zod loads: before any chunk
          // that builds schemas (@switchyard/domain), which a config in the entry chunk would come after.
          groups: [{ name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]src[\\/]app[\\/]zodConfig\.ts$/ }],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./vitest.setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // jsdom renders of the builders take seconds on a loaded 2-core machine; a timeout is not a finding.
    testTimeout: 30_000,
  },
});
