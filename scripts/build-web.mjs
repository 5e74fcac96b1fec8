// The dashboard's build for `npm start`: Vite into a fresh folder, swapped in as apps/web/dist only when
// the dashboard's sources changed (build-cache.mjs), so a start with nothing changed builds nothing and two
// starts at once never empty each other's folder.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfChanged } from './build-cache.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB = path.join(ROOT, 'apps/web');
const TESTS = /\.test\.tsx?$/;

/** Runs Vite's build into `outDir`. */
export function buildWeb(outDir) {
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: WEB,
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`the dashboard's build failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

/** Builds apps/web/dist unless it was built from the same sources. */
export function buildWebIfChanged(log) {
  return buildIfChanged({
    name: 'dashboard',
    dir: path.join(WEB, 'dist'),
    root: ROOT,
    inputs: [
      path.join(WEB, 'src'),
      path.join(WEB, 'public'),
      path.join(WEB, 'index.html'),
      path.join(WEB, 'vite.config.ts'),
      path.join(WEB, 'package.json'),
      path.join(ROOT, 'packages/domain/src'),
      // The packages bundled into the dashboard.
      path.join(ROOT, 'package-lock.json'),
      fileURLToPath(import.meta.url),
    ],
    exclude: TESTS,
    build: buildWeb,
    log,
  });
}
