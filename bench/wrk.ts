// wrk (https://github.com/wg/wrk, Debian's package) as part (a)'s load generator: a C program whose own
// work per request is a few microseconds, next to autocannon's 25–35 µs of JavaScript in the bench's
// process. On this 2-core machine the load generator shares the cores with the server it measures, and
// a generator that costs as much CPU per request as the bare route itself measures itself as much as
// the server (README, "Which load generator").
import { execFileSync, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import type { ClickRequest } from './click-flow.js';
import { spreadLua } from './spread.js';
import { BenchFailure, HOST } from './support.js';

/** What one run of a load generator measured. Latencies in milliseconds. */
export interface LoadFigures {
  durationS: number;
  /** Responses received (a request counts when its response has arrived). */
  requests: number;
  rps: number;
  p50: number;
  p975: number;
  p99: number;
  max: number;
  /** Connection errors: connect, read and write failures. */
  errors: number;
  timeouts: number;
  /** Responses whose status is neither 3xx nor (wrk) 2xx. */
  statusOther: number;
  /** The generator's own CPU time over the run's duration (1: one core busy); NaN where not known. */
  cpuShare: number;
}

/**
 * The path of wrk, installed from Debian's packages when it is missing and this is Debian as root (as
 * .ci/run installs Chromium); otherwise a failure that says how to install it.
 */
export function ensureWrk(): string {
  const found = commandPath('wrk');
  if (found) return found;
  if (process.platform === 'linux' && process.getuid?.() === 0 && commandPath('apt-get')) {
    console.log('wrk is not installed: installing it from Debian’s packages (apt-get install -y wrk)…');
    const apt = (...args: string[]) => execFileSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'] });
    try {
      apt('install', '-y', 'wrk');
    } catch {
      // The package lists may be missing or stale on a new machine.
      try {
        apt('update');
        apt('install', '-y', 'wrk');
      } catch {
        // Said below.
      }
    }
    const installed = commandPath('wrk');
    if (installed) return installed;
  }
  throw new BenchFailure(
    'part (a) needs wrk, the HTTP load generator: install it (Debian/Ubuntu: apt-get install -y wrk; macOS: brew install wrk)',
  );
}

/** Where `name` is on the PATH, or '' when it is not. */
function commandPath(name: string): string {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

/** A Lua string literal (wrk's scripts are Lua). */
function luaString(text: string): string {
  return `"${text.replace(/[\\"]/g, (character) => `\\${character}`).replace(/[\r\n]/g, (character) => (character === '\r' ? '\\r' : '\\n'))}"`;
}

/**
 * A wrk script sending `requests` one after another (each thread from its own place in the list), and
 * printing what the run measured as one JSON line, marked so that it can be told from wrk's own output.
 */
export async function writeWrkScript(
  file: string,
  requests: ClickRequest[],
  options: { spread?: boolean } = {},
): Promise<void> {
  // With the spread, each request's agent and address are drawn as it is sent (spread.ts), the rest kept.
  const drawn = options.spread ? new Set(['user-agent', 'x-forwarded-for']) : new Set<string>();
  const raw = requests.map((request) => {
    const headers = Object.entries(request.headers)
      .filter(([name]) => !drawn.has(name))
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    // With the spread the script appends the drawn headers and the blank line (spread requests have no body).
    if (options.spread) return `${request.method} ${request.path} HTTP/1.1\r\nHost: ${HOST}\r\n${headers}`;
    const body = request.body ?? '';
    const length = request.body === undefined ? '' : `content-length: ${Buffer.byteLength(body)}\r\n`;
    return `${request.method} ${request.path} HTTP/1.1\r\nHost: ${HOST}\r\n${headers}${length}\r\n${body}`;
  });
  const send = options.spread
    ? `local agent, address = spread_visitor()
  return requests[next] .. "user-agent: " .. agent .. "\\r\\nx-forwarded-for: " .. address .. "\\r\\n\\r\\n"`
    : 'return requests[next]';
  const script = `-- Written by bench/wrk.ts for one bench run.
${options.spread ? spreadLua() : ''}
local requests = {
${raw.map(luaString).join(',\n')}
}
local count = #requests
local threads = 0
local next = 0

function setup(thread)
  thread:set("first", threads * 997)
  threads = threads + 1
end

function init(args)
  next = (tonumber(first) or 0) % count
  math.randomseed(next + 1)
end

function request()
  next = next + 1
  if next > count then next = 1 end
  ${send}
end

function done(summary, latency, _)
  local errors = summary.errors
  io.write(string.format(
    'WRK-RESULT {"requests":%d,"durationUs":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,' ..
    '"p50":%d,"p975":%d,"p99":%d,"max":%d}\\n',
    summary.requests, summary.duration, errors.connect, errors.read, errors.write, errors.status, errors.timeout,
    latency:percentile(50), latency:percentile(97.5), latency:percentile(99), latency.max))
end
`;
  await writeFile(file, script);
}

/**
 * One wrk run against `url` with the requests of `script`. Run under `sh` so that `times` can say how
 * much CPU wrk used: too close to a whole core per thread, and the figure is wrk's, not the server's.
 */
export function runWrk(
  wrk: string,
  url: string,
  script: string,
  options: { connections: number; threads: number; durationS: number; timeoutS: number },
): Promise<LoadFigures> {
  const command =
    `"$0" -t${options.threads} -c${options.connections} -d${options.durationS}s --timeout ${options.timeoutS}s ` +
    `-s "$1" "$2"; status=$?; times; exit $status`;
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command, wrk, script, url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = output.split('\n').find((text) => text.startsWith('WRK-RESULT '));
      if (code !== 0 || !line) {
        reject(new BenchFailure(`wrk exited with ${code}:\n${output.slice(-2000)}`));
        return;
      }
      const measured = JSON.parse(line.slice('WRK-RESULT '.length)) as Record<string, number>;
      const durationS = measured.durationUs! / 1e6;
      resolve({
        durationS,
        requests: measured.requests!,
        rps: measured.requests! / durationS,
        p50: measured.p50! / 1000,
        p975: measured.p975! / 1000,
        p99: measured.p99! / 1000,
        max: measured.max! / 1000,
        errors: measured.connect! + measured.read! + measured.write!,
        timeouts: measured.timeout!,
        statusOther: measured.status!,
        cpuShare: childrenCpuSeconds(output) / durationS,
      });
    });
  });
}

/**
 * The children's CPU seconds from the shell's `times` (two lines, `0m0.01s 0m0.00s`: the shell's own
 * user and system time, then its children's).
 */
function childrenCpuSeconds(output: string): number {
  const lines = output.split('\n').filter((line) => /^\d+m[\d.]+s \d+m[\d.]+s$/.test(line.trim()));
  const children = lines.at(-1);
  if (!children) return Number.NaN;
  let seconds = 0;
  for (const part of children.trim().split(' ')) {
    const [minutes, rest] = part.split('m');
    seconds += Number(minutes) * 60 + Number.parseFloat(rest!);
  }
  return seconds;
}
