// Part (c) of `npm run bench` (BENCH_PART=c): clicks while the dashboard reads reports. Part (b)'s report
// shapes on 1M generated clicks (BENCH_LOAD_REPORT_CLICKS), the server on SQLite with its columnar store
// caught up; then, in turns, part (a)'s click load alone (wrk, 50 connections, the same 2,000 varied
// clicks) and the same load while 4 clients ask reports in a loop (each the next shape as soon as the
// last answered). Reports run in the server's report engine, a child process at a lower priority: the
// targets are that clicks keep at least 80 % of their throughput alone, their p99 stays under 10 ms, and
// every report answers 200 or 503 (waited too long, with Retry-After), never 500.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { clickRequests, createReportCampaigns } from './click-flow.js';
import { generateEvents } from './report-data.js';
import {
  api,
  BenchFailure,
  type Child,
  int,
  ms,
  startSwitchyard,
  stopChild,
  type TargetRow,
  table,
  verdict,
} from './support.js';
import { ensureWrk, type LoadFigures, runWrk, writeWrkScript } from './wrk.js';

const CLICKS = Number(process.env.BENCH_LOAD_REPORT_CLICKS ?? 1_000_000);
const DAYS = 30;
const CAMPAIGNS = 20;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 3);
const REPORT_CLIENTS = 4;
/** A report unanswered this long counts as failed (the server's own wait limit is 30 s by default). */
const REPORT_TIMEOUT_MS = 60_000;

// The targets of part (c) (README, "Targets").
const TARGET_KEPT = 0.8;
const TARGET_P99_MS = 10;

/** Part (b)'s report shapes over the generated month. */
function reportShapes(campaign: string): string[] {
  const today = new Date();
  const from = new Date(today.getTime() - DAYS * 86_400_000).toISOString().slice(0, 10);
  const to = today.toISOString().slice(0, 10);
  const utc = `date_from=${from}&date_to=${to}&timezone=UTC`;
  const newYork = `date_from=${from}&date_to=${to}&timezone=America/New_York`;
  const oneCampaign = `filters=${encodeURIComponent(JSON.stringify({ campaign }))}`;
  return [
    ...['campaign', 'offer', 'country', 'day'].map((group) => `group_by=${group}&${utc}`),
    `group_by=campaign&${newYork}`,
    `group_by=day&${newYork}`,
    `group_by=campaign,offer&${utc}`,
    `group_by=day&${utc}&${oneCampaign}`,
    `group_by=campaign,offer,country,day&${utc}`,
    `group_by=subaff&${utc}`,
    `group_by=var1,country&${utc}`,
    `group_by=var1&${utc}&${oneCampaign}`,
    `group_by=subaff,day&${newYork}`,
  ];
}

interface ReportTally {
  statuses: Map<string, number>;
  latencies: number[];
  /** The first answers that were neither 200 nor 503. */
  failures: string[];
}

/** REPORT_CLIENTS clients asking reports one after another until `until` settles. */
async function askReports(
  base: string,
  token: string,
  shapes: string[],
  until: Promise<unknown>,
): Promise<ReportTally> {
  let done = false;
  const stop = () => {
    done = true;
  };
  until.then(stop, stop);
  const tally: ReportTally = { statuses: new Map(), latencies: [], failures: [] };
  const count = (status: string) => tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
  await Promise.all(
    Array.from({ length: REPORT_CLIENTS }, async (_, client) => {
      for (let turn = client; !done; turn += 1) {
        const started = performance.now();
        try {
          const response = await fetch(`${base}/api/reports?${shapes[turn % shapes.length]}`, {
            headers: { authorization: `Bearer ${token}` },
            signal: AbortSignal.timeout(REPORT_TIMEOUT_MS),
          });
          const text = await response.text();
          count(String(response.status));
          if (response.status === 200) tally.latencies.push(performance.now() - started);
          else if (response.status === 503) {
            if (!response.headers.get('retry-after')) tally.failures.push('a 503 without Retry-After');
            // As the dashboard would, after the time the server asked for (at most 1 s here).
            await new Promise((resolve) => setTimeout(resolve, 1000));
          } else if (tally.failures.length < 5) tally.failures.push(`${response.status} ${text.slice(0, 200)}`);
        } catch (error) {
          count('no answer');
          if (tally.failures.length < 5) tally.failures.push(String(error));
        }
      }
    }),
  );
  return tally;
}

