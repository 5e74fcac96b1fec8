// The ClickHouse store alone, as bench/columnar-duckdb.ts is the embedded one: part (b)'s five columnar
// reports as the server hands them to ClickHouseStore.report, each beside the plain GROUP BY of the same
// clicks (bench/plain-group-by.ts), in turns, on a synthetic store of the same shape, generated inside
// ClickHouse in seconds rather than copied through PostgreSQL and the backfill (about 12 minutes at 10M).
// `CLICKHOUSE_URL=http://127.0.0.1:8123 npx tsx bench/columnar-clickhouse-synthetic.ts [rows]`; the
// database `switchyard_synth_<rows>` is kept and read as it is when it holds `rows` clicks with their codes
// (apps/server/src/columnar/clickhouse-codes.ts), else made again (drop it after another change of the
// tables). Bots are in, as in the plain GROUP BY, unless BENCH_BOTS=out (the reports' default);
// BENCH_ONLY=<part of a title> runs one report. Prints figures, asserts nothing.

import { ClickHouseStore } from '../apps/server/src/columnar/clickhouse.js';
import { ClickHouseClient, parseClickHouseUrl } from '../apps/server/src/columnar/clickhouse-client.js';
import { CODED_COLUMNS, COLUMN_NAMES, codeColumn, literal } from '../apps/server/src/columnar/clickhouse-sql.js';
import { plainClickhouse } from './plain-group-by.js';
import { timeSyntheticReports } from './synthetic-reports.js';

const ROWS = Number(process.argv[2] ?? 10_000_000);
const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 7);
const DAYS = 30;
const now = Date.parse(`${new Date().toISOString().slice(0, 10)}T12:00:00Z`);
const start = now - DAYS * 86_400_000;
const base = process.env.CLICKHOUSE_URL ?? 'http://127.0.0.1:8123';
const database = `switchyard_synth_${ROWS}`;
const url = `${base.replace(/\/+$/, '')}/${database}`;

/** A value drawn from 0…count-1, the first far more often than the last (columnar-duckdb.ts, skewed). */
const skewed = (seed: number, count: number, power: number) =>
  `toInt64(floor(${count} * pow((intHash64(number * 7919 + ${seed}) % 1000003) / 1000003.0, ${power})))`;

const letter = (index: string) => `substring('ABCDEFGHIJKLMNOPQRSTUVWXYZ', ${index} + 1, 1)`;

