// The ClickHouse columnar store at size — append speed, then the five columnar reports of
// `npm run bench` (b) as the server asks them: the same plans (reports/report-plans.ts, planOf, kept to
// the acting workspace by its workspace_id) and the whole-report statement (ClickHouseStore.report), medians of 5.
// The clicks carry conversions (one in a hundred) so that the merge of the three tables is timed too.
// `npx tsx bench/columnar-clickhouse.ts [rows] [CLICKHOUSE_URL]`; prints figures, asserts nothing. A
// database that already holds `rows` clicks is read as it is (the append is timed once).

import type { ReportGroup } from '@switchyard/domain';
import { ClickHouseStore } from '../apps/server/src/columnar/clickhouse.js';
import { secondsAndMs } from '../apps/server/src/columnar/clickhouse-sql.js';
import type { ColumnarRow } from '../apps/server/src/columnar/schema.js';
import { startOfLocalDay } from '../apps/server/src/report-plan/time.js';
import type { ConfigNames, ReportRange } from '../apps/server/src/reports/report-plans.js';
import { firstPagePlan } from './plain-group-by.js';

const ROWS = Number(process.argv[2] ?? 10_000_000);
const URL = process.argv[3] ?? 'http://default:@127.0.0.1:8123/switchyard_bench';
const BATCH = 100_000;
const DAYS = 30;

let state = 2026;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** Skewed as traffic is: the first values far more often than the last. */
function zipf<T>(values: readonly T[], exponent: number): () => T {
  const weights = values.map((_, index) => 1 / (index + 1) ** exponent);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let running = 0;
  const cumulative = weights.map((weight) => (running += weight / total));
  return () => {
    const draw = random();
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] as number) < draw) low = middle + 1;
      else high = middle;
    }
    return values[low] as T;
  };
}

