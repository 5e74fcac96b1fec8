import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../../apps/server/test/eventually.js';

const root = new URL('../..', import.meta.url).pathname;

export interface ServerAdmin {
  email: string;
  password: string;
}

/** A Switchyard server started for tests: its own port and its own (empty) data directory. */
export interface TestServer {
  baseURL: string;
  /** The file the server's output is written to, as it is written. */
  serverLog: string;
  /** Stops the server and removes its data. */
  stop(): Promise<void>;
}

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
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
      // Not listening yet: a refused connection.
      const response = await fetch(`${baseURL}/api/me`).catch(() => undefined);
      return response?.status === 401;
    },
    () => `the server did not answer at ${baseURL}`,
    { withinMs: 60_000, everyMs: 250 },
  );
}

/**
 * Starts the server (the built dashboard included) on a free port with a fresh data directory and the
 * given administrator, and waits until it answers. The shared server of every spec is one; a spec that
 * needs an empty database (the first-campaign walk) starts its own.
 */
export async function startServer(admin: ServerAdmin, extraEnv: Record<string, string> = {}): Promise<TestServer> {
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
      SWITCHYARD_ADMIN_EMAIL: admin.email,
      SWITCHYARD_ADMIN_PASSWORD: admin.password,
      // No mail server here: the tests follow reset and verification links from the log, as an
      // administrator setting up without mail would.
      SWITCHYARD_LOG_LINKS: 'true',
      ...extraEnv,
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
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  return {
    baseURL,
    serverLog,
    async stop() {
      if (child.exitCode === null) {
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
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
