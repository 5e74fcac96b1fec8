// `npx tsx bench/startup.ts`: the time from starting the server to its first answered click, on a data
// directory that already holds many clicks (10M by default, generated as part (b) generates them), each
// way the server has been started:
//
//   old npm start  the former `npm start`: the dashboard built by Vite every time, then the server
//                  through tsx (the dashboard goes to a scratch folder, so apps/web/dist is untouched)
//   tsx            the server alone through tsx (`tsx src/main.ts`, the former `npm run start -w apps/server`)
//   npm start      today's `npm start`: build step (nothing to do, the stamps are current), then plain node
//   node           `node dist/main.js` alone: what `npm start` costs beyond the server's own start
//
// Each start is timed from the spawn to the first 302 of a click (polled every 20 ms), then stopped with
// SIGTERM; the ways take turns, STARTUP_ROUNDS (3) times, and the median is printed.
//
//   npx tsx bench/startup.ts [--clicks 10000000] [--data DIR] [--ways "tsx,npm start,node"]
//
// --data DIR keeps the prepared data directory (and reuses it when it holds a database), since
// generating 10M clicks and building their columnar store takes minutes.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClickFlow } from './click-flow.js';
import { generateEvents } from './report-data.js';
import { api, freePort, HOST, int, ROOT, startSwitchyard, stopChild, switchyardEnv, table } from './support.js';

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? undefined : process.argv[index + 1];
}

const CLICKS = Number(argument('clicks') ?? 10_000_000);
const ROUNDS = Number(process.env.STARTUP_ROUNDS ?? 3);
const KEPT_DIR = argument('data');
const ALL_WAYS = ['old npm start', 'tsx', 'npm start', 'node'] as const;
type Way = (typeof ALL_WAYS)[number];
const WAYS = (argument('ways') ?? ALL_WAYS.join(','))
  .split(',')
  .map((way) => way.trim())
  .filter((way): way is Way => (ALL_WAYS as readonly string[]).includes(way));
const CAMPAIGN_FILE = 'startup-campaign.txt';

/** The command of each way, run in a shell of its own process group (npm and tsx start children). */
function command(way: Way, scratchWeb: string): string {
  switch (way) {
    case 'old npm start':
      return (
        `node node_modules/vite/bin/vite.js build apps/web --outDir ${scratchWeb} --emptyOutDir --logLevel warn && ` +
        'cd apps/server && exec ../../node_modules/.bin/tsx src/main.ts'
      );
    case 'tsx':
      return 'cd apps/server && exec ../../node_modules/.bin/tsx src/main.ts';
    case 'npm start':
      return 'exec npm start --silent';
    case 'node':
      return 'cd apps/server && exec node --enable-source-maps dist/main.js';
  }
}

/** The data directory with CLICKS clicks of the bench's flow, and the campaign to click. */
async function prepare(dataDir: string): Promise<string> {
  const campaignFile = path.join(dataDir, CAMPAIGN_FILE);
  if (existsSync(path.join(dataDir, 'switchyard.db')) && existsSync(campaignFile)) {
    const { readFile } = await import('node:fs/promises');
    console.log(`reusing ${dataDir}`);
    return (await readFile(campaignFile, 'utf8')).trim();
  }
  await mkdir(dataDir, { recursive: true });
  let server = await startSwitchyard(dataDir);
  const flow = await createClickFlow({ post: (route, body) => api(server.base, server.token, 'POST', route, body) });
  await stopChild(server.child);
  const started = performance.now();
  generateEvents(
    path.join(dataDir, 'switchyard.db'),
    {
      campaigns: [
        {
          externalId: flow.campaignExternalId,
          trafficSourceExternalId: flow.trafficSourceExternalId,
          flowExternalId: flow.flowExternalId,
          cost: 0.02,
        },
      ],
      pathGroups: flow.pathGroups,
    },
    {
      clicks: CLICKS,
      conversions: Math.round(CLICKS / 100),
      days: 30,
      now: new Date(),
      onProgress: (written) => {
        if (written % 1_000_000 === 0) console.log(`generated ${int(written)} clicks`);
      },
    },
  );
  console.log(`generated ${int(CLICKS)} clicks in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  // A data directory as a running install has it: its columnar store built from those clicks.
  server = await startSwitchyard(dataDir, [], { LOG_LEVEL: 'info' });
  const rebuildStart = performance.now();
  while (!server.child.output.some((line) => line.includes('columnar store: caught up'))) {
    if (server.child.exitedAlready) throw new Error(`the server exited: ${server.child.output.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  console.log(`columnar store built in ${((performance.now() - rebuildStart) / 1000).toFixed(0)} s`);
  await stopChild(server.child, 120_000);
  const { writeFile } = await import('node:fs/promises');
  await writeFile(campaignFile, flow.campaignExternalId);
  return flow.campaignExternalId;
}

function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      resolve();
    }
  });
}

/** Seconds from the spawn to the first 302 of a click. */
async function timeStart(way: Way, dataDir: string, campaign: string, scratchWeb: string): Promise<number> {
  const port = await freePort();
  const env = { ...switchyardEnv(dataDir, port), LOG_LEVEL: 'warn' };
  const url = `http://${HOST}:${port}/c/${campaign}?zone=z100`;
  const started = performance.now();
  const child = spawn('sh', ['-c', command(way, scratchWeb)], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => {
    errors = (errors + chunk).slice(-4000);
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${way} exited (${child.exitCode}): ${errors}`);
      try {
        const response = await fetch(url, { redirect: 'manual', headers: { 'x-forwarded-for': '81.2.69.160' } });
        await response.arrayBuffer();
        if (response.status === 302) return (performance.now() - started) / 1000;
      } catch {
        // Not listening yet.
      }
      if (performance.now() - started > 600_000) throw new Error(`${way}: no click answered in 10 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await stopGroup(child);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const dataDir = KEPT_DIR ? path.resolve(KEPT_DIR) : await mkdtemp(path.join(tmpdir(), 'switchyard-startup-'));
  const scratchWeb = await mkdtemp(path.join(tmpdir(), 'switchyard-startup-web-'));
  try {
    const campaign = await prepare(dataDir);
    // The build step of `npm start` has run once: the measured starts find the stamps current.
    if (WAYS.includes('npm start') || WAYS.includes('node')) {
      const build = spawn(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
      await new Promise((resolve) => build.once('exit', resolve));
    }
    console.log(`\nstarts on ${int(CLICKS)} clicks (${dataDir}), ${ROUNDS} rounds in turns; node ${process.version}`);
    const times = new Map<Way, number[]>(WAYS.map((way) => [way, []]));
    for (let round = 1; round <= ROUNDS; round += 1) {
      const line: string[] = [];
      for (const way of WAYS) {
        const seconds = await timeStart(way, dataDir, campaign, scratchWeb);
        times.get(way)!.push(seconds);
        line.push(`${way} ${seconds.toFixed(2)} s`);
      }
      console.log(`round ${round}: ${line.join(', ')}`);
    }
    console.log(
      `\n${table(
        ['start', 'to the first answered click (median)', 'each round'],
        WAYS.map((way) => [
          way,
          `${median(times.get(way)!).toFixed(2)} s`,
          times
            .get(way)!
            .map((seconds) => seconds.toFixed(2))
            .join(', '),
        ]),
      )}`,
    );
  } finally {
    await rm(scratchWeb, { recursive: true, force: true });
    if (!KEPT_DIR) await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
