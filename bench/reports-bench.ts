// Part (b) of `npm run bench`: reports on 10 million generated clicks and 100k
// conversions over 30 days. The configuration (a flow of 10 path groups × 3 paths, 15 offers, 6 landers,
// 20 campaigns) is made through the API; the events are generated straight into the server's SQLite
// database while it is stopped (bench/report-data.ts); then the server is started again and each report
// is asked over HTTP, as the dashboard asks it, several times. BENCH_REPORT_CLICKS changes the size.
// The reports are asked again with two custom metrics defined (one sorted by a custom metric),
// conversions have states (approved, pending, rejected: their own columns), and a campaign's cost is set
// over about a million clicks (BENCH_COST_CLICKS), then over one var1 value, each checked in the report.
// BENCH_REPORT_STORE=clickhouse (default duckdb): the server runs on PostgreSQL (DATABASE_URL) with
// ClickHouse (CLICKHOUSE_URL), on databases created for the run and dropped after it; the same events are
// generated into a scratch SQLite file and copied into PostgreSQL (bench/report-data-pg.ts), and the
// reports are timed once the server's ClickHouse backfill is done and ClickHouse has merged its parts.
// BENCH_REBUILD_LOAD=wrk: the click bench's load while the store is rebuilt (bench/rebuild-load.ts).

import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createReportCampaigns } from './click-flow.js';
import { describeRebuildLoad, loadDuringRebuild, rebuildLoadWanted } from './rebuild-load.js';
import { generateEvents } from './report-data.js';
import {
  campaignWorkspaces,
  copyToPostgres,
  createServerDatabases,
  migratedSqlite,
  postgresSum,
  reportStore,
  settledClickHouse,
} from './report-data-pg.js';
import {
  type ColumnarShape,
  clickhousePlain,
  embeddedPlain,
  median,
  type Overhead,
  overheadTargets,
  plainReport,
} from './report-overhead.js';
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
/** A campaign's cost is set over about this many clicks (whole UTC days, the latest first). */
const COST_CLICKS = Number(process.env.BENCH_COST_CLICKS ?? 1_000_000);
/** The var1 value of the per-var cost update: the most common zone. */
const COST_VAR1 = 'z100';
/** Custom metrics: a formula with money and one over the conversion states. */
const CUSTOM_METRICS = [
  { name: 'RPM', formula: 'revenue / clicks * 1000' },
  { name: 'Approval rate', formula: 'approved / conversions' },
];

interface ReportFigures {
  clicks: number;
  conversions: number;
  approved: number;
  pending: number;
  rejected: number;
  revenue: number;
  cost: number;
  [metric: string]: number;
}

interface ReportAnswer {
  totals: ReportFigures;
  total: number;
  list: Record<string, string | number | null>[];
}

