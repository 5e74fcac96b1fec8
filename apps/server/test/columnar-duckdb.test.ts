import { existsSync } from 'node:fs';
import path from 'node:path';
import { type TReportQuery, ZCostUpdate, ZReportQuery } from '@switchyard/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBStore } from '../src/columnar/duckdb.js';
import { ColumnarFollower } from '../src/columnar/follower.js';
import { loadConfig } from '../src/config.js';
import { updateCampaignCost } from '../src/costs/service.js';
import type { ColumnarReader } from '../src/report-plan/columnar-reader.js';
import { ReportsService } from '../src/reports/service.js';
import { pruneChangeLogs } from '../src/store/change-logs.js';
import { migrateToLatest, openStore, type Store } from '../src/store/database.js';
import { EventWriter } from '../src/store/traffic/event-writer.js';
import {
  addEvents,
  changeConversions,
  changeLogRows,
  generateConversions,
  generateEvents,
  PAGES,
  REPORTS,
  storeConversions,
} from './fixtures/columnar-events.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, DatabaseUnderTest, login } from './harness.js';

// Reports of clicks and leads read from the embedded columnar store (DuckDB, following the
// SQLite event tables) agree figure for figure with the same reports read from the event tables, over
// events that cross a DST change, with every kind of grouping, filter, var and timezone.

