// Part (b) with BENCH_REBUILD_LOAD=wrk ("say how the click bench moves during the rebuild"): the
// click bench's load — wrk, 50 connections, the same varied clicks as part (a) — in a few rounds while
// the server copies its events into an empty columnar store, then the same rounds once it has caught up,
// on the same server and database. The clicks they add are in the reports timed after. Without it,
// part (b) sends clicks one after another meanwhile (a light load that leaves the rebuild's own time
// comparable between runs).
import path from 'node:path';
import { clickRequests } from './click-flow.js';
import { BenchFailure, int, ms } from './support.js';
import { ensureWrk, type LoadFigures, runWrk, writeWrkScript } from './wrk.js';

const ROUND_S = 10;
const CONNECTIONS = 50;
/**
 * Rounds during the rebuild, and once the store has caught up, to compare with. Few: a round adds about
 * 300,000 clicks to copy, and a load that never stops would add them faster than a rebuild copies.
 */
const DURING_ROUNDS = 3;
const AFTER_ROUNDS = 3;

export interface RebuildLoad {
  /** Rounds that ended before the store caught up. */
  during: LoadFigures[];
  /** The round the store caught up in (partly during, partly after). */
  straddling: LoadFigures | null;
  after: LoadFigures[];
}

export const rebuildLoadWanted = () => process.env.BENCH_REBUILD_LOAD === 'wrk';

/** Up to DURING_ROUNDS rounds of load while `rebuilding` runs, then AFTER_ROUNDS once it has settled. */
export async function loadDuringRebuild(
  base: string,
  campaign: string,
  dir: string,
  rebuilding: Promise<unknown>,
): Promise<RebuildLoad> {
  const wrk = ensureWrk();
  const script = path.join(dir, 'rebuild-clicks.lua');
  await writeWrkScript(script, clickRequests(campaign, 2000));
  let done = false;
  const settle = () => {
    done = true;
  };
  rebuilding.then(settle, settle);
  const round = async () => {
    const figures = await runWrk(wrk, `${base}/c/${campaign}`, script, {
      connections: CONNECTIONS,
      threads: 1,
      durationS: ROUND_S,
      timeoutS: 10,
    });
    if (figures.errors > 0 || figures.statusOther > 0) {
      throw new BenchFailure(
        `clicks during the rebuild: ${figures.errors} connection errors, ${figures.statusOther} answers not a redirect`,
      );
    }
    return figures;
  };
  const result: RebuildLoad = { during: [], straddling: null, after: [] };
  while (!done && result.during.length < DURING_ROUNDS) {
    const figures = await round();
    if (done) result.straddling = figures;
    else result.during.push(figures);
  }
  await rebuilding;
  for (let index = 0; index < AFTER_ROUNDS; index += 1) result.after.push(await round());
  return result;
}

/** Clicks answered per second over rounds, added up. */
function rate(rounds: readonly LoadFigures[]): number {
  const requests = rounds.reduce((sum, round) => sum + round.requests, 0);
  return requests / rounds.reduce((sum, round) => sum + round.durationS, 0);
}

/** Rounds added up: their rate, and the worst of their percentiles. */
function summed(rounds: readonly LoadFigures[]): string {
  if (rounds.length === 0) return 'no round';
  const rates = rounds.map((round) => Math.round(round.rps)).sort((a, b) => a - b);
  const worst = (pick: (round: LoadFigures) => number) => ms(Math.max(...rounds.map(pick)));
  return (
    `${int(rate(rounds))} clicks/s over ${rounds.length} round${rounds.length === 1 ? '' : 's'} ` +
    `(${int(rates[0]!)}–${int(rates.at(-1)!)}), p50 up to ${worst((round) => round.p50)}, ` +
    `p99 up to ${worst((round) => round.p99)}, max ${worst((round) => round.max)}`
  );
}

export function describeRebuildLoad(load: RebuildLoad): string {
  const ratio =
    load.during.length > 0 && load.after.length > 0
      ? ` — ${((rate(load.during) / rate(load.after)) * 100).toFixed(1)} % of the rate after`
      : '';
  return (
    `click bench (wrk, ${CONNECTIONS} connections, rounds of ${ROUND_S} s) while the store was rebuilt: ${summed(load.during)}${ratio}\n` +
    `  once it had caught up: ${summed(load.after)}` +
    (load.straddling ? `\n  the round it caught up in: ${summed([load.straddling])}` : '')
  );
}
