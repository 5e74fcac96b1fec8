import { ZReportQuery } from '@switchyard/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBStore } from '../src/columnar/duckdb.js';
import { ColumnarFollower } from '../src/columnar/follower.js';
import { loadConfig } from '../src/config.js';
import type { ColumnarReader } from '../src/report-plan/columnar-reader.js';
import { ReportsService } from '../src/reports/service.js';
import { migrateToLatest, openStore, type Store } from '../src/store/database.js';
import { EventWriter } from '../src/store/traffic/event-writer.js';
import { addEvents, generateEvents } from './fixtures/columnar-events.js';
import { DatabaseUnderTest } from './harness.js';

// A report grouped by a column that no stored click has a value of (no lander yet, say): its dictionary
// is empty, and the store names its codes without binding an empty list, which DuckDB refuses ("Cannot
// create lists with item type of ANY"): the report answered 500 before.
describe('the embedded columnar store, a group with no value coded [sqlite]', () => {
  const db = new DatabaseUnderTest('sqlite');
  afterAll(() => db.cleanup());
  let store: Store;
  let duck: DuckDBStore;
  let columnar: ColumnarReader;

  beforeAll(async () => {
    store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    await migrateToLatest(store);
    const events = generateEvents(500, 11);
    const writer = new EventWriter(store.db, { maxBatch: 300, ...(store.sqlite ? { sqlite: store.sqlite } : {}) });
    addEvents(writer, {
      clicks: events.clicks.map((click) => ({ ...click, lander_external_id: null })),
      leads: events.leads.map((lead) => ({ ...lead, lander_external_id: null })),
    });
    await writer.close();
    duck = await DuckDBStore.open(':memory:');
    const follower = await ColumnarFollower.start(store.sqlite!.name, duck, { info: () => undefined });
    await follower.catchUp();
    columnar = {
      kind: 'duckdb',
      ready: true,
      conversions: true,
      catchUp: () => follower.catchUp(),
      aggregate: (plan) => duck.aggregate(plan),
      report: (paged) => duck.report(paged),
    };
  });

  afterAll(async () => {
    await duck?.close();
    await store?.db.destroy();
  });

  it.each(['campaign,lander,country', 'lander,offer'])(
    'by %s: the store agrees with the event tables',
    async (groups) => {
      const asked = ZReportQuery.parse({ group_by: groups, date_from: '2020-01-01', date_to: '2030-12-31' });
      const fromEvents = await new ReportsService(store.db, { rollups: false }).run(asked, { instance: true });
      const fromColumns = await new ReportsService(store.db, { columnar }).run(asked, { instance: true });
      expect(fromColumns).toEqual(fromEvents);
      expect(fromEvents.total).toBeGreaterThan(0);
      expect(fromEvents.list.every((row) => (row as unknown as { lander: unknown }).lander === null)).toBe(true);
    },
  );
});