// The embedded store follows SQLite; with PostgreSQL the columnar store is ClickHouse.
describe('the embedded columnar store [sqlite]', () => {
  const db = new DatabaseUnderTest('sqlite');
  afterAll(() => db.cleanup());
  let store: Store;
  let duck: DuckDBStore;
  let follower: ColumnarFollower;
  let columnar: ColumnarReader;
  /** Reports merged, ordered and paged in DuckDB (the others merged here). */
  let pagedInStore = 0;

  const write = async (events: ReturnType<typeof generateEvents>) => {
    const writer = new EventWriter(store.db, { maxBatch: 300, ...(store.sqlite ? { sqlite: store.sqlite } : {}) });
    addEvents(writer, events);
    await writer.close();
  };

  beforeAll(async () => {
    store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    await migrateToLatest(store);
    const events = generateEvents(4000, 7);
    await write(events);
    await storeConversions(store.db, generateConversions(events, 7));
    duck = await DuckDBStore.open(':memory:');
    follower = await ColumnarFollower.start(store.sqlite!.name, duck, { info: () => undefined });
    columnar = {
      kind: 'duckdb',
      ready: true,
      conversions: true,
      catchUp: () => follower.catchUp(),
      aggregate: (plan) => duck.aggregate(plan),
      report: (paged) => {
        pagedInStore += 1;
        return duck.report(paged);
      },
    };
    await follower.catchUp();
    // Conversions that change after they were copied, and new ones.
    await changeConversions(store.db, 7);
  });

  afterAll(async () => {
    await duck?.close();
    await store?.db.destroy();
  });

  const query = (input: Record<string, unknown>): TReportQuery => ZReportQuery.parse({ limit: 0, ...input });

  it.each(REPORTS.map((report) => [JSON.stringify(report), report] as const))(
    '%s: the columnar store and the event tables agree exactly',
    async (_, report) => {
      const fromEvents = await new ReportsService(store.db, { rollups: false }).run(query(report), { instance: true });
      const fromColumns = await new ReportsService(store.db, { rollups: false, columnar }).run(query(report), {
        instance: true,
      });
      expect(fromColumns).toEqual(fromEvents);
      expect(fromEvents.total).toBeGreaterThan(0);
    },
  );

  it.each(PAGES.map((report) => [JSON.stringify(report), report] as const))(
    '%s: a page ordered in DuckDB is the page ordered here',
    async (_, report) => {
      const before = pagedInStore;
      const asked = ZReportQuery.parse(report);
      const fromEvents = await new ReportsService(store.db, { rollups: false }).run(asked, { instance: true });
      const fromColumns = await new ReportsService(store.db, { columnar }).run(asked, { instance: true });
      expect(fromColumns).toEqual(fromEvents);
      expect(pagedInStore).toBe(before + 1);
    },
  );

  it('merges here what the store cannot order: a search, a derived figure, a custom metric', async () => {
    const before = pagedInStore;
    const metrics = [{ key: 'cm_rpm', name: 'RPM', formula: 'revenue / clicks * 1000', format: 'money' as const }];
    for (const report of [
      { group_by: 'subaff,country', search_text: 'gb', date_from: '2026-10-29', date_to: '2026-11-04' },
      { group_by: 'var1,country', order_by: 'roi', order: 'desc' },
      { group_by: 'var1,country', order_by: 'cm_rpm', order: 'desc' },
    ]) {
      const asked = ZReportQuery.parse(report);
      // The events here are of no workspace (none exists): null in the event tables, 0 in the store,
      // which a workspace's report never reads; the instance's reads them all.
      for (const scope of [
        { workspaceId: 0, metrics },
        { instance: true as const, metrics },
      ]) {
        const reports = (options: ConstructorParameters<typeof ReportsService>[1]) =>
          new ReportsService(store.db, options).run(asked, scope);
        const fromEvents = await reports({ rollups: false });
        expect(await reports({ columnar })).toEqual(fromEvents);
        expect(fromEvents.total > 0).toBe('instance' in scope);
      }
    }
    expect(pagedInStore).toBe(before);
  });

  it('names the source that answered, and why, with the same figures as run()', async () => {
    const scope = { instance: true as const };
    const service = new ReportsService(store.db, { columnar });
    const answered = async (report: Record<string, unknown>) => {
      const asked = query(report);
      const { meta, ...figures } = await service.answer(asked, scope);
      expect(figures).toEqual(await service.run(asked, scope));
      return meta;
    };
    const before = pagedInStore;
    expect(await answered({ group_by: 'var1,country' })).toEqual({
      source: 'duckdb',
      source_reason: 'DuckDB holds every event and paged the whole report: no rollup keeps var1.',
    });
    // Paged there twice: by answer() and by run().
    expect(pagedInStore).toBe(before + 2);
    expect(await answered({ group_by: 'campaign,offer' })).toEqual({
      source: 'rollups',
      source_reason: 'The rollups keep every column and filter of this report; conversions from DuckDB.',
    });
    expect(await answered({ group_by: 'subaff', search_text: 'a' })).toEqual({
      source: 'duckdb',
      source_reason:
        'DuckDB holds every event, read table by table: no rollup keeps subaff, and the search is applied here.',
    });
    expect(pagedInStore).toBe(before + 2);
    const { meta } = await new ReportsService(store.db).answer(query({ group_by: 'subaff' }), scope);
    expect(meta).toEqual({
      source: 'events',
      source_reason: 'The event tables answered: no rollup keeps subaff, and no columnar store is set up.',
    });
  });

  it('copies events and conversions written since, before it answers', async () => {
    const events = generateEvents(500, 11, 10_000);
    await write(events);
    await storeConversions(store.db, generateConversions(events, 11));
    await changeConversions(store.db, 11);
    await store.db.deleteFrom('conversions').where('conversion_id', '=', 'conv-11-5').execute();
    const report = query({ group_by: 'campaign' });
    const fromColumns = await new ReportsService(store.db, { rollups: false, columnar }).run(report, {
      instance: true,
    });
    expect(fromColumns.totals.clicks + fromColumns.totals.bot_clicks + fromColumns.totals.leads).toBe(4500);
    expect(fromColumns).toEqual(await new ReportsService(store.db, { rollups: false }).run(report, { instance: true }));
    expect(fromColumns.totals.approved).toBeGreaterThan(0);
    expect(
      await duck.aggregate({
        source: 'conversions',
        time: 'created_at',
        groups: [],
        buckets: null,
        where: [],
        includeBots: true,
      }),
    ).toEqual([expect.objectContaining({ conversions: expect.any(Number) })]);
  });

  it('copies nothing when nothing changed, and each kind of change when one did', async () => {
    await follower.catchUp();
    expect(await follower.catchUp()).toBe(0);
    // A conversion changed: its row is replaced.
    await store.db.updateTable('conversions').set({ payout: 42.5 }).where('conversion_id', '=', 'conv-7-8').execute();
    expect(await follower.catchUp()).toBe(1);
    expect(await follower.catchUp()).toBe(0);
    // New events.
    await write(generateEvents(20, 17, 40_000));
    expect(await follower.catchUp()).toBe(20);
    expect(follower.behind()).toBe(0);
  });

  it("adds a campaign's new cost, and a cost set over clicks copied in the same pass, once", async () => {
    const reports = new ReportsService(store.db, { rollups: false, columnar });
    const events = new ReportsService(store.db, { rollups: false });
    const report = query({ group_by: 'var1,campaign', timezone: 'UTC' });
    await updateCampaignCost(
      store,
      'camp-a',
      ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 123.45 }),
      { instance: true },
    );
    expect(await reports.run(report, { instance: true })).toEqual(await events.run(report, { instance: true }));
    // Clicks not yet copied when their cost moves: the pass that copies them carries the cost once.
    await write(generateEvents(300, 13, 20_000));
    await updateCampaignCost(
      store,
      'camp-b',
      ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 77, filter: { var1: 'zone-2' } }),
      { instance: true },
    );
    const after = await events.run(report, { instance: true });
    expect(await reports.run(report, { instance: true })).toEqual(after);
    const campB = after.list.filter((row) => row.campaign === 'camp-b' && row.var1 === 'zone-2');
    expect(campB.reduce((sum, row) => sum + row.cost, 0)).toBeCloseTo(77, 6);
  });

  it('rebuilds a store deleted by hand from the event tables', async () => {
    const fresh = await DuckDBStore.open(':memory:');
    const rebuilt = await ColumnarFollower.start(store.sqlite!.name, fresh, { info: () => undefined });
    expect(rebuilt.behind()).toBe(4820);
    await rebuilt.rebuild();
    expect(rebuilt.behind()).toBe(0);
    const reader: ColumnarReader = {
      kind: 'duckdb',
      ready: true,
      conversions: true,
      catchUp: () => rebuilt.catchUp(),
      aggregate: (plan) => fresh.aggregate(plan),
    };
    const report = query({ group_by: 'var1,country' });
    expect(
      await new ReportsService(store.db, { rollups: false, columnar: reader }).run(report, { instance: true }),
    ).toEqual(await new ReportsService(store.db, { rollups: false }).run(report, { instance: true }));
    await fresh.close();
  });

  it('prunes the changes it holds; a store rebuilt after pruning still agrees, and later changes are followed', async () => {
    const events = new ReportsService(store.db, { rollups: false });
    const report = query({ group_by: 'campaign,var1', timezone: 'Europe/Berlin' });
    await updateCampaignCost(
      store,
      'camp-c',
      ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 31.5 }),
      { instance: true },
    );
    await changeConversions(store.db, 11);
    await store.db
      .updateTable('conversions')
      .set({ state: 'rejected' })
      .where('conversion_id', 'like', 'conv-7-4%')
      .execute();
    await follower.catchUp();
    const logged = await changeLogRows(store.db);
    expect(logged).toBeGreaterThan(0);
    // A change the store does not hold yet stays.
    await store.db.updateTable('conversions').set({ payout: 12.25 }).where('conversion_id', '=', 'conv-7-6').execute();
    // In slices of 100 ids (5,000 when the server prunes).
    expect(await pruneChangeLogs(store.db, follower.followed, 100)).toBe(logged);
    expect(await changeLogRows(store.db, 'tracker_click_cost_changes')).toBe(0);
    expect(await changeLogRows(store.db, 'conversion_changes')).toBe(1);

    // Later changes get later ids, and the store follows them.
    await updateCampaignCost(
      store,
      'camp-a',
      ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 64.1, filter: { var1: 'zone-1' } }),
      { instance: true },
    );
    await store.db
      .updateTable('conversions')
      .set({ state: 'approved' })
      .where('conversion_id', 'like', 'conv-11-4%')
      .execute();
    const now = await events.run(report, { instance: true });
    expect(await new ReportsService(store.db, { rollups: false, columnar }).run(report, { instance: true })).toEqual(
      now,
    );
    expect(now.totals.cost).toBeGreaterThan(0);
    expect(now.totals.rejected).toBeGreaterThan(0);

    // A store deleted by hand now: its clicks and conversions as they are, none of the pruned changes.
    const fresh = await DuckDBStore.open(':memory:');
    const rebuilt = await ColumnarFollower.start(store.sqlite!.name, fresh, { info: () => undefined });
    await rebuilt.rebuild();
    const reader: ColumnarReader = {
      kind: 'duckdb',
      ready: true,
      conversions: true,
      catchUp: () => rebuilt.catchUp(),
      aggregate: (plan) => fresh.aggregate(plan),
    };
    expect(
      await new ReportsService(store.db, { rollups: false, columnar: reader }).run(report, { instance: true }),
    ).toEqual(now);
    expect(rebuilt.followed).toEqual(follower.followed);
    await fresh.close();
  });
});