async function generate(client: ClickHouseClient): Promise<void> {
  await client.execute(`DROP DATABASE IF EXISTS ${database}`, { inDatabase: false });
  await new ClickHouseStore(client).open();
  const began = performance.now();
  const stepMs = Math.floor((DAYS * 86_400_000) / ROWS);
  const drawn = `SELECT number AS i,
      1 + ${skewed(1, 20, 2)} AS campaign, 1 + ${skewed(2, 15, 1.5)} AS offer,
      ${skewed(3, 60, 3)} AS country_index, ${skewed(4, 7, 2)} AS subaff_index, 100 + ${skewed(5, 300, 3)} AS zone,
      ${start} + number * ${stepMs} AS at_ms
    FROM system.numbers WHERE number >= 1 LIMIT ${ROWS}`;
  const values: Record<string, string> = {
    row_key: "concat('c', toString(i))",
    source_id: 'toInt64(i)',
    workspace_id: 'toInt64(1)',
    created_at: 'toDateTime(intDiv(at_ms, 1000))',
    created_ms: 'toUInt16(at_ms % 1000)',
    events: 'toUInt8(1)',
    unique_events: 'toUInt8(intHash64(i) % 10 < 7)',
    cost: '0.002',
    asn: 'toInt64(15169)',
    is_bot: 'toUInt8(0)',
    lp_events: 'toUInt8(0)',
    campaign_external_id: "concat('camp-', toString(campaign))",
    flow_external_id: "'flow-1'",
    path_group_id: "concat('pg-', toString(offer % 10))",
    path_id: "concat('path-', toString(offer % 30))",
    offer_external_id: "concat('offer-', toString(offer))",
    lander_external_id: "concat('lander-', toString(offer % 6))",
    traffic_source_external_id: "'ts-1'",
    country: `if(country_index = 59, NULL, concat(${letter('intDiv(country_index, 26)')}, ${letter('country_index % 26')}))`,
    device: "'mobile'",
    platform: "'Android'",
    browser: "'Chrome'",
    subaff: "if(subaff_index = 6, NULL, concat('sub-', toString(subaff_index)))",
    var1: "concat('z', toString(zone))",
    var2: "concat('creative-', toString(i % 20))",
  };
  // The codes as PostgreSQL would issue them (one sequence over every column), in `codes` before the
  // rows, each row's from its values; the tables marked coded, as a node that made them marks them.
  const [found] = await client.select(
    `SELECT ${CODED_COLUMNS.map((name) => `groupUniqArray(${values[name]}) AS ${name}`).join(', ')} FROM (${drawn})`,
  );
  const dictionary: { code: number; name: string; value: string }[] = [];
  for (const name of CODED_COLUMNS) {
    const held = ((found?.[name] ?? []) as string[]).sort();
    const codes = held.map((value, index) => ({ code: dictionary.length + index + 1, name, value }));
    dictionary.push(...codes);
    const from = held.map(literal).join(', ');
    const to = codes.map((entry) => literal(entry.code)).join(', ');
    values[codeColumn(name)] =
      `if(isNull(${values[name]}), toUInt32(0), toUInt32(transform(assumeNotNull(${values[name]}), [${from}], [${to}], 0)))`;
  }
  await client.insert('codes', ['code', 'name', 'value'], dictionary);
  const names = [...COLUMN_NAMES, ...CODED_COLUMNS.map(codeColumn)].filter((name) => name in values);
  await client.execute(
    `INSERT INTO clicks (${names.join(', ')}) SELECT ${names.map((name) => values[name]).join(', ')} FROM (${drawn})`,
  );
  const coded = CODED_COLUMNS.map(codeColumn).join(', ');
  // One click in a hundred converts an hour later: 70 % approved, 20 % pending, 10 % rejected.
  await client.execute(`INSERT INTO conversions (conversion_id, version, deleted, workspace_id, created_at, created_ms,
      event_at, event_ms, is_conversion, state, payout, asn, is_bot, campaign_external_id, flow_external_id,
      path_group_id, path_id, offer_external_id, lander_external_id, traffic_source_external_id, country, device,
      platform, browser, subaff, var1, var2, ${coded})
    SELECT concat('v', toString(source_id)), toUInt64(1), toUInt8(0), workspace_id, created_at + 3600, created_ms,
      created_at, created_ms, toUInt8(1),
      multiIf(intDiv(source_id, 100) % 10 = 0, 'rejected', intDiv(source_id, 100) % 10 <= 2, 'pending', 'approved'),
      (intHash64(source_id) % 2000) / 100.0, asn, is_bot, campaign_external_id, flow_external_id, path_group_id,
      path_id, offer_external_id, lander_external_id, traffic_source_external_id, country, device, platform, browser,
      subaff, var1, var2, ${coded}
    FROM clicks WHERE source_id % 100 = 0`);
  await new ClickHouseStore(client).setProgress('codes', 1);
  await client.execute('OPTIMIZE TABLE clicks FINAL');
  await client.execute('OPTIMIZE TABLE conversions FINAL');
  console.log(`generated ${ROWS} clicks in ${((performance.now() - began) / 1000).toFixed(1)} s into ${database}`);
}

const client = new ClickHouseClient(parseClickHouseUrl(url));
const held = await client
  .select("SELECT count() AS n, (SELECT count() FROM progress WHERE name = 'codes') AS coded FROM clicks")
  .then((rows) => (Number(rows[0]?.coded ?? 0) > 0 ? Number(rows[0]?.n ?? 0) : 0))
  .catch(() => 0);
if (held !== ROWS) await generate(client);
const store = await new ClickHouseStore(client).open();

await timeSyntheticReports({
  start,
  now,
  runs: RUNS,
  includeBots: process.env.BENCH_BOTS !== 'out',
  only: process.env.BENCH_ONLY,
  report: (paged) => store.report(paged),
  plain: async (report) => Number((await client.select(plainClickhouse(report)))[0]?.groups),
});