/** A long request (a cost update over a million clicks) over node:http: fetch gives up after 300 s. */
function postJson(
  base: string,
  token: string,
  route: string,
  body: unknown,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${base}${route}`,
      { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

export async function reportsBench(children: Child[], cleanups: (() => Promise<unknown>)[]): Promise<TargetRow[]> {
  console.log(
    `\nPart (b), reports: ${int(CLICKS)} clicks and ${int(CONVERSIONS)} conversions over ${DAYS} days, ` +
      `${CAMPAIGNS} campaigns; each report timed ${RUNS} times over HTTP after one warm-up and one run beside clicks\n`,
  );
  const store = reportStore();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-bench-reports-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // BENCH_REPORT_STORE=clickhouse: PostgreSQL and ClickHouse databases of the run's own. ClickHouse is
  // left out of the configuring server: it would record an empty PostgreSQL as all there is to copy.
  const databases = store === 'clickhouse' ? await createServerDatabases(cleanups) : null;
  const serverEnv: NodeJS.ProcessEnv = databases ? { DATABASE_URL: databases.databaseUrl } : {};
  console.log(`store: ${databases ? databases.label : 'DuckDB (SQLite)'}`);

  // 1. Configuration through the API.
  let server = await startSwitchyard(dataDir, [], serverEnv);
  children.push(server.child);
  const post = (route: string, body: Record<string, unknown>) => api(server.base, server.token, 'POST', route, body);
  const { flow, campaigns } = await createReportCampaigns({ post }, CAMPAIGNS);
  await stopChild(server.child);

  // 2. The events, straight into the database (for PostgreSQL, into a scratch SQLite file copied to it).
  const generatedDir = path.join(dataDir, 'generated');
  const eventsFile = databases ? await migratedSqlite(generatedDir) : path.join(dataDir, 'switchyard.db');
  // PostgreSQL: the campaigns' workspaces from there (the scratch file has no configuration).
  const workspaces = databases ? await campaignWorkspaces(databases.databaseUrl) : new Map<string, number>();
  const started = performance.now();
  let lastPrinted = 0;
  const generated = generateEvents(
    eventsFile,
    {
      campaigns: campaigns.map((campaign) => ({
        ...campaign,
        trafficSourceExternalId: flow.trafficSourceExternalId,
        flowExternalId: flow.flowExternalId,
        ...(workspaces.has(campaign.externalId) ? { workspaceId: workspaces.get(campaign.externalId) } : {}),
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

  console.log(
    `generated conversions: approved ${int(generated.states.approved)}, pending ${int(generated.states.pending)}, ` +
      `rejected ${int(generated.states.rejected)}; revenue (not rejected) ${generated.revenue.toFixed(2)}, ` +
      `confirmed ${generated.revenueConfirmed.toFixed(2)}; in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  // The bench campaign's workspace, which every generated click of it carries: the plain GROUP BY reads it.
  const workspaceDb = new Database(eventsFile, { readonly: true });
  const workspace = Number(
    (
      workspaceDb
        .prepare('select workspace_id from tracker_clicks where campaign_external_id = ? limit 1')
        .get(flow.campaignExternalId) as { workspace_id: number | null } | undefined
    )?.workspace_id ?? 0,
  );
  workspaceDb.close();
  if (databases) {
    const copyStart = performance.now();
    const copied = await copyToPostgres(eventsFile, databases.databaseUrl, (table, rows) => {
      if (rows % 1_000_000 === 0) console.log(`copied ${int(rows)} rows of ${table} to PostgreSQL`);
    });
    console.log(
      `copied to PostgreSQL in ${((performance.now() - copyStart) / 1000).toFixed(1)} s: ${Object.entries(copied)
        .map(([table, { rows, seconds }]) => `${table} ${int(rows)} rows (${seconds.toFixed(1)} s)`)
        .join(', ')}`,
    );
    await rm(generatedDir, { recursive: true, force: true });
  }

  // 3. The reports, from the running server (its info lines say when the columnar store has caught up).
  server = await startSwitchyard(dataDir, [], {
    ...serverEnv,
    ...(databases ? { CLICKHOUSE_URL: databases.clickhouseUrl } : {}),
    LOG_LEVEL: 'info',
  });
  children.push(server.child);
  // The columnar store is empty (the events were written straight into the database): the
  // server copies them at start while answering clicks. Timed from the server's first answer.
  const rebuilding = waitForLog(
    server.child,
    databases ? /ClickHouse: holds every event \(checked in ([\d.]+) s\)/ : /columnar store: caught up in ([\d.]+) s/,
    3_600_000,
  );
  const what = databases ? 'ClickHouse backfilled' : 'columnar store rebuilt';
  if (rebuildLoadWanted()) {
    const load = await loadDuringRebuild(server.base, flow.campaignExternalId, dataDir, rebuilding);
    console.log(
      `${what} from ${int(CLICKS)} clicks in ${(await rebuilding)[1]} s by its own log, under the click bench's load\n` +
        describeRebuildLoad(load),
    );
  } else {
    const rebuildStart = performance.now();
    const duringRebuild = (await probeClicks(server.base, flow.campaignExternalId, rebuilding)).sort((a, b) => a - b);
    const rebuildSeconds = (performance.now() - rebuildStart) / 1000;
    console.log(
      `${what} from ${int(CLICKS)} clicks in ${rebuildSeconds.toFixed(1)} s after the server answered ` +
        `(${(await rebuilding)[1]} s by its own log); clicks sent one after another meanwhile: ${int(duringRebuild.length)}, ` +
        `p50 ${ms(duringRebuild[Math.floor(duringRebuild.length / 2)] ?? Number.NaN)}, ` +
        `p99 ${ms(duringRebuild[Math.min(duringRebuild.length - 1, Math.ceil(duringRebuild.length * 0.99) - 1)] ?? Number.NaN)}, ` +
        `max ${ms(duringRebuild.at(-1) ?? Number.NaN)}`,
    );
  }
  if (databases) {
    const settled = await settledClickHouse(databases.clickhouseUrl);
    console.log(
      `ClickHouse merged the backfill's parts ${settled.seconds.toFixed(1)} s later (${int(settled.parts)} active parts of clicks); reports are timed from here`,
    );
  }
  const getReport = async (query: string): Promise<ReportAnswer> => {
    const response = await fetch(`${server.base}/api/reports?${query}`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    const text = await response.text();
    if (response.status !== 200) throw new BenchFailure(`report ${query}: ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as ReportAnswer;
  };
  const today = new Date();
  const from = new Date(today.getTime() - DAYS * 86_400_000).toISOString().slice(0, 10);
  const to = today.toISOString().slice(0, 10);
  const campaignFilter = `filters=${encodeURIComponent(JSON.stringify({ campaign: flow.campaignExternalId }))}`;
  const reports: { label: string; query: string; target: boolean; columnar?: ColumnarShape }[] = [
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
    // Beyond any rollup cube, read from the columnar store (DuckDB or ClickHouse); targets too.
    // Each also beside the plain GROUP BY of its clicks (bench/report-overhead.ts).
    ...(
      [
        ['by campaign, offer, country, day (columnar)', 'group_by=campaign,offer,country,day'],
        ['by subaff (columnar)', 'group_by=subaff'],
        ['by var1, country (columnar)', 'group_by=var1,country'],
        ['one campaign by var1 (columnar)', `group_by=var1&${campaignFilter}`, flow.campaignExternalId],
        ['by subaff, day, America/New_York (columnar)', 'group_by=subaff,day'],
      ] as [string, string, string?][]
    ).map(([label, groups, campaign]) => {
      const timezone = label.includes('New_York') ? 'America/New_York' : 'UTC';
      const shape: ColumnarShape = {
        label,
        groups: groups.split('&')[0]!.slice('group_by='.length).split(',') as ColumnarShape['groups'],
        ...(campaign ? { campaign } : {}),
        timezone,
      };
      return {
        label,
        query: `${groups}&date_from=${from}&date_to=${to}&timezone=${timezone}`,
        target: true,
        columnar: shape,
      };
    }),
  ];
  // Other work on the machine moves these figures a lot: say how busy it was.
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(2))
      .join(' / ');
  console.log(`load average (1 / 5 / 15 min) before the reports: ${load()}`);
  const rows: string[][] = [];
  const targets: TargetRow[] = [];
  const probes: string[][] = [];

  // The workspace's custom metrics, defined (POST) or removed (DELETE) between two runs, so that
  // a report is measured with and without them in alternation, under the same load. Their keys stay.
  const metricIds: number[] = [];
  const metricKeys: string[] = [];
  const defineMetrics = async (on: boolean) => {
    if (on && metricIds.length === 0) {
      for (const metric of CUSTOM_METRICS) {
        const saved = await api(server.base, server.token, 'POST', '/api/report-metrics', metric);
        metricIds.push(Number(saved.id));
        if (metricKeys.length < CUSTOM_METRICS.length) metricKeys.push(String(saved.key));
      }
    } else if (!on) {
      for (const id of metricIds.splice(0)) {
        const response = await fetch(`${server.base}/api/report-metrics/${id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${server.token}` },
        });
        if (response.status !== 204) throw new BenchFailure(`DELETE /api/report-metrics/${id}: ${response.status}`);
      }
    }
  };
  type Report = { label: string; query: string; target: boolean; metrics: boolean; columnar?: ColumnarShape };
  // With ClickHouse, the plain GROUP BY of each columnar report is sent by the bench before each
  // run of the report (DuckDB's is timed once the server has stopped, below).
  const plainOnClickHouse = databases ? clickhousePlain(databases.clickhouseUrl, databases.databaseUrl) : null;
  const overheads: Overhead[] = [];
  /**
   * Each variant asked in turn, run after run: one warm-up, then one with clicks sent meanwhile (a
   * columnar report's), then RUNS timed. The run beside the clicks is not timed: the plain GROUP BY it
   * is compared with runs without them.
   */
  const measure = async (variants: Report[]) => {
    const times = variants.map(() => [] as number[]);
    const plainTimes = variants.map(() => [] as number[]);
    const plainGroups = variants.map(() => 0);
    const statementTimes = variants.map(() => [] as number[]);
    const totals: (ReportFigures | undefined)[] = variants.map(() => undefined);
    for (let run = 0; run <= RUNS + 1; run += 1) {
      const timed = run > 1;
      for (const [index, report] of variants.entries()) {
        await defineMetrics(report.metrics);
        if (report.columnar && plainOnClickHouse) {
          const plain = await plainOnClickHouse(report.columnar, plainReport(report.columnar, from, to, workspace));
          if (timed) {
            plainTimes[index]?.push(plain.elapsed);
            statementTimes[index]?.push(plain.statement);
          }
          plainGroups[index] = plain.groups;
        }
        const start = performance.now();
        const answer = fetch(`${server.base}/api/reports?${report.query}`, {
          headers: { authorization: `Bearer ${server.token}` },
        });
        // While a report beyond the cubes reads the events, clicks must still be answered at once.
        const probe = report.columnar && run === 1 ? probeClicks(server.base, flow.campaignExternalId, answer) : null;
        const response = await answer;
        const body = (await response.json()) as ReportAnswer;
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
        if (timed) times[index]?.push(elapsed);
        totals[index] = body.totals;
      }
    }
    for (const [index, report] of variants.entries()) {
      const own = times[index] ?? [];
      const figures = totals[index];
      const middle = median(own);
      console.log(`${report.label}: median ${ms(middle)} of ${own.length}`);
      rows.push([
        report.label,
        ms(middle),
        ms(Math.min(...own)),
        ms(Math.max(...own)),
        int(figures?.clicks ?? 0),
        int(figures?.conversions ?? 0),
        int(figures?.approved ?? 0),
        int(figures?.pending ?? 0),
        int(figures?.rejected ?? 0),
        (figures?.revenue ?? 0).toFixed(2),
        ...CUSTOM_METRICS.map((_, column) => {
          const value = figures?.[metricKeys[column] ?? ''];
          return value === undefined ? '—' : value.toFixed(4);
        }),
      ]);
      if (report.columnar) {
        const plain = plainTimes[index] ?? [];
        const statement = statementTimes[index] ?? [];
        overheads.push({
          label: report.label,
          server: middle,
          statement: statement.length > 0 ? median(statement) : null,
          plain: plain.length > 0 ? median(plain) : Number.NaN,
          groups: plainGroups[index] ?? 0,
        });
      }
      // The 500 ms bar stays for the embedded store; ClickHouse's is its plain GROUP BY's (below).
      if (report.target && !(report.columnar && store === 'clickhouse')) {
        targets.push([
          `report ${report.label} < ${TARGET_MEDIAN_MS} ms median`,
          ms(middle),
          verdict(middle < TARGET_MEDIAN_MS),
        ]);
      }
    }
  };

  // The reports of the cubes, each without and with the two custom metrics in alternation ([cm]: every row
  // and the totals carry them).
  for (const report of reports.filter((candidate) => candidate.target && !candidate.columnar)) {
    await measure([
      { ...report, metrics: false },
      { ...report, label: `${report.label} [cm]`, metrics: true },
    ]);
  }
  await defineMetrics(true);
  const [rpmKey = 'cm_rpm', approvalKey = 'cm_approval_rate'] = metricKeys;
  console.log(
    `custom metrics: ${CUSTOM_METRICS.map((metric, index) => `${metricKeys[index]} = ${metric.formula}`).join('; ')}`,
  );
  // Sorted by a custom metric.
  const sortedReports: Report[] = [
    {
      label: `by campaign, sorted by ${rpmKey} desc [cm]`,
      query: `group_by=campaign&date_from=${from}&date_to=${to}&timezone=UTC&order_by=${rpmKey}&order=desc`,
      target: true,
      metrics: true,
    },
    {
      label: `by offer, sorted by ${approvalKey} desc [cm]`,
      query: `group_by=offer&date_from=${from}&date_to=${to}&timezone=UTC&order_by=${approvalKey}&order=desc`,
      target: true,
      metrics: true,
    },
    {
      label: `by campaign, day, sorted by ${rpmKey} desc [cm]`,
      query: `group_by=campaign,day&date_from=${from}&date_to=${to}&timezone=UTC&order_by=${rpmKey}&order=desc`,
      target: true,
      metrics: true,
    },
  ];
  for (const report of sortedReports) await measure([report]);
  const sorted = await getReport(sortedReports[0]?.query ?? '');
  const rpms = sorted.list.map((row) => Number(row[rpmKey]));
  const inOrder = rpms.every((value, index) => index === 0 || (rpms[index - 1] as number) >= value);
  console.log(
    `sorted by ${rpmKey} desc: ${inOrder ? 'in order' : 'NOT in order'} (${rpms
      .slice(0, 3)
      .map((value) => value.toFixed(2))
      .join(', ')}, …)`,
  );
  console.log(`load average (1 / 5 / 15 min) after the reports of the cubes: ${load()}`);
  // Beyond the cubes: the columnar store (without custom metrics, which are computed after the read).
  for (const report of reports.filter((candidate) => candidate.columnar))
    await measure([{ ...report, metrics: false }]);
  if (!databases) {
    // DuckDB: the server holds the store's file, so its plain GROUP BYs are timed with the server stopped,
    // and the server started again for the cost updates.
    await stopChild(server.child);
    const shapes = reports.flatMap((report) =>
      report.columnar ? [{ shape: report.columnar, report: plainReport(report.columnar, from, to, workspace) }] : [],
    );
    console.log(`load average (1 / 5 / 15 min) before the plain GROUP BYs: ${load()}`);
    const alone = await embeddedPlain(
      path.join(dataDir, 'switchyard.columnar.duckdb'),
      path.join(dataDir, 'switchyard.db'),
      shapes,
      RUNS,
    );
    for (const [index, entry] of alone.entries()) {
      const overhead = overheads[index];
      if (!overhead) continue;
      overhead.statement = entry.statement;
      overhead.plain = entry.plain;
      overhead.groups = entry.groups;
    }
    server = await startSwitchyard(dataDir, [], { ...serverEnv, LOG_LEVEL: 'info' });
    children.push(server.child);
    await waitForLog(server.child, /columnar store: caught up in ([\d.]+) s/, 600_000);
  }
  targets.push(...overheadTargets(databases ? 'ClickHouse' : 'DuckDB', overheads));

  console.log(
    table(
      [
        'report (last 30 days + today, limit 40; [cm]: custom metrics defined)',
        'median',
        'min',
        'max',
        'clicks',
        'conversions',
        'approved',
        'pending',
        'rejected',
        'revenue',
        ...CUSTOM_METRICS.map((metric, index) => metricKeys[index] ?? metric.name),
      ],
      rows,
    ),
  );
  console.log(
    `(generated: conversions ${int(generated.states.approved + generated.states.pending)} = approved ` +
      `${int(generated.states.approved)} + pending ${int(generated.states.pending)}; rejected ` +
      `${int(generated.states.rejected)}; revenue ${generated.revenue.toFixed(2)})`,
  );
  console.log(
    `\nClicks sent one after another while each report of the columnar store ran (its totals include them):\n${table(
      ['during report', 'clicks', 'p50', 'p99', 'max'],
      probes,
    )}`,
  );

  // 4. A campaign's cost set over about COST_CLICKS clicks, then over one var1 value.
  const cost = await costUpdates(server.base, server.token, flow.campaignExternalId, campaignFilter, getReport, to);
  targets.push(...cost.targets);
  await stopChild(server.child);
  if (cost.range) {
    // What the events themselves say, the server stopped (the campaign report above reads the cubes).
    const sum = async (extra: string, ...values: string[]) => {
      const query = `select coalesce(sum(cost), 0) as cost from tracker_clicks where campaign_external_id = ? and created_at >= ? and created_at < ?${extra}`;
      const parameters = [flow.campaignExternalId, cost.range?.from, cost.range?.to, ...values];
      if (databases) return postgresSum(databases.databaseUrl, query, parameters);
      const db = new Database(path.join(dataDir, 'switchyard.db'), { readonly: true });
      try {
        return (db.prepare(query).get(...parameters) as { cost: number }).cost;
      } finally {
        db.close();
      }
    };
    console.log(
      `the events after both updates: campaign ${(await sum('')).toFixed(6)} (expected ${cost.range.expected.toFixed(2)}), ` +
        `var1 = ${COST_VAR1} ${(await sum(' and var1 = ?', COST_VAR1)).toFixed(6)} (expected ${cost.range.varAmount.toFixed(2)})`,
    );
  }
  return targets;
}

/** Equal to the cent: costs are stored to the millionth and summed as doubles. */
const sameAmount = (value: number, expected: number) => Math.abs(value - expected) < 0.005;

/**
 * Sets the cost of the bench campaign over the latest whole UTC days holding about COST_CLICKS of
 * its clicks (POST /api/tracker/campaigns/{id}/costs, which runs costs/service.ts updateCampaignCost), then
 * of its var1 = COST_VAR1 clicks in the same days; times each and checks the report shows the amounts.
 * Never throws for a wrong figure: it prints FAIL.
 */
async function costUpdates(
  base: string,
  token: string,
  campaign: string,
  campaignFilter: string,
  getReport: (query: string) => Promise<ReportAnswer>,
  today: string,
): Promise<{ targets: TargetRow[]; range: { from: string; to: string; expected: number; varAmount: number } | null }> {
  const targets: TargetRow[] = [];
  const byDay = await getReport(`group_by=day&timezone=UTC&limit=0&order_by=day&order=desc&${campaignFilter}`);
  const days = byDay.list
    .map((row) => ({ day: String(row.day), clicks: Number(row.clicks) }))
    .filter((row) => row.day < today)
    .sort((a, b) => (a.day < b.day ? 1 : -1));
  let clicks = 0;
  let start = '';
  for (const row of days) {
    if (clicks >= COST_CLICKS) break;
    clicks += row.clicks;
    start = row.day;
  }
  const end = days[0]?.day ?? '';
  if (!start || !end) {
    console.log('cost update: FAIL (the campaign has no clicks before today)');
    return { targets: [['cost update: report shows the amount', 'no clicks', 'FAIL']], range: null };
  }
  const amount = 12_345.67;
  const varAmount = 1_234.56;
  const rangeQuery = `date_from=${start}&date_to=${end}&timezone=UTC&${campaignFilter}`;
  const varQuery = `${rangeQuery}&vars=${encodeURIComponent(JSON.stringify({ var1: COST_VAR1 }))}`;
  console.log(
    `\nCost update: campaign ${campaign}, ${start} … ${end} (UTC), ${int(clicks)} clicks; then its ` +
      `var1 = ${COST_VAR1} clicks in the same days`,
  );
  const update = async (label: string, body: Record<string, unknown>) => {
    const started = performance.now();
    const answering = postJson(base, token, `/api/tracker/campaigns/${campaign}/costs`, body);
    // Clicks (today's: outside the range) sent one after another meanwhile: does the update hold them up?
    const probing = probeClicks(base, campaign, answering).catch((error: unknown) => {
      console.log(`a click during the cost update failed: ${error instanceof Error ? error.message : String(error)}`);
      return [] as number[];
    });
    const answer = await answering;
    const elapsed = performance.now() - started;
    const latencies = (await probing).sort((a, b) => a - b);
    console.log(
      `${label}: clicks sent meanwhile ${int(latencies.length)}, p50 ${ms(latencies[Math.floor(latencies.length / 2)] ?? Number.NaN)}, ` +
        `p99 ${ms(latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.99) - 1)] ?? Number.NaN)}, ` +
        `max ${ms(latencies.at(-1) ?? Number.NaN)}`,
    );
    if (answer.status !== 200) {
      console.log(`${label}: answered ${answer.status} after ${ms(elapsed)}: ${answer.text.slice(0, 300)}`);
      return { elapsed, changed: Number.NaN };
    }
    const changed = Number((JSON.parse(answer.text) as { clicks: number }).clicks);
    console.log(
      `${label}: ${int(changed)} clicks in ${ms(elapsed)} (${((elapsed * 1000) / changed).toFixed(2)} µs a click)`,
    );
    return { elapsed, changed };
  };
  const check = (label: string, shown: number, expected: number) => {
    const ok = sameAmount(shown, expected);
    console.log(
      `${label}: report shows ${shown.toFixed(6)}, expected ${expected.toFixed(6)} ` +
        `(difference ${(shown - expected).toExponential(2)}): ${ok ? 'PASS' : 'FAIL'}`,
    );
    targets.push([`${label}: report shows the amount`, shown.toFixed(2), ok ? 'PASS' : 'FAIL']);
    return ok;
  };
  try {
    const whole = await update('cost update, whole campaign', {
      start,
      end,
      timezone: 'UTC',
      amount,
      filter: {},
    });
    if (whole.changed !== clicks) {
      console.log(`cost update changed ${int(whole.changed)} clicks, the report counts ${int(clicks)}: FAIL`);
    }
    targets.push([
      `cost update, ${int(whole.changed)} clicks`,
      ms(whole.elapsed),
      whole.changed === clicks ? 'PASS' : 'FAIL',
    ]);
    const afterWhole = await getReport(`group_by=campaign&${rangeQuery}`);
    check('after the campaign update, the campaign', afterWhole.totals.cost, amount);

    const varBefore = await getReport(`group_by=campaign&${varQuery}`);
    const perVar = await update(`cost update, var1 = ${COST_VAR1}`, {
      start,
      end,
      timezone: 'UTC',
      amount: varAmount,
      filter: { var1: COST_VAR1 },
    });
    targets.push([
      `cost update var1 = ${COST_VAR1}, ${int(perVar.changed)} clicks`,
      ms(perVar.elapsed),
      perVar.changed === varBefore.totals.clicks ? 'PASS' : 'FAIL',
    ]);
    const varAfter = await getReport(`group_by=campaign&${varQuery}`);
    check(`after the var1 update, var1 = ${COST_VAR1}`, varAfter.totals.cost, varAmount);
    const expected = amount - varBefore.totals.cost + varAmount;
    const wholeAfter = await getReport(`group_by=campaign&${rangeQuery}`);
    check('after the var1 update, the campaign', wholeAfter.totals.cost, expected);
    return { targets, range: { from: `${start}T00:00:00.000Z`, to: nextDayIso(end), expected, varAmount } };
  } catch (error) {
    if (error instanceof BenchFailure) throw error;
    console.log(`cost update: FAIL (${error instanceof Error ? error.message : String(error)})`);
    targets.push(['cost update', 'error', 'FAIL']);
    return { targets, range: null };
  }
}

/** The start of the UTC day after `day` (YYYY-MM-DD), as stored times are written. */
function nextDayIso(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();
}

/** Sends clicks one after another until `until` settles; answers each one's latency. */
/** The first line of the child's output matching `pattern`, waited for at most `timeoutMs`. */
async function waitForLog(child: Child, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const line of child.output) {
      const found = line.match(pattern);
      if (found) return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new BenchFailure(`${child.name} did not log ${pattern} within ${timeoutMs / 1000} s`);
}

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
