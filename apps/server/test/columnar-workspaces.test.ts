// The columnar stores keep a report to its workspace by each event's own workspace_id, as the
// event tables do, never by the list of the workspace's campaigns. Events here are not all in their
// campaign's workspace now: camp-a moved from A to B after half its events were stored, and camp-c is
// no known campaign (its events are in the default workspace, A). DuckDB (following SQLite) and
// ClickHouse (fed from PostgreSQL) must give each workspace exactly the event tables' report.
import { type TReportQuery, ZReportQuery } from '@switchyard/domain';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClickHouseNode, startClickHouse } from '../src/columnar/clickhouse-node.js';
import { DuckDBStore } from '../src/columnar/duckdb.js';
import { ColumnarFollower } from '../src/columnar/follower.js';
import { loadConfig } from '../src/config.js';
import type { ColumnarReader } from '../src/report-plan/columnar-reader.js';
import { ReportsService } from '../src/reports/service.js';
import { migrateToLatest, openStore, type Store } from '../src/store/database.js';
import type { Database } from '../src/store/schema.js';
import type { Scope } from '../src/store/scope.js';
import { EventWriter } from '../src/store/traffic/event-writer.js';
import { onClickHouse, runUrl } from './clickhouse-support.js';
import { addEvents, generateConversions, generateEvents, storeConversions } from './fixtures/columnar-events.js';
import { DatabaseUnderTest } from './harness.js';

const query = (input: Record<string, unknown>): TReportQuery => ZReportQuery.parse({ limit: 0, ...input });

const REPORTS: Record<string, unknown>[] = [
  { group_by: 'campaign' },
  { group_by: 'var1,country' },
  { group_by: 'day', timezone: 'America/New_York', date_from: '2026-10-29', date_to: '2026-11-04' },
  // One campaign: ClickHouse's fast path on its sorting key.
  { group_by: 'offer', filters: JSON.stringify({ campaign: 'camp-a' }) },
  { group_by: 'subaff', attribution: 'postback' },
];

