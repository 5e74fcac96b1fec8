import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Every text file of the build also as `.br` and `.gz` beside it, compressed once at their best
 * here, for the server to send as they are (@fastify/static `preCompressed`) to a browser that takes them.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'switchyard:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
      const files = entries
        .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(file);
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

const NO_REGION_DATA = '\0switchyard:no-region-data';

/**
 * The domain's conditions index loads the regions' data (a third of a megabyte) for Node; in the
 * dashboard's build that import is empty, and the screens that check or name regions import
 * `@switchyard/domain/region-data` themselves, so the menu and the login page do not carry it.
 */
function regionDataOnDemand(): Plugin {
  return {
    name: 'switchyard:region-data-on-demand',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      const from = importer?.replaceAll('\\', '/') ?? '';
      if (source === './region-data.js' && from.endsWith('/packages/domain/src/conditions/index.ts')) {
        return NO_REGION_DATA;
      }
      return null;
    },
    load(id) {
      return id === NO_REGION_DATA ? 'export {};' : null;
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [regionDataOnDemand(), react(), precompress()],
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
          groups: [
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]src[\\/]app[\\/]zodConfig\.ts$/ },
            // The regions' names (a third of a megabyte) on their own: only the screens that check or
            // name a region download them, not every screen that shares a module of the domain with them.
            {
              name: 'regions',
              test: /[\\/]node_modules[\\/](?:iso-3166|country-region-data)[\\/]|[\\/]conditions[\\/]region-(?:data|english-names)\.ts$/,
              // Not the region functions it calls (regions.ts): every form's checks need those.
              includeDependenciesRecursively: false,
            },
          ],
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
