// `npx tsx bench/visitor-cpu.ts`: the CPU a click spends reading its visitor (the user agent's verdict,
// then country, region, city, network and crawler ranges of its address, the bot verdict), in this
// process, without the HTTP around it: process.cpuUsage() over VISITOR_COUNT visitors after as many as
// warm-up, so that a machine shared with other work slows the figure less than wall time would. Two
// spreads: the click bench's (14 agents, 20 addresses, click-flow.ts), and the realistic one (5,000 agents
// by Zipf, 1M addresses, spread.ts). Complements click-cpu.ts, whose per-thread figures move by a third
// on a loaded machine.
//
// Settings: VISITOR_COUNT (300,000), VISITOR_SRC (the server's src folder to measure; default this tree's,
// e.g. another checkout's to compare two versions).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { IPS, USER_AGENTS } from './click-flow.js';
import { spreadVisitors } from './spread.js';
import { ROOT, table } from './support.js';

const COUNT = Number(process.env.VISITOR_COUNT ?? 300_000);
const SRC = path.resolve(process.env.VISITOR_SRC ?? path.join(ROOT, 'apps/server/src'));

interface Visitor {
  userAgent: string;
  address: string;
}

function flatVisitors(): () => Visitor {
  let index = 0;
  return () => {
    index += 1;
    return { userAgent: USER_AGENTS[index % USER_AGENTS.length]!, address: IPS[(index * 7) % IPS.length]! };
  };
}

async function main(): Promise<void> {
  const load = (file: string) => import(pathToFileURL(path.join(SRC, file)).href);
  const { readVisitor } = await load('traffic/visitor/context.ts');
  const { UserAgentCache } = await load('traffic/visitor/user-agent.ts');
  const { loadNetworks } = await load('traffic/visitor/networks.ts');
  const { loadPlaces } = await load('traffic/visitor/places.ts');
  const cacheDir = await mkdtemp(path.join(tmpdir(), 'switchyard-visitor-cpu-'));
  try {
    await loadNetworks(cacheDir);
    // A version without the table of places (before 2026-11-29) looks them up in the file.
    await loadPlaces?.(cacheDir);
    const policy = { datacenterAsns: new Set([16509, 14061, 24940]) };
    const rows: string[][] = [];
    for (const [name, draw] of [
      ['bench (14 agents, 20 addresses)', flatVisitors()],
      ['Zipf (5,000 agents, 1M addresses)', spreadVisitors()],
    ] as const) {
      // Drawn beforehand: the measured loop does the reading alone.
      const visitors = Array.from({ length: COUNT * 2 }, () => draw());
      const agents = new UserAgentCache();
      let bots = 0;
      const read = (visitor: Visitor) => {
        const traits = agents.describe(visitor.userAgent);
        const reading = readVisitor(
          {
            ip: visitor.address,
            userAgent: visitor.userAgent,
            traits,
            acceptLanguage: 'en-US,en;q=0.9',
            referrer: 'https://publisher1.example/article/1',
          },
          policy,
        );
        if (reading.botReason) bots += 1;
      };
      for (let index = 0; index < COUNT; index += 1) read(visitors[index]!);
      const before = process.cpuUsage();
      for (let index = COUNT; index < COUNT * 2; index += 1) read(visitors[index]!);
      const used = process.cpuUsage(before);
      rows.push([name, ((used.user + used.system) / COUNT).toFixed(2), `${((bots / (COUNT * 2)) * 100).toFixed(1)}%`]);
    }
    console.log(`${SRC}: ${COUNT.toLocaleString('en-US')} visitors after as many as warm-up\n`);
    console.log(table(['spread', 'CPU µs per visitor', 'bots'], rows));
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}

await main();
