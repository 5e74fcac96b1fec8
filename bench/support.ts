// What both parts of `npm run bench` share: servers in child processes, the API, printing.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
export const HOST = '127.0.0.1';
export const ADMIN_EMAIL = 'bench@switchyard.local';
export const ADMIN_PASSWORD = 'bench-password-1';

/** A target (bench/README.md, "Targets"), measured. */
export type TargetRow = [target: string, measured: string, verdict: string];

/** Something broke (as opposed to a target missed): the bench exits non-zero. */
export class BenchFailure extends Error {}

// ---------------------------------------------------------------------------------------------------
// Child processes

export interface Child {
  name: string;
  process: ChildProcess;
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exitedAlready: boolean;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A script in a child process: JavaScript through node; TypeScript through tsx, or with `nodeFlags` (e.g.
 * `--cpu-prof`) through node itself with tsx's loader, so that the flags reach the process doing the work.
 */
export function startChild(name: string, script: string, env: NodeJS.ProcessEnv, nodeFlags: string[] = []): Child {
  const [command, args] = script.endsWith('.js')
    ? [process.execPath, [...nodeFlags, script]]
    : nodeFlags.length > 0
      ? [process.execPath, [...nodeFlags, '--import', 'tsx', script]]
      : [TSX, [script]];
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  // BENCH_CHILD_LOG keeps every line of every child (e.g. a server run with --trace-gc), not the last 400.
  const log = process.env.BENCH_CHILD_LOG;
  const keep = (chunk: Buffer) => {
    if (log) appendFileSync(log, chunk.toString().replace(/^(?=.)/gm, `[${name}] `));
    for (const line of chunk.toString().split('\n')) if (line.trim()) output.push(line);
    if (output.length > 400) output.splice(0, output.length - 400);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const record: Child = {
    name,
    process: child,
    output,
    exitedAlready: false,
    exited: new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        record.exitedAlready = true;
        resolve({ code, signal });
      });
    }),
  };
  return record;
}

export async function waitUntilReady(child: Child, probe: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitedAlready) {
      throw new BenchFailure(`${child.name} exited during start-up:\n${child.output.slice(-40).join('\n')}`);
    }
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new BenchFailure(`${child.name} did not answer within ${timeoutMs / 1000} s:\n${child.output.join('\n')}`);
}

/**
 * A process and the chain of its last children (tsx starts node as its child, and node does the work),
 * read from Linux's /proc; just the process where that cannot be read.
 */
export function processChain(pid: number): number[] {
  const chain = [pid];
  for (;;) {
    const current = chain[chain.length - 1]!;
    let children: number[] = [];
    try {
      children = readFileSync(`/proc/${current}/task/${current}/children`, 'utf8')
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      // Gone, not Linux, or not readable: the chain ends here.
    }
    if (children.length === 0) return chain;
    chain.push(children[children.length - 1]!);
  }
}

/** `pid` and every process it started, and theirs (the primary's workers too). */
export function processTree(pid: number): number[] {
  const tree = [pid];
  for (let at = 0; at < tree.length; at += 1) {
    try {
      const children = readFileSync(`/proc/${tree[at]}/task/${tree[at]}/children`, 'utf8').split(/\s+/);
      for (const child of children) if (child) tree.push(Number(child));
    } catch {
      // Gone, not Linux, or not readable.
    }
  }
  return tree;
}

/**
 * The node process serving requests under `pid`: the first of its chain that is not tsx's launcher (the
 * server's own children, such as its report engine, come after it).
 */
export function serverProcess(pid: number): number {
  for (const candidate of processChain(pid)) {
    let command = '';
    try {
      command = readFileSync(`/proc/${candidate}/cmdline`, 'utf8');
    } catch {
      return candidate;
    }
    if (!/tsx[/\\](dist[/\\]cli|cli)|\.bin[/\\]tsx/.test(command)) return candidate;
  }
  return pid;
}

/**
 * Stops (SIGSTOP) or continues (SIGCONT) a child and the processes it started, every thread of them: a
 * server that is not being measured then does nothing at all — no garbage collection, no checkpoint, no
 * timer — while the other one is.
 */
export function freeze(child: Child, frozen: boolean): void {
  // Only where the node process under tsx can be found (Linux's /proc): elsewhere nothing is frozen.
  if (process.platform !== 'linux' || child.exitedAlready || child.process.pid === undefined) return;
  for (const pid of processTree(child.process.pid)) {
    try {
      process.kill(pid, frozen ? 'SIGSTOP' : 'SIGCONT');
    } catch {
      // Exited meanwhile.
    }
  }
}

