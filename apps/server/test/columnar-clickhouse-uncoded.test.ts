// A ClickHouse whose tables were made before codes (columnar/clickhouse-codes.ts): its rows were sent
// without them, and a start adds the code columns (0 in those rows). Its reports keep grouping by text,
// and still equal the event tables' after rows sent since with codes.
import { type TReportQuery, ZReportQuery } from '@switchyard/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ClickHouseStore } from '../src/columnar/clickhouse.js';
import { ClickHouseClient, parseClickHouseUrl } from '../src/columnar/clickhouse-client.js';
import { ClickHouseFeed } from '../src/columnar/clickhouse-feed.js';
import { columnarRow, type EventRecord, eventColumns, SOURCES } from '../src/columnar/clickhouse-rows.js';
import { CODE_COLUMNS, createConversionsTable, createTable } from '../src/columnar/clickhouse-sql.js';
import { loadConfig } from '../src/config.js';
import type { ColumnarReader } from '../src/report-plan/columnar-reader.js';
import { ReportsService } from '../src/reports/service.js';
import { migrateToLatest, openStore, type Store } from '../src/store/database.js';
import { EventWriter } from '../src/store/traffic/event-writer.js';
import { onClickHouse, runUrl } from './clickhouse-support.js';
import { CODED_REPORTS, codedEvents, nameValues } from './fixtures/coded-events.js';
import { addEvents, generateConversions, storeConversions } from './fixtures/columnar-events.js';
import { DatabaseUnderTest } from './harness.js';

const silent = { info: () => undefined, warn: () => undefined };
const query = (input: Record<string, unknown>): TReportQuery => ZReportQuery.parse({ limit: 0, ...input });

/** A table's statement as it was before codes. */
const withoutCodes = (statement: string) => statement.replace(/,\n\s*code_\w+ UInt32 DEFAULT 0/g, '');

onClickHouse('a ClickHouse made before codes [postgres]', () => {
  const db = new DatabaseUnderTest('postgres');
  const url = runUrl('uncoded');
  let store: Store;
  let feed: ClickHouseFeed;
  /** The report engine's store: it reads, sends nothing, has no codes to give. */
  const engine = new ClickHouseStore(url);
  let reports = 0;
  const columnar: ColumnarReader = {
    kind: 'clickhouse',
    ready: true,
    conversions: true,
    catchUp: () => Promise.all([feed.sendCostChanges(), feed.sendConversionChanges()]),
    aggregate: (plan) => engine.aggregate(plan),
    report: (paged) => {
      reports += 1;
      return engine.report(paged);
    },
  };

  beforeAll(async () => {
    store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    await migrateToLatest(store);
    await nameValues(store.db);
    const before = codedEvents(900, 61);
    const writer = new EventWriter(store.db, { maxBatch: 300 });
    addEvents(writer, before);
    await writer.close();
    await storeConversions(store.db, generateConversions(before, 61));

    // The tables as a node made them before codes, and the rows it sent.
    const client = new ClickHouseClient(parseClickHouseUrl(url));
    await client.execute(`CREATE DATABASE IF NOT EXISTS ${client.target.database}`, { inDatabase: false });
    for (const statement of [createTable('clicks'), createTable('leads'), createConversionsTable()]) {
      expect(withoutCodes(statement)).not.toContain('code_');
      await client.execute(withoutCodes(statement));
    }
    await client.execute(
      'CREATE TABLE progress (name String, value Int64, version UInt64) ENGINE = ReplacingMergeTree(version) ORDER BY name',
    );
    const old = new ClickHouseStore(url);
    for (const table of ['clicks', 'leads'] as const) {
      const { rows } =
        await sql<EventRecord>`select ${eventColumns(table)} from ${sql.table(SOURCES[table].table)} e`.execute(
          store.db,
        );
      await old.append(
        table,
        rows.map((record) => columnarRow(record)),
      );
    }

    // A start with codes to give: the columns are added, the tables stay read by text.
    feed = new ClickHouseFeed(store.db, new ClickHouseStore(url), silent, { pruneAfterMs: 0 });
    await feed.store.open();
    const since = codedEvents(900, 62, 10_000);
    const sending = new EventWriter(store.db, { maxBatch: 300, feed });
    addEvents(sending, since);
    await sending.close();
    await storeConversions(store.db, generateConversions(since, 62));
    // Every conversion, as its logged changes: sent with codes into a table made without them.
    await feed.sendConversionChanges();
  }, 120_000);

  afterAll(async () => {
    await engine.client.execute(`DROP DATABASE IF EXISTS ${engine.client.target.database}`, { inDatabase: false });
    await store?.db.destroy();
    await db.cleanup();
  });

  it('gains the code columns at start, and is not marked coded', async () => {
    const held = await engine.client.select(
      "SELECT table, name FROM system.columns WHERE database = currentDatabase() AND name LIKE 'code\\_%'",
    );
    for (const table of ['clicks', 'leads', 'conversions']) {
      expect(held.filter((row) => row.table === table).map((row) => row.name)).toEqual(
        CODE_COLUMNS.map((column) => column.name),
      );
    }
    expect(await engine.progress('codes')).toBeNull();
    // Rows from before hold 0 for real values, rows since their codes: grouped by codes, they would part.
    const [rows] = await engine.client.select(
      'SELECT countIf(code_campaign_external_id = 0) AS before, countIf(code_campaign_external_id != 0) AS since FROM clicks',
    );
    expect(Number(rows?.before)).toBeGreaterThan(100);
    expect(Number(rows?.since)).toBeGreaterThan(100);
  });

  it.each(CODED_REPORTS.map((report) => [JSON.stringify(report), report] as const))(
    '%s: grouped by text, as the event tables',
    async (_, report) => {
      const fromEvents = await new ReportsService(store.db, { rollups: false }).run(query(report), {
        instance: true,
      });
      expect(fromEvents.total).toBeGreaterThan(0);
      const counted = reports;
      expect(
        await new ReportsService(store.db, { rollups: false, columnar }).run(query(report), { instance: true }),
      ).toEqual(fromEvents);
      expect(reports).toBe(counted + 1);
    },
  );
});
