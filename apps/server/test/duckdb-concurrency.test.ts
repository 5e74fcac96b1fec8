import { afterAll, beforeAll, expect, it } from 'vitest';
import { DuckDBStore } from '../src/columnar/duckdb.js';
import type { ReportRange } from '../src/reports/report-plans.js';
import { planOf } from '../src/reports/report-plans.js';
import { generateRows } from './fixtures/columnar-rows.js';

// The embedded columnar store is read by reports while its follower appends what the event tables
// gained (a report's catch-up, or another report's). On one DuckDB connection, an append while a read
// was still running closed the read's pending result, and the report answered 500 ("Attempting to
// execute an unsuccessful or closed pending query result"). Reads and writes must never share one.

const ROWS = 150_000;
const ROUNDS = 40;

let store: DuckDBStore;
const rows = generateRows({ clicks: ROWS, leads: 10 });

beforeAll(async () => {
  store = await DuckDBStore.open(':memory:');
  await store.append('clicks', rows.clicks);
}, 120_000);

afterAll(async () => {
  await store?.close();
});

it('reads while rows are appended, and several reads at once, without a closed pending result', async () => {
  const narrowing = {
    vars: {},
    filters: {},
    config: Promise.resolve({ names: new Map(), pathGroups: new Map(), paths: new Map(), offerNetworks: new Map() }),
    workspace: null,
  };
  const range: ReportRange = { from: null, to: null, timezone: 'UTC', attribution: 'click', includeBots: true };
  const plan = await planOf('clicks', ['subaff', 'country'], range, narrowing);
  const clicksIn = async () => (await store.aggregate(plan)).reduce((sum, row) => sum + Number(row.clicks), 0);
  const before = await clicksIn();
  expect(before).toBeGreaterThan(0);
  const failures: string[] = [];
  let appended = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const reads = [store.aggregate(plan), store.aggregate(plan)].map((read) =>
      read.then(
        (result) => result.reduce((sum, row) => sum + Number(row.clicks), 0),
        (error: unknown) => {
          failures.push(`read: ${String(error)}`);
          return -1;
        },
      ),
    );
    // The append starts while the reads run (a read of this many rows takes milliseconds).
    await new Promise((resolve) => setTimeout(resolve, 2));
    const batch = rows.clicks.slice(round * 50, round * 50 + 50);
    await store.append('clicks', batch).then(
      () => {
        appended += batch.reduce((sum, row) => sum + row.events, 0);
      },
      (error: unknown) => failures.push(`append: ${String(error)}`),
    );
    await Promise.all(reads);
  }
  expect(failures).toEqual([]);
  expect(await clicksIn()).toBe(before + appended);
}, 180_000);