const names = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}${index + 1}`);
const campaign = zipf(names('camp-', 40), 0.9);
// Each campaign sends to its own few offers, as its flow's paths do.
const offerOf = (campaignId: string) => `offer-${Number(campaignId.slice(5)) * 3 + Math.floor(random() * 3)}`;
const country = zipf(['US', 'DE', 'GB', 'FR', 'BR', 'IN', 'ID', 'MX', 'ES', 'IT', ...names('X', 40)], 1.2);
const subaff = zipf(['push-1', 'push-22', 'pop-3', 'native-7', 'push-9', null], 0.8);
const zone = zipf(
  Array.from({ length: 300 }, (_, index) => `z${index + 100}`),
  1,
);
const device = zipf(['mobile', 'desktop', 'tablet'], 1);
const browser = zipf(['Chrome', 'Safari', 'Samsung Internet', 'Firefox', 'Edge', 'Opera'], 1.3);

const start = Date.now() - DAYS * 86_400_000;

function click(id: number): ColumnarRow {
  const chosen = campaign();
  // Every field written out: spreading a template of nulls costs more than the rest of the row.
  return {
    row_key: `c${id}`,
    source_id: id,
    workspace_id: 1,
    // In the order the writer sends them: time grows with the id.
    created_at: new Date(start + Math.floor((id / ROWS) * DAYS * 86_400_000)).toISOString(),
    events: 1,
    unique_events: random() < 0.7 ? 1 : 0,
    cost: 0.002,
    asn: random() < 0.9 ? 15169 : null,
    is_bot: random() < 0.05 ? 1 : 0,
    lp_events: 0,
    campaign_external_id: chosen,
    offer_external_id: offerOf(chosen),
    country: country(),
    subaff: subaff(),
    var1: zone(),
    var2: `creative-${Math.floor(random() * 20)}`,
    device: device(),
    platform: 'Android',
    browser: browser(),
    flow_external_id: 'flow-1',
    path_id: `path-${Math.floor(random() * 4)}`,
    traffic_source_external_id: 'ts-1',
    path_group_id: null,
    lander_external_id: null,
    var3: null,
    var4: null,
    var5: null,
    var6: null,
    var7: null,
    var8: null,
    var9: null,
    var10: null,
    region: null,
    city: null,
    isp: null,
    language: null,
    referrer_domain: null,
    bot_reason: null,
  };
}

/** One click in CONVERTING converts, an hour later: approved, pending or rejected as 7 : 2 : 1. */
const CONVERTING = 100;
function conversion(row: ColumnarRow): Record<string, unknown> {
  const [seconds, ms] = secondsAndMs(row.created_at) as [number, number];
  const draw = random();
  const { row_key: _key, source_id: _id, events: _events, unique_events: _unique, cost: _cost, ...columns } = row;
  return {
    ...columns,
    conversion_id: `v${row.source_id}`,
    version: row.source_id,
    deleted: 0,
    created_at: seconds + 3600,
    created_ms: ms,
    event_at: seconds,
    event_ms: ms,
    is_conversion: 1,
    state: draw < 0.7 ? 'approved' : draw < 0.9 ? 'pending' : 'rejected',
    payout: Math.round(random() * 2000) / 100,
    affiliate_network_external_id: null,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const store = await new ClickHouseStore(URL).open();
const existing = Number((await store.client.select('SELECT count() AS n FROM clicks'))[0]?.n);
if (existing !== ROWS) {
  await store.client.execute('TRUNCATE TABLE clicks');
  await store.client.execute('TRUNCATE TABLE conversions');
  let generating = 0;
  const began = performance.now();
  // The next batch is generated while the server parses the last one, as a writer would go on taking clicks.
  let inFlight: Promise<void> = Promise.resolve();
  for (let first = 1; first <= ROWS; first += BATCH) {
    const made = performance.now();
    const rows: ColumnarRow[] = [];
    for (let id = first; id < first + BATCH && id <= ROWS; id += 1) rows.push(click(id));
    const converted = rows.filter((row) => row.source_id % CONVERTING === 0).map(conversion);
    generating += performance.now() - made;
    await inFlight;
    inFlight = store.append('clicks', rows).then(() => store.appendConversions(converted));
  }
  await inFlight;
  const total = (performance.now() - began) / 1000;
  console.log(
    `appended ${ROWS} clicks in batches of ${BATCH}: ${total.toFixed(1)} s (${Math.round(ROWS / total)} rows/s), of which ${(generating / 1000).toFixed(1)} s generating them`,
  );
}
const [parts] = await store.client.select(
  "SELECT count() AS parts, sum(rows) AS rows, sum(bytes) AS bytes FROM system.parts WHERE database = currentDatabase() AND table = 'clicks' AND active",
);
console.log(`parts: ${JSON.stringify(parts)}`);

// The five columnar reports of part (b), as service.ts hands them to the store: every plan kept to the
// workspace by its workspace_id, the range as local midnights, the first group's order, a page of 40.
const campaigns = names('camp-', 40);
const campaignNames = new Map(campaigns.map((id) => [id, `Campaign ${id.slice(5)}`]));
const config: ConfigNames = {
  names: new Map([['campaign', campaignNames]]),
  pathGroups: new Map(),
  paths: new Map(),
  offerNetworks: new Map(),
};
const day = (at: number) => new Date(at).toISOString().slice(0, 10);
const REPORTS: [string, ReportGroup[], Record<string, string>][] = [
  ['campaign × offer × country × day', ['campaign', 'offer', 'country', 'day'], {}],
  ['by subaff', ['subaff'], {}],
  ['var1 × country', ['var1', 'country'], {}],
  ['one campaign by var1', ['var1'], { campaign: 'camp-1' }],
  ['subaff × day, America/New_York', ['subaff', 'day'], {}],
];
for (const [title, groups, filters] of REPORTS) {
  const timezone = title.includes('New_York') ? 'America/New_York' : 'UTC';
  const range: ReportRange = {
    from: startOfLocalDay(day(start), timezone).toISOString(),
    to: startOfLocalDay(day(Date.now() + 86_400_000), timezone).toISOString(),
    timezone,
    attribution: 'postback',
    // Like the plain GROUP BY it is compared with: every click, bots' too.
    includeBots: true,
  };
  const narrowing = { vars: {}, filters, config: Promise.resolve(config), workspace: 1 };
  const paged = await firstPagePlan(groups, range, narrowing, config.names);
  const times: number[] = [];
  let answer = await store.report(paged);
  for (let run = 0; run < 5; run += 1) {
    const began = performance.now();
    answer = await store.report(paged);
    times.push(performance.now() - began);
  }
  const sorted = times.map((time) => Math.round(time)).sort((a, b) => a - b);
  console.log(
    `${title}: median ${median(times).toFixed(0)} ms (${sorted.join(', ')}); ${answer.total} rows, ` +
      `${answer.totals.clicks} clicks, ${answer.totals.conversions} conversions`,
  );
}