/** Workspaces A (the default, lowest id) and B, and the campaigns as they are now. */
async function twoWorkspaces(db: Kysely<Database>): Promise<{ a: number; b: number }> {
  const now = new Date().toISOString();
  const add = async (name: string) =>
    (
      await db
        .insertInto('workspaces')
        .values({ name, postback_key: name.repeat(24), status: 'active', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const a = await add('A');
  const b = await add('B');
  const campaign = (kind: string, external_id: string, workspace_id: number) => ({
    kind,
    external_id,
    workspace_id,
    name: external_id,
    body: '{}',
    status: 'active',
    created_at: now,
    updated_at: now,
  });
  await db
    .insertInto('config_records')
    .values([
      campaign('tracker-campaigns', 'camp-a', b),
      campaign('campaigns', 'camp-a', b),
      campaign('tracker-campaigns', 'camp-b', a),
      campaign('campaigns', 'camp-b', a),
    ])
    .execute();
  return { a, b };
}

/**
 * Events in their workspaces: camp-a's first half in A (stored before it moved), the rest B; the others
 * left to the writer (camp-b: A; camp-c, unknown: the default, A). Conversions in their click's or lead's.
 */
function inWorkspaces(events: ReturnType<typeof generateEvents>, { a, b }: { a: number; b: number }) {
  const assign = <T extends { campaign_external_id: string | null; workspace_id: number | null }>(rows: T[]) =>
    rows.map((row, index) =>
      row.campaign_external_id === 'camp-a' ? { ...row, workspace_id: index < rows.length / 2 ? a : b } : row,
    );
  return { clicks: assign(events.clicks), leads: assign(events.leads) };
}

async function writeEvents(
  store: Store,
  events: ReturnType<typeof generateEvents>,
  seed: number,
  feed?: ClickHouseNode['feed'],
): Promise<void> {
  const writer = new EventWriter(store.db, {
    maxBatch: 300,
    ...(store.sqlite ? { sqlite: store.sqlite } : {}),
    ...(feed ? { feed } : {}),
  });
  addEvents(writer, events);
  await writer.close();
  await storeConversions(store.db, generateConversions(events, seed));
  // A conversion is its click's or lead's workspace's (traffic/postback.ts); the orphan the default's.
  await sql`update conversions set workspace_id = coalesce(
      (select c.workspace_id from tracker_clicks c where c.click_id = conversions.click_id),
      (select l.workspace_id from tracker_leads l where l.lead_id = conversions.lead_id),
      (select min(w.id) from workspaces w))
    where conversion_id like ${`conv-${seed}-%`}`.execute(store.db);
}

/** Each workspace's reports, and the instance's, read from the columnar store and from the event tables. */
function agreesWithEventTables(reader: () => { store: Store; columnar: ColumnarReader; a: number; b: number }) {
  const scopes: [string, (ids: { a: number; b: number }) => Scope][] = [
    ['workspace A', ({ a }) => ({ workspaceId: a })],
    ['workspace B', ({ b }) => ({ workspaceId: b })],
    ['the instance', () => ({ instance: true })],
  ];
  for (const [name, scopeOf] of scopes) {
    it.each(REPORTS.map((report) => [JSON.stringify(report), report] as const))(
      `${name}, %s: the columnar store and the event tables agree`,
      async (_, report) => {
        const { store, columnar, a, b } = reader();
        const scope = scopeOf({ a, b });
        const fromEvents = await new ReportsService(store.db, { rollups: false }).run(query(report), scope);
        const fromColumns = await new ReportsService(store.db, { rollups: false, columnar }).run(query(report), scope);
        expect(fromColumns).toEqual(fromEvents);
        expect(fromEvents.total).toBeGreaterThan(0);
      },
    );
  }

  it('keeps each workspace to its own events: camp-a in both, camp-c in A only, none counted twice', async () => {
    const { store, columnar, a, b } = reader();
    const service = new ReportsService(store.db, { rollups: false, columnar });
    const report = (scope: Scope) => service.run(query({ group_by: 'campaign' }), scope);
    const [inA, inB, all] = await Promise.all([
      report({ workspaceId: a }),
      report({ workspaceId: b }),
      report({ instance: true }),
    ]);
    const campaigns = (shown: typeof inA) => shown.list.map((row) => row.campaign).sort();
    expect(campaigns(inA)).toEqual(['camp-a', 'camp-b', 'camp-c']);
    expect(campaigns(inB)).toEqual(['camp-a']);
    expect(inA.totals.clicks + inB.totals.clicks).toBe(all.totals.clicks);
    expect(inA.totals.conversions + inB.totals.conversions).toBe(all.totals.conversions);
    expect(inB.totals.clicks).toBeGreaterThan(0);
  });
}

describe('the embedded columnar store keeps each workspace to its events [sqlite]', () => {
  const db = new DatabaseUnderTest('sqlite');
  let store: Store;
  let duck: DuckDBStore;
  let columnar: ColumnarReader;
  let ids: { a: number; b: number };

  beforeAll(async () => {
    store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    await migrateToLatest(store);
    ids = await twoWorkspaces(store.db);
    await writeEvents(store, inWorkspaces(generateEvents(1500, 11), ids), 11);
    duck = await DuckDBStore.open(':memory:');
    const follower = await ColumnarFollower.start(store.sqlite!.name, duck, { info: () => undefined });
    await follower.catchUp();
    // Events after the store's first copy: followed one by one.
    await writeEvents(store, inWorkspaces(generateEvents(500, 12, 10_000), ids), 12);
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
    await db.cleanup();
  });

  agreesWithEventTables(() => ({ store, columnar, ...ids }));
});

onClickHouse('ClickHouse keeps each workspace to its events [postgres]', () => {
  const db = new DatabaseUnderTest('postgres');
  const url = runUrl('workspaces');
  let store: Store;
  let node: ClickHouseNode;
  let ids: { a: number; b: number };

  beforeAll(async () => {
    store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    await migrateToLatest(store);
    ids = await twoWorkspaces(store.db);
    // Stored before ClickHouse was configured (the backfill copies them), then sent by their writer.
    await writeEvents(store, inWorkspaces(generateEvents(1500, 11), ids), 11);
    node = startClickHouse(store.db, url, { info: () => undefined, warn: () => undefined }, { pruneAfterMs: 0 });
    await node.started;
    await writeEvents(store, inWorkspaces(generateEvents(500, 12, 10_000), ids), 12, node.feed);
  }, 120_000);

  afterAll(async () => {
    await node?.close();
    await node?.feed.store.client.execute(`DROP DATABASE IF EXISTS ${node.feed.store.client.target.database}`, {
      inDatabase: false,
    });
    await store?.db.destroy();
    await db.cleanup();
  });

  agreesWithEventTables(() => ({ store, columnar: node.reader, ...ids }));
});
