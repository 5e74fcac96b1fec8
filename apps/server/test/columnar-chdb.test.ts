// The ClickHouse store's statements on a current ClickHouse: the schema, a feed of events,
// cost and conversion changes from PostgreSQL, and every report shape, sent both to Debian's 18.16 (the
// server at TEST_CLICKHOUSE_URL) and to ClickHouse 26.7 in-process (chdb, test/chdb-support.ts). Every
// answer must be the same on both, and the event tables'. A statement a current release refuses fails here.
import { type TReportQuery, ZCostUpdate, ZReportQuery } from '@switchyard/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ClickHouseStore } from '../src/columnar/clickhouse.js';
import { ClickHouseClient, parseClickHouseUrl } from '../src/columnar/clickhouse-client.js';
import { ClickHouseFeed } from '../src/columnar/clickhouse-feed.js';
import { literal } from '../src/columnar/clickhouse-sql.js';
import { BOUNDED_TEXT_COLUMNS } from '../src/columnar/schema.js';
import { loadConfig } from '../src/config.js';
import { updateCampaignCost } from '../src/costs/service.js';
import type { ColumnarReader } from '../src/report-plan/columnar-reader.js';
import { type ReportScope, ReportsService } from '../src/reports/service.js';
import { migrateToLatest, openStore, type Store } from '../src/store/database.js';
import { EventWriter } from '../src/store/traffic/event-writer.js';
import type { EventFeed } from '../src/store/traffic/kysely-sink.js';
import { ChdbClient, onChdb } from './chdb-support.js';
import { onClickHouse, runUrl } from './clickhouse-support.js';
import {
  addEvents,
  changeConversions,
  generateConversions,
  generateEvents,
  PAGES,
  REPORTS,
  storeConversions,
} from './fixtures/columnar-events.js';
import { HOSTILE_VALUES } from './fixtures/columnar-rows.js';
import { DatabaseUnderTest } from './harness.js';

const silent = { info: () => undefined, warn: () => undefined };
const query = (input: Record<string, unknown>): TReportQuery => ZReportQuery.parse({ limit: 0, ...input });

/** Reports merged here, not in the store: a search, an order by a derived figure, a custom metric. */
const MERGED_HERE: Record<string, unknown>[] = [
  { group_by: 'subaff,country', search_text: 'gb', date_from: '2026-10-29', date_to: '2026-11-04' },
  { group_by: 'var1,country', order_by: 'roi', order: 'desc' },
  { group_by: 'var1,country', order_by: 'cm_rpm', order: 'desc' },
];
const METRICS = [{ key: 'cm_rpm', name: 'RPM', formula: 'revenue / clicks * 1000', format: 'money' as const }];