/** SIGTERM and wait; a server that needs killing, or exits non-zero, is a failure. */
export async function stopChild(child: Child, timeoutMs = 30_000): Promise<number> {
  const started = Date.now();
  // A frozen child would not act on SIGTERM.
  freeze(child, false);
  if (!child.exitedAlready) {
    // To the node process tsx started, not to tsx: tsx relays a signal and, when its child has not said
    // within 30 ms that it got it (a busy event loop on a loaded machine), sends it again — and a second
    // SIGTERM finds the server's `process.once` handler gone, so tsx's handler in the child ends it in
    // the middle of its graceful shutdown (exit 143). Signalled directly, the server shuts down as it
    // should and tsx exits with its code.
    const viaTsx = child.process.spawnfile === TSX && process.platform === 'linux' && child.process.pid !== undefined;
    const node = viaTsx ? processChain(child.process.pid as number)[1] : undefined;
    if (node === undefined) child.process.kill('SIGTERM');
    else {
      try {
        process.kill(node, 'SIGTERM');
      } catch {
        child.process.kill('SIGTERM');
      }
    }
  }
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), timeoutMs).unref());
  const result = await Promise.race([child.exited, timeout]);
  if (result === 'timeout') {
    child.process.kill('SIGKILL');
    await child.exited;
    throw new BenchFailure(`${child.name} did not stop within ${timeoutMs / 1000} s of SIGTERM`);
  }
  if (result.code !== 0) {
    throw new BenchFailure(
      `${child.name} exited with ${result.code ?? result.signal} on SIGTERM:\n${child.output.slice(-40).join('\n')}`,
    );
  }
  return Date.now() - started;
}

// ---------------------------------------------------------------------------------------------------
// Printing

export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  return [line(headers), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

export const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)} ms` : 'n/a');
export const int = (value: number) => Math.round(value).toLocaleString('en-US');
export const verdict = (ok: boolean) => (ok ? 'MET' : 'MISSED');

// ---------------------------------------------------------------------------------------------------
// The API

export async function api(base: string, token: string | undefined, method: string, route: string, body?: unknown) {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new BenchFailure(`${method} ${route} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** The Switchyard server as `npm start` runs it, on SQLite in `dataDir`, with the bench's administrator. */
export function switchyardEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST,
    SWITCHYARD_DATA_DIR: dataDir,
    SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
    SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
    // Clicks carry X-Forwarded-For (countries), as they would behind a load balancer.
    SWITCHYARD_TRUST_PROXY: 'true',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    // Part (a) measures one click-serving worker unless SWITCHYARD_WORKERS says otherwise.
    SWITCHYARD_WORKERS: process.env.SWITCHYARD_WORKERS ?? '1',
  };
  // CLICKHOUSE_URL too: without DATABASE_URL the server refuses it. A caller passes either explicitly.
  for (const name of ['DATABASE_URL', 'CLICKHOUSE_URL', 'REDIS_URL', 'SMTP_URL', 'SWITCHYARD_PUBLIC_URL', 'INIT_CWD'])
    delete env[name];
  return env;
}

let serverBuilt = false;

/**
 * The server as `npm start` runs it: built to JavaScript once (`scripts/build.mjs --server`, which skips an
 * unchanged build) and run by node with source maps, so that what is measured is what operators run, not
 * tsx's output (which wraps every function it defines, per click too, to keep its name).
 */
export function builtServer(): string {
  if (!serverBuilt) {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--server'], { cwd: ROOT, stdio: 'inherit' });
    serverBuilt = true;
  }
  return 'apps/server/dist/main.js';
}

/** Starts the server and waits until the administrator can log in; answers the session token. */
export async function startSwitchyard(
  dataDir: string,
  nodeFlags: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: Child; base: string; token: string }> {
  const port = await freePort();
  const child = startChild('Switchyard server', builtServer(), { ...switchyardEnv(dataDir, port), ...env }, [
    '--enable-source-maps',
    ...nodeFlags,
  ]);
  const base = `http://${HOST}:${port}`;
  let token = '';
  await waitUntilReady(child, async () => {
    const response = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    if (response.status !== 200) return false;
    token = String(((await response.json()) as { token: string }).token);
    return true;
  });
  return { child, base, token };
}