describe('columnar store rows', () => {
  it('keeps hostile filter values as values', async () => {
    const duck = await DuckDBStore.open(':memory:');
    const rows = await duck.aggregate({
      source: 'clicks',
      time: 'created_at',
      groups: [],
      buckets: null,
      includeBots: true,
      where: [
        {
          kind: 'equals',
          value: { column: { name: 'subaff', origin: false }, as: 'value' },
          to: "'); drop table clicks; --",
        },
      ],
    });
    expect(rows).toEqual([]);
    expect(await duck.lastSourceId('clicks')).toBe(0);
    await duck.close();
  });
});

describe('the server on SQLite [sqlite]', () => {
  const db = new DatabaseUnderTest('sqlite');
  afterAll(() => db.cleanup());

  it('opens its columnar store in the data directory at start, and reports off the cubes still answer', async () => {
    const database = await db.createDatabase();
    const app = await db.buildApp({
      database,
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    const file = path.join(String(database.SWITCHYARD_DATA_DIR), 'switchyard.columnar.duckdb');
    await expect.poll(() => existsSync(file), { timeout: 20_000 }).toBe(true);
    const token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const response = await app.inject({ method: 'GET', url: '/api/reports?group_by=subaff', headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ total: number }>().total).toBe(0);
  });

  it('prunes the changes its columnar store holds once it has caught up at start', async () => {
    const app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    const events = generateEvents(400, 51);
    const writer = new EventWriter(app.store.db, app.store.sqlite ? { sqlite: app.store.sqlite } : {});
    addEvents(writer, events);
    await writer.close();
    await storeConversions(app.store.db, generateConversions(events, 51));
    await updateCampaignCost(
      app.store,
      'camp-a',
      ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 12 }),
      { instance: true },
    );
    expect(await changeLogRows(app.store.db)).toBeGreaterThan(100);
    // The next start copies what it missed, then prunes what it holds.
    await app.close();
    const restarted = await db.buildAppOnSameDatabase(app, {
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    await expect.poll(() => changeLogRows(restarted.store.db), { timeout: 20_000 }).toBe(0);
    // Changes made since are kept until the store holds them.
    await updateCampaignCost(
      restarted.store,
      'camp-b',
      ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 3 }),
      { instance: true },
    );
    expect(await changeLogRows(restarted.store.db)).toBeGreaterThan(0);
  });
});
