// The embedded store alone: part (b)'s five columnar reports as the server hands them to
// DuckDBStore.report, each beside the plain GROUP BY of the same clicks (bench/plain-group-by.ts), in
// turns, on a synthetic store of part (b)'s shape (20 campaigns, 15 offers, 60 countries, 300 zones, 6
// subaffs, 30 days, one click in a hundred converting, one in a hundred a bot's, a quarter of the offers
// without a lander). No server, no HTTP: what the statement costs over the grouping itself.
// `npx tsx bench/columnar-duckdb.ts [rows] [file]`; a file that already holds `rows` clicks is read as it
// is. Bots are in, as in the plain GROUP BY, unless BENCH_BOTS=out (the reports' default, as part (b)
// reads them); BENCH_ONLY times only the reports whose title holds it. Prints figures, asserts nothing.

import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DuckDBStore } from '../apps/server/src/columnar/duckdb.js';
import { CODED_COLUMNS } from '../apps/server/src/columnar/duckdb-codes.js';
import { plainDuckdb } from './plain-group-by.js';
import { timeSyntheticReports } from './synthetic-reports.js';

const ROWS = Number(process.argv[2] ?? 10_000_000);
const FILE = process.argv[3] ?? path.join(tmpdir(), `switchyard-columnar-${ROWS}-v2.duckdb`);
const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 7);
const DAYS = 30;
const now = Date.parse(`${new Date().toISOString().slice(0, 10)}T12:00:00Z`);
const start = now - DAYS * 86_400_000;

/** A value drawn from 0…count-1, the first far more often than the last (skewed as traffic is). */
const skewed = (seed: number, count: number, power: number) =>
  `cast(floor(${count} * pow((hash(i * 7919 + ${seed}) % 1000003) / 1000003.0, ${power})) as integer)`;

async function generate(): Promise<void> {
  await rm(FILE, { force: true });
  // The tables as the store makes them.
  const store = await DuckDBStore.open(FILE);
  await store.close();
  const instance = await DuckDBInstance.create(FILE);
  const connection = await instance.connect();
  const began = performance.now();
  const span = BigInt(DAYS * 86_400_000) * 1000n;
  await connection.run(`create temp table drawn as select i,
      1 + ${skewed(1, 20, 2)} as campaign,
      1 + ${skewed(2, 15, 1.5)} as offer,
      ${skewed(3, 60, 3)} as country,
      ${skewed(4, 7, 2)} as subaff,
      100 + ${skewed(5, 300, 3)} as zone
    from range(1, ${ROWS + 1}) as t(i)`);
  const country = 'case when country = 59 then null else chr(65 + country // 26) || chr(65 + country % 26) end';
  await connection.run(`insert into clicks by name select
      'c' || i as row_key, i as source_id, 1 as workspace_id,
      make_timestamp(${BigInt(start) * 1000n} + i * ${span / BigInt(ROWS)}) as created_at,
      1 as events, (hash(i) % 10 < 7)::tinyint as unique_events, 0.002 as cost, 15169 as asn, (hash(i * 31) % 100 = 0)::tinyint as is_bot,
      0 as lp_events,
      'camp-' || campaign as campaign_external_id, 'flow-1' as flow_external_id,
      'pg-' || (offer % 10) as path_group_id, 'path-' || (offer % 30) as path_id,
      'offer-' || offer as offer_external_id,
      case when offer % 4 = 0 then null else 'lander-' || (offer % 6) end as lander_external_id,
      'ts-1' as traffic_source_external_id, ${country} as country,
      'mobile' as device, 'Android' as platform, 'Chrome' as browser,
      case when subaff = 6 then null else 'sub-' || subaff end as subaff,
      'z' || zone as var1, 'creative-' || (i % 20) as var2,
      campaign as code_campaign_external_id, 1 as code_flow_external_id,
      1 + offer % 10 as code_path_group_id, 1 + offer % 30 as code_path_id,
      offer as code_offer_external_id,
      case when offer % 4 = 0 then null else 1 + offer % 6 end as code_lander_external_id,
      1 as code_traffic_source_external_id, case when country = 59 then null else 1 + country end as code_country,
      1 as code_device, 1 as code_platform, 1 as code_browser,
      case when offer % 4 = 0 then 0 else 1 end as lander_events
    from drawn`);
  // The dictionaries of those numbers (duckdb-codes.ts).
  const codes: [string, string, string][] = [
    ['campaign_external_id', "'camp-' || n", 'range(1, 21)'],
    ['flow_external_id', "'flow-1'", 'range(1, 2)'],
    ['path_group_id', "'pg-' || (n - 1)", 'range(1, 11)'],
    ['path_id', "'path-' || (n - 1)", 'range(1, 31)'],
    ['offer_external_id', "'offer-' || n", 'range(1, 16)'],
    ['lander_external_id', "'lander-' || (n - 1)", 'range(1, 7)'],
    ['traffic_source_external_id', "'ts-1'", 'range(1, 2)'],
    ['country', 'chr(cast(65 + (n - 1) // 26 as integer)) || chr(cast(65 + (n - 1) % 26 as integer))', 'range(1, 60)'],
    ['device', "'mobile'", 'range(1, 2)'],
    ['platform', "'Android'", 'range(1, 2)'],
    ['browser', "'Chrome'", 'range(1, 2)'],
  ];
  if (codes.length !== CODED_COLUMNS.length) throw new Error('a coded column is missing');
  for (const [name, value, numbers] of codes) {
    await connection.run(`insert into codes select '${name}', ${value}, n from ${numbers} as t(n)`);
  }
  // One click in a hundred converts an hour later: 70 % approved, 20 % pending, 10 % rejected.
  await connection.run(`insert into conversions by name select
      'v' || source_id as conversion_id, workspace_id, created_at + interval 1 hour as created_at,
      created_at as event_at, 1 as is_conversion,
      case when source_id // 100 % 10 = 0 then 'rejected' when source_id // 100 % 10 <= 2 then 'pending' else 'approved' end as state,
      (hash(source_id) % 2000) / 100.0 as payout, asn, is_bot,
      campaign_external_id, flow_external_id, path_group_id, path_id, offer_external_id, lander_external_id,
      traffic_source_external_id, country, device, platform, browser, subaff, var1, var2
    from clicks where source_id % 100 = 0`);
  await connection.run('checkpoint');
  connection.closeSync();
  instance.closeSync();
  console.log(`generated ${ROWS} clicks in ${((performance.now() - began) / 1000).toFixed(1)} s into ${FILE}`);
}

if (!existsSync(FILE)) await generate();
let store = await DuckDBStore.open(FILE);
const held = await store.aggregate({
  source: 'clicks',
  time: 'created_at',
  groups: [],
  buckets: null,
  where: [],
  includeBots: true,
});
if (Number(held[0]?.clicks ?? 0) !== ROWS) {
  await store.close();
  await generate();
  store = await DuckDBStore.open(FILE);
}
// Reaches the store's own connection: the plain GROUP BY runs where the reports run.
const connection = store['connection'];

await timeSyntheticReports({
  start,
  now,
  runs: RUNS,
  // Like the plain GROUP BY it is compared with (every click, bots' too), unless BENCH_BOTS=out (the
  // reports' default, as part (b) asks).
  includeBots: process.env.BENCH_BOTS !== 'out',
  only: process.env.BENCH_ONLY,
  report: (paged) => store.report(paged),
  plain: async (report) => Number((await connection.runAndReadAll(plainDuckdb(report))).getRowObjectsJS()[0]?.groups),
});
await store.close();
