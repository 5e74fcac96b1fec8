// Part (b) of `npm run bench` (issue 5, item 5b): reports on 10 million generated clicks and 100k
// conversions over 30 days. The configuration (a flow of 10 path groups × 3 paths, 15 offers, 6 landers,
// 20 campaigns) is made through the API; the events are generated straight into the server's SQLite
// database while it is stopped (bench/report-data.ts); then the server is started again and each report
// is asked over HTTP, as the dashboard asks it, several times. BENCH_REPORT_CLICKS changes the size.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClickFlow } from './click-flow.js';
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

const CLICKS = Number(process.env.BENCH_REPORT_CLICKS ?? 10_000_000);
const CONVERSIONS = Math.round(CLICKS / 100);
const DAYS = 30;
const CAMPAIGNS = 20;
const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 7);
const TARGET_MEDIAN_MS = 500;

interface ReportFigures {
  clicks: number;
  conversions: number;
  revenue: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export async function reportsBench(children: Child[], cleanups: (() => Promise<unknown>)[]): Promise<TargetRow[]> {
  console.log(
    `\nPart (b), reports: ${int(CLICKS)} clicks and ${int(CONVERSIONS)} conversions over ${DAYS} days, ` +
      `${CAMPAIGNS} campaigns; each report asked ${RUNS} times over HTTP after one warm-up\n`,
  );
  const dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-bench-reports-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));

  // 1. Configuration through the API.
  let server = await startSwitchyard(dataDir);
  children.push(server.child);
  const post = (route: string, body: Record<string, unknown>) => api(server.base, server.token, 'POST', route, body);
  const flow = await createClickFlow({ post });
  const campaigns = [{ externalId: flow.campaignExternalId, cost: 0.02 }];
  for (let index = 2; index <= CAMPAIGNS; index += 1) {
    const cost = Math.round(index * 0.7) / 100;
    const campaign = await post('/api/tracker/campaigns', {
      name: `Bench campaign ${index}`,
      traffic_source_external_id: flow.trafficSourceExternalId,
      flow_external_id: flow.flowExternalId,
      cost_model: 'CPC',
      cost,
    });
    campaigns.push({ externalId: String(campaign.external_id), cost });
  }
  await stopChild(server.child);

  // 2. The events, straight into the database.
  const started = performance.now();
  let lastPrinted = 0;
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
    {
      clicks: CLICKS,
      conversions: CONVERSIONS,
      days: DAYS,
      now: new Date(),
      onProgress: (written) => {
        if (written - lastPrinted >= 1_000_000 || (written === CLICKS && lastPrinted !== CLICKS)) {
          lastPrinted = written;
          const seconds = (performance.now() - started) / 1000;
          console.log(`generated ${int(written)} clicks in ${seconds.toFixed(0)} s`);
        }
      },
    },
  );

  // 3. The reports, from the running server.
  server = await startSwitchyard(dataDir);
  children.push(server.child);
  const today = new Date();
  const from = new Date(today.getTime() - DAYS * 86_400_000).toISOString().slice(0, 10);
  const to = today.toISOString().slice(0, 10);
  const reports: { label: string; query: string; target: boolean }[] = [
    ...['campaign', 'offer', 'country', 'day'].map((group) => ({
      label: `by ${group}`,
      query: `group_by=${group}&date_from=${from}&date_to=${to}&timezone=UTC`,
      target: true,
    })),
    ...['campaign', 'day'].map((group) => ({
      label: `by ${group}, America/New_York`,
      query: `group_by=${group}&date_from=${from}&date_to=${to}&timezone=America/New_York`,
      target: true,
    })),
    {
      label: 'by campaign, offer (drill-down)',
      query: `group_by=campaign,offer&date_from=${from}&date_to=${to}&timezone=UTC`,
      target: true,
    },
    {
      label: 'one campaign by day',
      query: `group_by=day&date_from=${from}&date_to=${to}&timezone=UTC&filters=${encodeURIComponent(JSON.stringify({ campaign: flow.campaignExternalId }))}`,
      target: true,
    },
    // Beyond any rollup cube: the events themselves are read. Shown, not a target of the issue.
    {
      label: 'by campaign, offer, country, day (events)',
      query: `group_by=campaign,offer,country,day&date_from=${from}&date_to=${to}&timezone=UTC`,
      target: false,
    },
    {
      label: 'by subaff (events)',
      query: `group_by=subaff&date_from=${from}&date_to=${to}&timezone=UTC`,
      target: false,
    },
  ];
  const rows: string[][] = [];
  const targets: TargetRow[] = [];
  const probes: string[][] = [];
  for (const report of reports) {
    const times: number[] = [];
    let totals: ReportFigures | undefined;
    for (let run = 0; run <= RUNS; run += 1) {
      const start = performance.now();
      const answer = fetch(`${server.base}/api/reports?${report.query}`, {
        headers: { authorization: `Bearer ${server.token}` },
      });
      // While a report beyond the cubes reads the events, clicks must still be answered at once.
      const probe = !report.target && run === 1 ? probeClicks(server.base, flow.campaignExternalId, answer) : null;
      const response = await answer;
      const body = (await response.json()) as { totals: ReportFigures; total: number };
      const elapsed = performance.now() - start;
      const latencies = await probe;
      if (latencies) {
        const sorted = latencies.sort((a, b) => a - b);
        probes.push([
          report.label,
          int(sorted.length),
          ms(sorted[Math.floor(sorted.length / 2)] ?? Number.NaN),
          ms(sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? Number.NaN),
          ms(sorted.at(-1) ?? Number.NaN),
        ]);
      }
      if (response.status !== 200) throw new BenchFailure(`report ${report.label}: ${response.status}`);
      if (run > 0) times.push(elapsed);
      totals = body.totals;
      // A report beyond the cubes, measured once after its warm-up, is enough to make the point.
      if (!report.target && run >= 1) break;
    }
    const middle = median(times);
    console.log(`${report.label}: median ${ms(middle)} of ${times.length}`);
    rows.push([
      report.label,
      ms(middle),
      ms(Math.min(...times)),
      ms(Math.max(...times)),
      int(totals?.clicks ?? 0),
      int(totals?.conversions ?? 0),
      (totals?.revenue ?? 0).toFixed(2),
    ]);
    if (report.target) {
      targets.push([
        `report ${report.label} < ${TARGET_MEDIAN_MS} ms median`,
        ms(middle),
        verdict(middle < TARGET_MEDIAN_MS),
      ]);
    }
  }
  console.log(
    table(
      ['report (last 30 days + today, limit 40)', 'median', 'min', 'max', 'clicks', 'conversions', 'revenue'],
      rows,
    ),
  );
  console.log(
    `\nClicks sent one after another while each report beyond the cubes ran (its totals include them):\n${table(
      ['during report', 'clicks', 'p50', 'p99', 'max'],
      probes,
    )}`,
  );
  await stopChild(server.child);
  return targets;
}

/** Sends clicks one after another until `until` settles; answers each one's latency. */
async function probeClicks(base: string, campaign: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  const stop = () => {
    done = true;
  };
  until.then(stop, stop);
  const latencies: number[] = [];
  while (!done) {
    const start = performance.now();
    const response = await fetch(`${base}/c/${campaign}`, { redirect: 'manual' });
    await response.arrayBuffer();
    if (response.status !== 302) throw new BenchFailure(`a click during a report answered ${response.status}`);
    latencies.push(performance.now() - start);
  }
  return latencies;
}
