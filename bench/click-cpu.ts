// `npx tsx bench/click-cpu.ts`: where a click's CPU goes, thread by thread (Linux only; not part of
// `npm run bench`). Starts the server as part (a) does (or the bare route), sends the bench's clicks at
// a fixed rate — so that no thread is saturated and each one's CPU time per click can be compared
// between two versions — and prints the CPU time per click of every thread of the server (from
// /proc/PID/task/*/stat: the event loop is `main`, the event writer one of the `node` threads) and of the
// load generator. Figures move by ±10–20 % between runs on a shared VM: compare several runs each.
//
// Settings: CPU_SERVER (switchyard | bare), CPU_RATE (clicks/s; 0 = as fast as the server answers),
// CPU_SECONDS (8), CPU_PROFILE_DIR (start the server's node with --cpu-prof writing there), CPU_SPREAD
// (flat: the bench's 14 agents and 20 addresses; zipf: 5,000 agents by Zipf and 1M addresses, spread.ts),
// CPU_CAPPED (every offer with a daily cap never reached: each click takes a unit from the primary process),
// CPU_NODE_FLAGS (more flags for the server's node, e.g. `--trace-gc`, with BENCH_CHILD_LOG to keep its output),
// CPU_HEAP_DIR (what each click allocates, by function, sampled over the measured seconds: heap-sample.mjs;
// the sampler costs the event loop CPU of its own, so its run's CPU figures are not compared with others).
// Under the primary (SWITCHYARD_WORKERS, 1 here unless set), every process counts: `primary main`, and
// each worker's threads by its process id.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { type ClickRequest, clickRequests, createClickFlow } from './click-flow.js';
import { spreadVisitors } from './spread.js';
import {
  api,
  type Child,
  freePort,
  HOST,
  int,
  processTree,
  serverProcess,
  startChild,
  startSwitchyard,
  stopChild,
  table,
  waitUntilReady,
} from './support.js';

const SERVER = process.env.CPU_SERVER ?? 'switchyard';
const RATE = Number(process.env.CPU_RATE ?? 8000);
const SECONDS = Number(process.env.CPU_SECONDS ?? 8);
const PROFILE_DIR = process.env.CPU_PROFILE_DIR;
const SPREAD = process.env.CPU_SPREAD ?? 'flat';
const CAPPED = process.env.CPU_CAPPED === '1';
const HEAP_DIR = process.env.CPU_HEAP_DIR ? path.resolve(process.env.CPU_HEAP_DIR) : undefined;
const HEAP_SAMPLER = path.join(import.meta.dirname, 'heap-sample.mjs');
if (HEAP_DIR) {
  mkdirSync(HEAP_DIR, { recursive: true });
  // The server's processes inherit it (switchyardEnv): the sampler's folder.
  process.env.HEAP_SAMPLE_DIR = HEAP_DIR;
}
const CONNECTIONS = 50;
/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** Node's flags for the server: the CPU profiler when asked. */
const nodeFlags = [
  ...(PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []),
  ...(HEAP_DIR ? ['--import', HEAP_SAMPLER] : []),
  ...(process.env.CPU_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean),
];

/**
 * CPU ticks (user + system) of each thread of `root` and the processes it started (a primary's
 * workers), by `main` or `name:tid`, prefixed with the process for the ones below `root`.
 */
function threadTicks(root: number): Map<string, number> {
  const ticks = new Map<string, number>();
  const tree = processTree(root);
  for (const pid of tree) {
    const prefix = tree.length === 1 ? '' : pid === root ? 'primary ' : `worker ${pid} `;
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      ticks.set(`${prefix}${tid === String(pid) ? 'main' : `${name}:${tid}`}`, Number(fields[11]) + Number(fields[12]));
    }
  }
  return ticks;
}

