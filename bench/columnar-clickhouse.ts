// Issue 23: the ClickHouse columnar store at size — append speed, then the reports that leave the rollups
// (campaign × offer × country × day, subaff, var1 × country, one campaign by var1), medians of 5, read
// with FINAL (what the store does), without it, and deduplicated by row key in a subquery.
// `npx tsx bench/columnar-clickhouse.ts [rows] [CLICKHOUSE_URL]`; prints figures, asserts nothing.
import { ClickHouseStore } from '../apps/server/src/columnar/clickhouse.js';
import { aggregateQuery } from '../apps/server/src/columnar/clickhouse-sql.js';
import type { ColumnarRow } from '../apps/server/src/columnar/schema.js';
import type { AggregatePlan, PlanCondition } from '../apps/server/src/reports/plan.js';

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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const value = (name: string) => ({ column: { name, origin: false }, as: 'value' as const });
const group = (alias: string, name: string) => ({ alias: `g_${alias}`, value: value(name) });
const range: PlanCondition[] = [
  { kind: 'time', op: '>=', at: new Date(start).toISOString().slice(0, 10).concat('T00:00:00.000Z') },
  { kind: 'time', op: '<', at: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10).concat('T00:00:00.000Z') },
];
const REPORTS: [string, AggregatePlan, string[]][] = [
  [
    'campaign × offer × country × day',
    {
      source: 'clicks',
      time: 'created_at',
      groups: [
        group('campaign', 'campaign_external_id'),
        group('offer', 'offer_external_id'),
        group('country', 'country'),
      ],
      buckets: { grain: 'day', timezone: 'UTC', byHour: false },
      where: range,
    },
    ['campaign_external_id', 'offer_external_id', 'country'],
  ],
  [
    'subaff',
    { source: 'clicks', time: 'created_at', groups: [group('subaff', 'subaff')], buckets: null, where: range },
    ['subaff'],
  ],
  [
    'var1 × country',
    {
      source: 'clicks',
      time: 'created_at',
      groups: [group('var1', 'var1'), group('country', 'country')],
      buckets: null,
      where: range,
    },
    ['var1', 'country'],
  ],
  [
    'one campaign by var1',
    {
      source: 'clicks',
      time: 'created_at',
      groups: [group('var1', 'var1')],
      buckets: null,
      where: [{ kind: 'in', column: { name: 'campaign_external_id', origin: false }, values: ['camp-7'] }, ...range],
    },
    ['campaign_external_id', 'var1'],
  ],
];

const store = await new ClickHouseStore(URL).open();
const existing = Number((await store.client.select('SELECT count() AS n FROM clicks'))[0]?.n);
if (existing !== ROWS) {
  await store.client.execute('TRUNCATE TABLE clicks');
  let generating = 0;
  const began = performance.now();
  // The next batch is generated while the server parses the last one, as a writer would go on taking clicks.
  let inFlight: Promise<void> = Promise.resolve();
  for (let first = 1; first <= ROWS; first += BATCH) {
    const made = performance.now();
    const rows: ColumnarRow[] = [];
    for (let id = first; id < first + BATCH && id <= ROWS; id += 1) rows.push(click(id));
    generating += performance.now() - made;
    await inFlight;
    inFlight = store.append('clicks', rows);
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

const fixedTimeKeys = ['row_key', 'created_at', 'created_ms', 'events', 'unique_events', 'cost'];
for (const [title, plan, columns] of REPORTS) {
  const ways: [string, string][] = [
    ['FINAL', 'clicks FINAL'],
    ['no dedup', 'clicks'],
    ['LIMIT 1 BY row_key', `(SELECT ${[...fixedTimeKeys, ...columns].join(', ')} FROM clicks LIMIT 1 BY row_key)`],
  ];
  const line: string[] = [];
  for (const [way, from] of ways) {
    const { sql } = aggregateQuery(plan, from);
    const times: number[] = [];
    let rows = 0;
    for (let run = 0; run < 5; run += 1) {
      const began = performance.now();
      rows = (await store.client.select(sql)).length;
      times.push(performance.now() - began);
    }
    line.push(`${way} ${Math.round(median(times))} ms (${rows} rows)`);
  }
  console.log(`${title}: ${line.join('; ')}`);
}