async function waitForLog(child: Child, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitedAlready) throw new BenchFailure(`${child.name} exited:\n${child.output.slice(-20).join('\n')}`);
    for (const line of child.output) {
      const found = line.match(pattern);
      if (found) return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new BenchFailure(`${child.name} did not log ${pattern} within ${timeoutMs / 1000} s`);
}

function combined(runs: LoadFigures[]) {
  const durationS = runs.reduce((sum, run) => sum + run.durationS, 0);
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  return {
    requests,
    rps: requests / durationS,
    // wrk gives each run's own percentiles: the highest of the rounds' bounds the one over all of them.
    p50: Math.max(...runs.map((run) => run.p50)),
    p99: Math.max(...runs.map((run) => run.p99)),
    max: Math.max(...runs.map((run) => run.max)),
    errors: runs.reduce((sum, run) => sum + run.errors + run.timeouts, 0),
    other: runs.reduce((sum, run) => sum + run.statusOther, 0),
  };
}

const percent = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;

export async function reportsUnderLoadBench(
  children: Child[],
  cleanups: (() => Promise<unknown>)[],
): Promise<TargetRow[]> {
  const wrk = ensureWrk();
  console.log(
    `\nPart (c), clicks while reports are read: ${int(CLICKS)} generated clicks over ${DAYS} days (SQLite, DuckDB); ` +
      `${ROUNDS} rounds of ${DURATION_S} s of wrk (${CONNECTIONS} connections) alone, then with ${REPORT_CLIENTS} ` +
      'clients asking part (b)’s reports in a loop, in turns\n',
  );
  const dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-bench-load-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));

  // 1. The configuration through the API, then the events straight into the stopped server's database.
  let server = await startSwitchyard(dataDir);
  children.push(server.child);
  const post = (route: string, body: Record<string, unknown>) => api(server.base, server.token, 'POST', route, body);
  const { flow, campaigns } = await createReportCampaigns({ post }, CAMPAIGNS);
  await stopChild(server.child);
  const started = performance.now();
  generateEvents(
    path.join(dataDir, 'switchyard.db'),
    {
      campaigns: campaigns.map((campaign) => ({
        ...campaign,
        trafficSourceExternalId: flow.trafficSourceExternalId,
        flowExternalId: flow.flowExternalId,
      })),
      pathGroups: flow.pathGroups,
    },
    { clicks: CLICKS, conversions: Math.round(CLICKS / 100), days: DAYS, now: new Date() },
  );
  console.log(`generated ${int(CLICKS)} clicks in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // 2. The server again, once its columnar store holds every event.
  server = await startSwitchyard(dataDir, [], { LOG_LEVEL: 'info' });
  children.push(server.child);
  const caughtUp = await waitForLog(server.child, /columnar store: caught up in ([\d.]+) s/, 1_800_000);
  console.log(`columnar store rebuilt in ${caughtUp[1]} s`);
  const { base, token } = server;
  const shapes = reportShapes(flow.campaignExternalId);
  for (const shape of shapes) {
    const response = await fetch(`${base}/api/reports?${shape}`, { headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200) throw new BenchFailure(`report ${shape}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  }
  console.log(`each of the ${shapes.length} report shapes answered 200 once`);

  const script = path.join(dataDir, 'click.lua');
  await writeWrkScript(script, clickRequests(flow.campaignExternalId, 2000));
  const clickUrl = `${base}/c/${flow.campaignExternalId}`;
  const load = (durationS: number) =>
    runWrk(wrk, clickUrl, script, { connections: CONNECTIONS, threads: 1, durationS, timeoutS: 10 });
  const withReports = async (durationS: number) => {
    const clicks = load(durationS);
    const reports = askReports(base, token, shapes, clicks);
    return { clicks: await clicks, reports: await reports };
  };

  // 3. In turns: alone, then with the reports.
  console.log(
    `load average (1 / 5 / 15 min) before: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' / ')}`,
  );
  await load(WARMUP_S);
  await withReports(WARMUP_S);
  const alone: LoadFigures[] = [];
  const loaded: LoadFigures[] = [];
  const tally: ReportTally = { statuses: new Map(), latencies: [], failures: [] };
  for (let round = 1; round <= ROUNDS; round += 1) {
    const quiet = await load(DURATION_S);
    const busy = await withReports(DURATION_S);
    alone.push(quiet);
    loaded.push(busy.clicks);
    for (const [status, count] of busy.reports.statuses)
      tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + count);
    tally.latencies.push(...busy.reports.latencies);
    tally.failures.push(...busy.reports.failures);
    console.log(
      `round ${round}: clicks alone ${int(quiet.rps)}/s (p99 ${ms(quiet.p99)}), with reports ${int(busy.clicks.rps)}/s ` +
        `(p99 ${ms(busy.clicks.p99)}, ${percent(busy.clicks.rps / quiet.rps)}); reports ` +
        JSON.stringify(Object.fromEntries(busy.reports.statuses)),
    );
  }
  await stopChild(server.child);

  // 4. What was measured.
  const quiet = combined(alone);
  const busy = combined(loaded);
  const kept = busy.rps / quiet.rps;
  console.log(
    `\n${table(
      ['clicks', 'requests', 'req/s', 'p50', 'p99', 'max', 'errors', 'other status'],
      [
        ['alone', quiet],
        [`with ${REPORT_CLIENTS} report clients`, busy],
      ].map(([label, run]) => {
        const figures = run as ReturnType<typeof combined>;
        return [
          label as string,
          int(figures.requests),
          int(figures.rps),
          ms(figures.p50),
          ms(figures.p99),
          ms(figures.max),
          int(figures.errors),
          int(figures.other),
        ];
      }),
    )}`,
  );
  const sorted = [...tally.latencies].sort((a, b) => a - b);
  const answered = [...tally.statuses.values()].reduce((sum, count) => sum + count, 0);
  console.log(
    `reports answered during the click rounds: ${int(answered)} ${JSON.stringify(Object.fromEntries(tally.statuses))}; ` +
      `200s took p50 ${ms(sorted[Math.floor(sorted.length / 2)] ?? Number.NaN)}, ` +
      `max ${ms(sorted.at(-1) ?? Number.NaN)}`,
  );
  if (tally.failures.length > 0) console.log(`first failures: ${tally.failures.slice(0, 5).join(' | ')}`);
  const bad = answered - (tally.statuses.get('200') ?? 0) - (tally.statuses.get('503') ?? 0);
  return [
    [
      `(c) clicks with ${REPORT_CLIENTS} report clients keep >= ${TARGET_KEPT * 100}% of their throughput alone`,
      `${percent(kept)} (${int(busy.rps)} / ${int(quiet.rps)} clicks/s)`,
      verdict(kept >= TARGET_KEPT),
    ],
    [`(c) click p99 < ${TARGET_P99_MS} ms with reports`, ms(busy.p99), verdict(busy.p99 < TARGET_P99_MS)],
    [
      '(c) every report 200 or 503 (with Retry-After), never 500',
      `${int(tally.statuses.get('200') ?? 0)} × 200, ${int(tally.statuses.get('503') ?? 0)} × 503, ${int(bad)} other`,
      verdict(bad === 0 && tally.failures.length === 0 && answered > 0),
    ],
    [
      '(c) zero click errors',
      `${busy.errors + quiet.errors} errors, ${busy.other + quiet.other} other status`,
      verdict(busy.errors + quiet.errors === 0 && busy.other + quiet.other === 0),
    ],
  ];
}