/** Clicks at `rate` per second (0: as fast as answered), each connection cycling through its share. */
async function send(url: string, requests: ClickRequest[], rate: number, seconds: number) {
  let connection = 0;
  const visitor = SPREAD === 'zipf' ? spreadVisitors() : undefined;
  const share = Math.ceil(requests.length / CONNECTIONS);
  const result = await (autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    ...(rate > 0 ? { overallRate: rate } : {}),
    requests: requests.slice(0, 1),
    setupClient: (client: { setRequests(list: ClickRequest[]): void }) => {
      const start = (connection++ * share) % requests.length;
      client.setRequests(
        requests.slice(start, start + share).map((request) => ({
          ...request,
          headers: { ...request.headers },
          ...(visitor
            ? {
                setupRequest: (sent: ClickRequest) => {
                  const drawn = visitor();
                  sent.headers = { ...sent.headers, 'user-agent': drawn.userAgent, 'x-forwarded-for': drawn.address };
                  return sent;
                },
              }
            : {}),
        })),
      );
    },
  } as never) as unknown as Promise<{ '3xx': number; duration: number }>);
  return { answered: result['3xx'], seconds: result.duration };
}

/** Starts or stops the heap sampler in each of the server's processes that loaded it; their ids. */
function toggleHeapSampling(root: number): number[] {
  const ready = processTree(root).filter((pid) => existsSync(path.join(HEAP_DIR!, `ready-${pid}`)));
  for (const pid of ready) process.kill(pid, 'SIGUSR2');
  return ready;
}

/** Stops the samplers, waits for their profiles, and prints what a click allocates. */
async function heapProfiles(pids: number[], clicks: number): Promise<void> {
  for (const pid of pids) process.kill(pid, 'SIGUSR2');
  const written = () => pids.every((pid) => existsSync(path.join(HEAP_DIR!, `heap-${pid}.json`)));
  for (let waited = 0; !written() && waited < 30_000; waited += 200)
    await new Promise((resolve) => setTimeout(resolve, 200));
  console.log(execFileSync(process.execPath, [HEAP_SAMPLER, HEAP_DIR!, String(clicks)], { encoding: 'utf8' }));
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-cpu-'));
  let server: Child;
  let url: string;
  let requests: ClickRequest[];
  if (SERVER === 'bare') {
    const port = await freePort();
    server = startChild(
      'bare Fastify server',
      'bench/bare-server.ts',
      { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST },
      nodeFlags,
    );
    url = `http://${HOST}:${port}/c/bench`;
    await waitUntilReady(server, async () => (await fetch(url, { redirect: 'manual' })).status === 302);
    requests = clickRequests('bench0000000', 2000);
  } else {
    const started = await startSwitchyard(dataDir, nodeFlags);
    server = started.child;
    const { base, token } = started;
    const flow = await createClickFlow(
      { post: (route, body) => api(base, token, 'POST', route, body) },
      CAPPED ? { dailyCap: 1_000_000_000 } : {},
    );
    url = `${base}/c/${flow.campaignExternalId}`;
    requests = clickRequests(flow.campaignExternalId, 2000);
  }
  try {
    // The server's node process: the bare server, or the primary of Switchyard's workers.
    const pid = serverProcess(server.process.pid!);
    await send(url, requests, RATE, 3); // warm-up
    const before = threadTicks(pid);
    const ownBefore = process.cpuUsage();
    const sampled = HEAP_DIR ? toggleHeapSampling(pid) : [];
    const { answered, seconds } = await send(url, requests, RATE, SECONDS);
    const after = threadTicks(pid);
    const own = process.cpuUsage(ownBefore);
    if (HEAP_DIR) await heapProfiles(sampled, answered);
    const perClick = (ticks: number) => ((ticks / TICKS_PER_SECOND) * 1e6) / answered;
    const rows: [string, number][] = [];
    for (const [thread, ticks] of after) {
      const spent = ticks - (before.get(thread) ?? 0);
      if (spent > 0) rows.push([thread, perClick(spent)]);
    }
    rows.sort((a, b) => b[1] - a[1]);
    const total = rows.reduce((sum, [, micros]) => sum + micros, 0);
    console.log(
      `${SERVER}, ${SPREAD} spread: ${int(answered)} clicks answered 3xx in ${seconds} s (${int(answered / seconds)}/s)\n`,
    );
    console.log(
      table(
        ['thread', 'CPU µs per click'],
        [
          ...rows.map(([thread, micros]): string[] => [thread, micros.toFixed(1)]),
          ['server, all threads', total.toFixed(1)],
          ['autocannon (this process)', ((own.user + own.system) / answered).toFixed(1)],
        ],
      ),
    );
  } finally {
    await stopChild(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
