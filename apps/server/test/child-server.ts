// The server as a child process (src/main.ts through tsx, or the build `npm start` runs: dist/main.js with
// plain node), as an operator runs it, and plain HTTP to it: for the tests that kill it, restart it, or
// touch its files from outside (durability, SQLite files, the production build).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from './eventually.js';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Connections kept open to the server at most (a load test's concurrency). */
const MAX_SOCKETS = 50;

const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });

export interface Answer {
  status: number;
  location: string | undefined;
  body: string;
}

/** `fresh`: a connection of its own, closed after the answer (the kernel hands each to any worker). */
export function request(
  port: number,
  method: string,
  url: string,
  body?: object,
  headers: object = {},
  { fresh = false }: { fresh?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : undefined;
    const outgoing = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent: fresh ? false : agent,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, location: response.headers.location, body: text }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** Runs `tasks` with at most `limit` at once; answers their results in order. */
export async function inParallel<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]!();
      }
    }),
  );
  return results;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Server {
  child: ChildProcess;
  output: string[];
}

export interface StartOptions {
  /** Runs dist/main.js (built by scripts/build.mjs) with plain node, as `npm start` does. */
  built?: boolean;
  /** Every line of the output, not only warnings and the journal's (a test reading the first administrator). */
  allOutput?: boolean;
}

export async function startServer(env: NodeJS.ProcessEnv, port: number, options: StartOptions = {}): Promise<Server> {
  const entry = options.built ? ['--enable-source-maps', 'dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, entry, {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      DATABASE_URL: '',
      REDIS_URL: '',
      // One worker under the primary unless a test asks for more (reload.test.ts): a start is quicker.
      SWITCHYARD_WORKERS: '1',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: a kill -9 takes the primary and its workers at once, as a crash would.
    detached: true,
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      // Kept: what a restart says of the journal, and every warning or error.
      // Also any line that is not the JSON log (a failed start says why in plain text), and what the
      // primary says of its workers.
      const plain = line.trim() !== '' && !line.startsWith('{');
      const kept = line.includes('journal') || line.includes('worker') || line.includes('reload');
      if (options.allOutput || plain || kept || /"level":(40|50|60)/.test(line)) output.push(line);
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${output.join('\n')}`);
      return request(port, 'GET', '/api/me').then(
        () => true,
        () => false,
      );
    },
    () => `the server did not answer on ${port}: ${output.join('\n')}`,
    { withinMs: 60_000 },
  );
  return { child, output };
}

/** A stop (SIGTERM) drains every worker; each is killed by the primary after 60 s at most. */
const STOP_TIMEOUT_MS = 120_000;

export async function killed(server: Server, signal: NodeJS.Signals): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  if (signal === 'SIGKILL' && server.child.pid) {
    // The primary and every worker of its group.
    process.kill(-server.child.pid, 'SIGKILL');
  } else server.child.kill(signal);
  if (signal !== 'SIGKILL') {
    // A stop that never ends is a failure to read, not a suite that runs out its time.
    const timer = new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS, 'timeout'));
    if ((await Promise.race([exited, timer])) === 'timeout') {
      const said = server.output.slice(-60).join('\n');
      await killed(server, 'SIGKILL');
      throw new Error(`the server did not stop within ${STOP_TIMEOUT_MS / 1000} s of ${signal}; it said:\n${said}`);
    }
  }
  await exited;
  if (signal === 'SIGKILL') await groupGone(server);
}

/** The pids of the primary's workers now. */
export function workerPids(server: Server): number[] {
  try {
    // Node processes only: tsx's esbuild service is a child of the primary too.
    return execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(server.child.pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([, command]) => command === 'node')
      .map(([pid]) => Number(pid));
  } catch {
    // ps exits 1 when the primary has no children.
    return [];
  }
}

/** Waits until no process of the server's group is left (workers outlive a killed primary briefly). */
async function groupGone(server: Server): Promise<void> {
  for (let tries = 0; tries < 100; tries += 1) {
    try {
      process.kill(-(server.child.pid ?? 0), 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