onChdb('ClickHouse 26.7 (chdb) runs the store’s statements', () => {
  onClickHouse('ClickHouse 18.16 and 26.7 give the same answers [postgres]', () => {
    const db = new DatabaseUnderTest('postgres');
    const url = runUrl('chdb');
    const database = parseClickHouseUrl(url).database;
    let store: Store;
    let chdb: ChdbClient;
    /** 18.16 over HTTP, then 26.7 in-process: the same store code on each. */
    const stores: ClickHouseStore[] = [];
    const feeds: ClickHouseFeed[] = [];
    /** Every event sent to both, as a node's writer sends what it stored. */
    const both: EventFeed = {
      sendEvents: async (clicks, leads, options) => {
        for (const feed of feeds) await feed.sendEvents(clicks, leads, options);
      },
    };
    const readers = (): ColumnarReader[] =>
      feeds.map((feed) => ({
        kind: 'clickhouse',
        ready: feed.ready,
        conversions: true,
        catchUp: () => Promise.all([feed.sendCostChanges(), feed.sendConversionChanges()]),
        aggregate: (plan) => feed.store.aggregate(plan),
        report: (paged) => feed.store.report(paged),
      }));
    const write = async (events: ReturnType<typeof generateEvents>, feed?: EventFeed) => {
      const writer = new EventWriter(store.db, { maxBatch: 300, ...(feed ? { feed } : {}) });
      addEvents(writer, events);
      await writer.close();
    };

    beforeAll(async () => {
      store = openStore(loadConfig({ ...(await db.createDatabase()) }));
      await migrateToLatest(store);
      chdb = await ChdbClient.open(database);
      // The schema: each store creates its database and tables, coded as its feed gives it codes.
      for (const target of [new ClickHouseStore(url), new ClickHouseStore(chdb)]) {
        feeds.push(new ClickHouseFeed(store.db, target, silent, { backfillBatch: 300, pruneAfterMs: 0 }));
        stores.push(await target.open());
      }
      // Events stored before ClickHouse was configured, copied by the backfill in batches of 300.
      const before = generateEvents(1500, 7);
      await write(before);
      await storeConversions(store.db, generateConversions(before, 7));
      await updateCampaignCost(
        store,
        'camp-c',
        ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 9 }),
        { instance: true },
      );
      for (const feed of feeds) await feed.backfill();
      // Events sent by their writer as they are stored, changes sent as reports ask for them.
      const since = generateEvents(1500, 8, 10_000);
      await write(since, both);
      await storeConversions(store.db, generateConversions(since, 8));
      await changeConversions(store.db, 7);
      for (const feed of feeds) await feed.sendConversionChanges();
      // Removed after it was sent: the removal is its last row, read off ClickHouse (conversionRow).
      await store.db.deleteFrom('conversions').where('conversion_id', 'in', ['conv-7-5', 'conv-8-6']).execute();
      await updateCampaignCost(
        store,
        'camp-a',
        ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 123.45 }),
        { instance: true },
      );
      await updateCampaignCost(
        store,
        'camp-b',
        ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 77, filter: { var1: 'zone-2' } }),
        { instance: true },
      );
      for (const feed of feeds) {
        await feed.sendCostChanges();
        await feed.sendConversionChanges();
      }
      // A journal replayed after a crash sends events both hold already: each checks its keys first.
      await both.sendEvents(
        since.clicks.slice(0, 300).map((click) => click.click_id),
        since.leads.slice(0, 80).map((lead) => lead.lead_id),
        { again: true },
      );
    }, 180_000);

    afterAll(async () => {
      const http = new ClickHouseClient(parseClickHouseUrl(url));
      await http.execute(`DROP DATABASE IF EXISTS ${database}`, { inDatabase: false });
      await chdb?.close();
      await store?.db.destroy();
      await db.cleanup();
    });

    it('runs a current release, beside 18.16', async () => {
      expect(await chdb.version()).toMatch(/^26\.7\./);
      const [server] = await stores[0]!.client.select('SELECT version() AS v');
      expect(String(server?.v)).toMatch(/^18\.16\./);
      expect(feeds.map((feed) => feed.ready)).toEqual([true, true]);
    });

    it('makes the same tables', async () => {
      const layout = async (target: ClickHouseStore) =>
        (
          await target.client.select(
            'SELECT table, name, type, default_kind FROM system.columns WHERE database = currentDatabase() ORDER BY table, name',
          )
        ).map((row) => `${row.table}.${row.name} ${row.type} ${row.default_kind}`);
      const engines = async (target: ClickHouseStore) =>
        (
          await target.client.select(
            'SELECT name, engine, partition_key, sorting_key FROM system.tables WHERE database = currentDatabase() ORDER BY name',
          )
        ).map((row) => JSON.stringify(row));
      const [old, current] = stores as [ClickHouseStore, ClickHouseStore];
      expect(await layout(current)).toEqual(await layout(old));
      expect(await engines(current)).toEqual(await engines(old));
      expect((await layout(current)).length).toBeGreaterThan(60);
    });

    it('holds the same rows, each key once, and the same progress', async () => {
      for (const target of stores) {
        for (const table of ['clicks', 'leads']) {
          const [held] = await target.client.select(
            `SELECT count() AS stored, uniqExact(row_key) AS keys FROM ${table}`,
          );
          expect(Number(held?.stored), table).toBe(Number(held?.keys));
        }
      }
      const facts = async (target: ClickHouseStore) => ({
        costs: await target.lastCostChange(),
        conversions: await target.lastConversionChange(),
        copied: await target.progress('copied:clicks'),
        removed: await target.conversionRow('conv-7-5'),
        clicks: await target.client.select('SELECT count() AS n, round(sum(cost), 6) AS cost FROM clicks'),
      });
      const [old, current] = await Promise.all(stores.map(facts));
      expect(current).toEqual(old);
      expect(old?.costs).toBeGreaterThan(0);
      expect(old?.removed?.deleted).toBe(1);
    });

    it('gives every bounded value of every row its code, the same in both, named by each one’s dictionary', async () => {
      const coding = async (target: ClickHouseStore) => {
        expect(await target.progress('codes')).toBe(1);
        const named = new Map(
          (await target.client.select('SELECT code, any(value) AS value FROM codes GROUP BY code')).map((row) => [
            Number(row.code),
            String(row.value),
          ]),
        );
        const pairs: string[] = [];
        for (const table of ['clicks', 'leads', 'conversions']) {
          for (const name of BOUNDED_TEXT_COLUMNS) {
            const held = await target.client.select(
              `SELECT DISTINCT code_${name} AS code, ${name} AS value FROM ${table} ORDER BY code, value`,
            );
            for (const { code, value } of held) {
              // 0 for none; else the code the dictionary gives the value, one value per code.
              expect(Number(code) === 0, `${table}.${name} ${value}`).toBe(value === null);
              if (value !== null) expect(named.get(Number(code)), `${table}.${name}`).toBe(value);
              pairs.push(`${table}.${name} ${code} ${value}`);
            }
          }
        }
        return pairs;
      };
      const [old, current] = await Promise.all(stores.map(coding));
      expect(current).toEqual(old);
      expect(old!.filter((pair) => !pair.endsWith(' 0 null')).length).toBeGreaterThan(30);
    });

    const scopes: [string, ReportScope][] = [
      ['the instance', { instance: true }],
      // The generated events are of no workspace: a workspace's report reads none of them, on both.
      ['a workspace', { workspaceId: 1 }],
    ];
    for (const [who, scope] of scopes) {
      it.each(REPORTS.map((report) => [JSON.stringify(report), report] as const))(
        `%s, ${who}: 26.7, 18.16 and the event tables agree`,
        async (_, report) => {
          const fromEvents = await new ReportsService(store.db, { rollups: false }).run(query(report), scope);
          for (const columnar of readers()) {
            const fromColumns = await new ReportsService(store.db, { rollups: false, columnar }).run(
              query(report),
              scope,
            );
            expect(fromColumns).toEqual(fromEvents);
          }
          expect(fromEvents.total > 0).toBe('instance' in scope);
        },
      );
    }

    it.each(PAGES.map((report) => [JSON.stringify(report), report] as const))(
      '%s: the page each orders in one statement is the page ordered here',
      async (_, report) => {
        const asked = ZReportQuery.parse(report);
        const fromEvents = await new ReportsService(store.db, { rollups: false }).run(asked, { instance: true });
        for (const reader of readers()) {
          let paged = 0;
          const columnar: ColumnarReader = {
            ...reader,
            report: (plan) => {
              paged += 1;
              return reader.report!(plan);
            },
          };
          expect(await new ReportsService(store.db, { columnar }).run(asked, { instance: true })).toEqual(fromEvents);
          expect(paged).toBe(1);
        }
      },
    );

    it.each(MERGED_HERE.map((report) => [JSON.stringify(report), report] as const))(
      '%s: merged here from each store’s rows',
      async (_, report) => {
        const asked = ZReportQuery.parse(report);
        const scope: ReportScope = { instance: true, metrics: METRICS };
        const fromEvents = await new ReportsService(store.db, { rollups: false }).run(asked, scope);
        expect(fromEvents.total).toBeGreaterThan(0);
        for (const columnar of readers()) {
          expect(await new ReportsService(store.db, { columnar }).run(asked, scope)).toEqual(fromEvents);
        }
      },
    );

    it('reads back every hostile value exactly as written', async () => {
      for (const hostile of [...HOSTILE_VALUES, '\\', "'", "\\\\''", `${'y'.repeat(300_000)}'\\`]) {
        const [row] = await chdb.select(`SELECT ${literal(hostile)} AS v, length(${literal(hostile)}) AS n`);
        expect(row?.v === hostile, JSON.stringify(hostile).slice(0, 40)).toBe(true);
        expect(Number(row?.n)).toBe(Buffer.byteLength(hostile));
      }
    });

    it('compacts conversions to one part a month, each conversion once, and reports the same', async () => {
      const shape = async (target: ClickHouseStore) => ({
        parts: await target.client.select(
          "SELECT partition, count() AS parts FROM system.parts WHERE database = currentDatabase() AND table = 'conversions' AND active GROUP BY partition ORDER BY partition",
        ),
        rows: await target.client.select('SELECT count() AS n, uniqExact(conversion_id) AS ids FROM conversions'),
      });
      // Changes sent since the backfill's compaction left months in several parts, some conversions twice.
      const before = await shape(stores[0]!);
      expect(before.parts.some((month) => Number(month.parts) > 1)).toBe(true);
      expect(Number(before.rows[0]?.n)).toBeGreaterThan(Number(before.rows[0]?.ids));
      for (const feed of feeds) await feed.compactConversions();
      const [old, current] = await Promise.all(stores.map(shape));
      expect(current).toEqual(old);
      expect(old?.parts.map((month) => Number(month.parts))).toEqual(before.parts.map(() => 1));
      expect(Number(old?.rows[0]?.n)).toBe(Number(old?.rows[0]?.ids));
      for (const report of REPORTS) {
        const fromEvents = await new ReportsService(store.db, { rollups: false }).run(query(report), {
          instance: true,
        });
        for (const columnar of readers()) {
          expect(
            await new ReportsService(store.db, { rollups: false, columnar }).run(query(report), { instance: true }),
          ).toEqual(fromEvents);
        }
      }
    });

    it('drops the campaign hash columns of a table made before workspaces, at start', async () => {
      // As a store made before migration 0023 had them.
      await chdb.execute(
        `ALTER TABLE leads ${['cityHash64', 'sipHash64']
          .map(
            (hash, index) =>
              `ADD COLUMN ${index === 0 ? 'h' : 'k'}_campaign UInt64 MATERIALIZED if(isNull(campaign_external_id), toUInt64(0), ${hash}(assumeNotNull(campaign_external_id)))`,
          )
          .join(', ')}`,
      );
      await new ClickHouseStore(chdb).open();
      expect(
        await chdb.select(
          "SELECT name FROM system.columns WHERE database = currentDatabase() AND name IN ('h_campaign', 'k_campaign')",
        ),
      ).toEqual([]);
    });
  });
});
