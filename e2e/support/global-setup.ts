import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

export const ADMIN = { email: 'admin@e2e.test', password: 'e2e-admin-password' };

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    admin: { email: string; password: string };
    /** The server's output, as it is written: tests read links the server logs instead of emailing. */
    serverLog: string;
  }
}

const root = new URL('../..', import.meta.url).pathname;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForServer(baseURL: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${baseURL}/api/me`);
      if (response.status === 401) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer at ${baseURL} within 60 s`);
}

export default async function setup(project: TestProject) {
  // Debian's Chromium, installed by .ci/run (or by hand), never by the tests themselves.
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    throw new Error(`Chromium not found at ${chromium}: run 'apt-get install -y chromium' (.ci/run does)`);
  }
  if (!existsSync(join(root, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build` first (npm test does)');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-e2e-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const child = spawn(join(root, 'node_modules/.bin/tsx'), ['apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...env,
      NODE_ENV: 'production',
      PORT: String(port),
      SWITCHYARD_DATA_DIR: dataDir,
      SWITCHYARD_ADMIN_EMAIL: ADMIN.email,
      SWITCHYARD_ADMIN_PASSWORD: ADMIN.password,
      // No mail server here: the tests follow reset and verification links from the log, as an
      // administrator setting up without mail would.
      SWITCHYARD_LOG_LINKS: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const serverLog = join(dataDir, 'server.log');
  writeFileSync(serverLog, '');
  const record = (chunk: Buffer) => {
    output += chunk;
    appendFileSync(serverLog, chunk);
  };
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);
  try {
    await waitForServer(baseURL, child);
  } catch (error) {
    child.kill('SIGKILL');
    console.error(output);
    throw error;
  }
  project.provide('baseURL', baseURL);
  project.provide('admin', ADMIN);
  project.provide('serverLog', serverLog);

  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(undefined);
      }, 5000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });
    rmSync(dataDir, { recursive: true, force: true });
  };
}
