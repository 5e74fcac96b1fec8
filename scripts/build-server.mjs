// The server as plain JavaScript, for `npm start` (plain node, no compiler in the running server).
//
// Every TypeScript file of apps/server/src becomes its own .js file at the same place under the output
// folder (apps/server/dist), so that whatever a module finds relative to `import.meta.url` is where it
// was in src: the worker threads' and child processes' modules (every file is an entry, so
// `*-worker.ts`, `*-child.ts`, `worker-thread.ts` all are), `worker-boot.mjs`, crawler-ranges.json, and
// the dashboard at `../../web/dist`. npm packages stay imports (native ones such as better-sqlite3 and
// DuckDB cannot be bundled, and none needs to be), read from node_modules as under tsx.
// @switchyard/domain, whose package points at TypeScript, is bundled once into `_domain/index.js`, which
// every server file imports, so that it stays one module as it is under tsx.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfChanged } from './build-cache.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(ROOT, 'apps/server');
const SRC = path.join(SERVER, 'src');
const DOMAIN = path.join(ROOT, 'packages/domain');
const TESTS = /\.test\.tsx?$/;
const DOMAIN_OUT = '_domain/index.js';
const TARGET = 'node20.19';

/** `new URL('./x.ts', import.meta.url)`: a module started by path (a worker's, a child's) is x.js once built. */
const MODULE_URL = /(new\s+URL\(\s*(['"`])\.{1,2}\/[^'"`]+)\.ts(\2\s*,\s*import\.meta\.url\s*\))/g;

function sourceFiles(dir) {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The esbuild plugin that leaves every import as it is, but points @switchyard/domain at its bundle. */
function keepImports(outDir) {
  return {
    name: 'switchyard:keep-imports',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        if (args.path === '@switchyard/domain') {
          const from = path.dirname(path.join(outDir, path.relative(SRC, args.importer)));
          let relative = path.relative(from, path.join(outDir, DOMAIN_OUT)).split(path.sep).join('/');
          if (!relative.startsWith('.')) relative = `./${relative}`;
          return { path: relative, external: true };
        }
        return { path: args.path, external: true };
      });
      build.onLoad({ filter: /\.ts$/ }, (args) => ({
        contents: fs.readFileSync(args.path, 'utf8').replace(MODULE_URL, '$1.js$3'),
        loader: 'ts',
      }));
    },
  };
}

/** Builds the server into `outDir`. */
export async function buildServer(outDir) {
  const esbuild = await import('esbuild');
  const files = sourceFiles(SRC);
  const entries = files.filter((file) => file.endsWith('.ts') && !TESTS.test(file));
  const common = { platform: 'node', format: 'esm', target: TARGET, sourcemap: 'linked', logLevel: 'warning' };
  await esbuild.build({
    ...common,
    entryPoints: entries,
    outdir: outDir,
    outbase: SRC,
    bundle: true,
    plugins: [keepImports(outDir)],
  });
  await esbuild.build({
    ...common,
    entryPoints: [path.join(DOMAIN, 'src/index.ts')],
    outfile: path.join(outDir, DOMAIN_OUT),
    bundle: true,
    packages: 'external',
  });
  // What is not TypeScript (worker-boot.mjs, data files) is copied as it is.
  for (const file of files) {
    if (file.endsWith('.ts')) continue;
    const target = path.join(outDir, path.relative(SRC, file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(file, target);
  }
  fs.writeFileSync(path.join(outDir, 'package.json'), '{ "type": "module" }\n');
}

/** Builds apps/server/dist unless it was built from the same sources. */
export function buildServerIfChanged(log) {
  return buildIfChanged({
    name: 'server',
    dir: path.join(SERVER, 'dist'),
    root: ROOT,
    inputs: [SRC, path.join(DOMAIN, 'src'), path.join(SERVER, 'package.json'), fileURLToPath(import.meta.url)],
    exclude: TESTS,
    extra: `${process.version} ${TARGET}`,
    build: buildServer,
    log,
  });
}
