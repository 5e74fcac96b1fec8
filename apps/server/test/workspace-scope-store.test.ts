import { type Kysely, Migrator, sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { migrateToLatest, openStore, type Store } from '../src/store/database.js';
import { InCodeMigrationProvider } from '../src/store/migrations.js';
import { ScopeError, ScopeGuard, scopeCondition, workspaceTables } from '../src/store/scope.js';
import type { NewTrackerClick } from '../src/store/tracker-events.js';
import { storeEventRows } from '../src/store/traffic/kysely-sink.js';
import {
  eventLine,
  eventPayload,
  payloadBatches,
  rowObjects,
  SqliteEventStore,
} from '../src/store/traffic/sqlite-events.js';
import { forEachDatabase } from './harness.js';

// The store scopes, callers cannot forget. Every workspace-owned table carries workspace_id
// (read from the live database), the event tables too, filled by migration 0023 and written by the
// engine; the services read them only within a required scope, and ScopeGuard refuses a query that
// drops it.

/** The tables that must carry workspace_id: config, accounts' workspace records, and every event table. */
const OWNED = [
  'api_tokens',
  'config_records',
  'conversions',
  'custom_metrics',
  'history',
  'postback_log',
  'report_views',
  'tracker_clicks',
  'tracker_leads',
];

const BEFORE_0023 = '0022_click_cost_changes_unindexed';

forEachDatabase('workspace scope: the store', (db) => {
  let store: Store | undefined;
  afterEach(async () => {
    await store?.db.destroy();
    store = undefined;
  });

  async function openMigrated(to?: string): Promise<Store> {
    store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    if (to) {
      const { error } = await new Migrator({
        db: store.db,
        provider: new InCodeMigrationProvider(store.dialect),
      }).migrateTo(to);
      if (error) throw error;
    } else await migrateToLatest(store);
    return store;
  }

  it('every workspace-owned table carries workspace_id, clicks and leads too', async () => {
    const opened = await openMigrated();
    expect(await workspaceTables(opened.db as Kysely<unknown>, opened.dialect)).toEqual(expect.arrayContaining(OWNED));
  });

  it('refuses a query on a workspace-owned table that drops its scope, and lets a scoped one through', async () => {
    const opened = await openMigrated();
    const tables = await workspaceTables(opened.db as Kysely<unknown>, opened.dialect);
    const guarded = opened.db.withPlugin(new ScopeGuard(tables));
    for (const table of ['tracker_clicks', 'tracker_leads', 'conversions', 'postback_log'] as const) {
      await expect(guarded.selectFrom(table).select('id').execute()).rejects.toThrow(ScopeError);
      await expect(
        guarded.selectFrom(table).select('id').where('created_at', '>=', '2026-01-01').execute(),
      ).rejects.toThrow(ScopeError);
      await expect(sql`select count(*) from ${sql.table(table)}`.execute(guarded)).rejects.toThrow(ScopeError);
      await expect(guarded.deleteFrom(table).where('id', '=', 1).execute()).rejects.toThrow(ScopeError);
      expect(
        await guarded
          .selectFrom(table)
          .select('id')
          .where(scopeCondition({ workspaceId: 1 }, 'workspace_id'))
          .execute(),
      ).toEqual([]);
      expect(
        await sql`select count(*) as n from ${sql.table(table)} where ${scopeCondition({ instance: true }, 'workspace_id')}`.execute(
          guarded,
        ),
      ).toBeDefined();
    }
    // A table no workspace owns is read freely.
    expect(await guarded.selectFrom('workspaces').select('id').execute()).toEqual([]);
  });

  it("0023 gives stored clicks and leads their campaign's workspace, else the default one", async () => {
    const opened = await openMigrated(BEFORE_0023);
    const any = opened.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const now = '2026-11-01T00:00:00.000Z';
    const [first, second] = await Promise.all(
      ['A', 'B'].map(async (name) =>
        Number(
          (
            await any
              .insertInto('workspaces')
              .values({ name, created_at: now, updated_at: now })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        ),
      ),
    );
    const lowest = Math.min(first!, second!);
    const other = Math.max(first!, second!);
    await any
      .insertInto('config_records')
      .values([
        {
          kind: 'tracker-campaigns',
          external_id: 'tc-b',
          workspace_id: other,
          name: 'b',
          created_at: now,
          updated_at: now,
        },
        {
          kind: 'tracker-campaigns',
          external_id: 'tc-none',
          workspace_id: null,
          name: 'n',
          created_at: now,
          updated_at: now,
        },
        // The same external id as an API campaign of the other kind: a click reads tracker campaigns only.
        {
          kind: 'campaigns',
          external_id: 'tc-lowest',
          workspace_id: other,
          name: 'x',
          created_at: now,
          updated_at: now,
        },
        { kind: 'campaigns', external_id: 'ac-b', workspace_id: other, name: 'a', created_at: now, updated_at: now },
      ])
      .execute();
    const click = (id: string, campaign: string) => ({
      click_id: id,
      created_at: now,
      campaign_external_id: campaign,
      visitor_id: 'v',
      reason: 'matched',
    });
    await any
      .insertInto('tracker_clicks')
      .values([click('k1', 'tc-b'), click('k2', 'tc-none'), click('k3', 'tc-lowest'), click('k4', 'gone')])
      .execute();
    const lead = (id: string, campaign: string) => ({
      lead_id: id,
      created_at: now,
      campaign_external_id: campaign,
      email_hash: 'h',
      email_domain: 'd',
      decision: 'routed',
      reason: 'matched',
    });
    await any
      .insertInto('tracker_leads')
      .values([lead('l1', 'ac-b'), lead('l2', 'tc-b')])
      .execute();

    await migrateToLatest(opened);
    const clicks = await opened.db.selectFrom('tracker_clicks').select(['click_id', 'workspace_id']).execute();
    expect(Object.fromEntries(clicks.map((row) => [row.click_id, Number(row.workspace_id)]))).toEqual({
      k1: other,
      k2: lowest,
      k3: lowest,
      k4: lowest,
    });
    const leads = await opened.db.selectFrom('tracker_leads').select(['lead_id', 'workspace_id']).execute();
    expect(Object.fromEntries(leads.map((row) => [row.lead_id, Number(row.workspace_id)]))).toEqual({
      l1: other,
      l2: lowest,
    });
    // Events of two workspaces: the cubes built again from them, each workspace's apart.
    const totals = await opened.db
      .selectFrom('report_rollups')
      .select(['workspace_id', 'clicks', 'leads'])
      .where('cube', '=', 'all/day')
      .orderBy('workspace_id')
      .execute();
    expect(totals.map((row) => [Number(row.workspace_id), Number(row.clicks), Number(row.leads)])).toEqual([
      [lowest, 3, 1],
      [other, 1, 1],
    ]);
  });

  it('0023 keeps the cubes of an instance whose events are all of one workspace, in that workspace', async () => {
    const opened = await openMigrated(BEFORE_0023);
    const any = opened.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const now = '2026-11-01T00:00:00.000Z';
    const { id } = await any
      .insertInto('workspaces')
      .values({ name: 'Only', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await any
      .insertInto('tracker_clicks')
      .values({ click_id: 'k1', created_at: now, campaign_external_id: 'c', visitor_id: 'v', reason: 'matched' })
      .execute();
    // Cube rows as the writer left them (not what one click adds: copied, not counted again).
    await any
      .insertInto('report_rollups')
      .values([
        { cube: 'all/day', bucket: '2026-11-01', k1: '', k2: '', clicks: 7, unique_clicks: 2, cost: 1.5, leads: 3 },
        {
          cube: 'country',
          bucket: '2026-11-01T00:00',
          k1: 'GB',
          k2: '',
          clicks: 7,
          unique_clicks: 2,
          cost: 1.5,
          leads: 3,
        },
      ])
      .execute();
    await migrateToLatest(opened);
    const rows = await opened.db
      .selectFrom('report_rollups')
      .select(['workspace_id', 'cube', 'k1', 'clicks', 'unique_clicks', 'cost', 'leads'])
      .orderBy('cube')
      .execute();
    expect(
      rows.map((row) => ({
        ...row,
        workspace_id: Number(row.workspace_id),
        clicks: Number(row.clicks),
        unique_clicks: Number(row.unique_clicks),
        leads: Number(row.leads),
      })),
    ).toEqual([
      { workspace_id: Number(id), cube: 'all/day', k1: '', clicks: 7, unique_clicks: 2, cost: 1.5, leads: 3 },
      { workspace_id: Number(id), cube: 'country', k1: 'GB', clicks: 7, unique_clicks: 2, cost: 1.5, leads: 3 },
    ]);
  });

  it("stores a journal line written before 0023 in its campaign's workspace", async () => {
    const opened = await openMigrated();
    const any = opened.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const now = '2026-11-01T00:00:00.000Z';
    const ids: number[] = [];
    for (const name of ['A', 'B']) {
      const row = await any
        .insertInto('workspaces')
        .values({ name, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(Number(row.id));
    }
    await any
      .insertInto('config_records')
      .values({
        kind: 'tracker-campaigns',
        external_id: 'tc-b',
        workspace_id: ids[1]!,
        name: 'b',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const click = (id: string, campaign: string) =>
      eventLine('tracker_clicks', {
        click_id: id,
        created_at: now,
        campaign_external_id: campaign,
        visitor_id: 'v',
        is_unique: 0,
        vars: '{}',
        cost: 0,
        is_bot: 0,
        reason: 'matched',
        workspace_id: 0,
      });
    // A line of an earlier version ends before its workspace (`n0;`, the last value written here).
    const older = (line: string) => {
      expect(line.endsWith('n0;')).toBe(true);
      return line.slice(0, -'n0;'.length);
    };
    const lines = [older(click('j1', 'tc-b')), older(click('j2', 'unknown')), click('j3', 'tc-b')];
    // As the journal's replay stores them (engine-store.ts, replayJournal).
    const batches = payloadBatches(eventPayload(['tracker_clicks', 'tracker_clicks', 'tracker_clicks'], lines));
    if (opened.sqlite) new SqliteEventStore(opened.sqlite).write(batches);
    else {
      const rows = rowObjects('tracker_clicks', batches[0]!.rows) as NewTrackerClick[];
      await storeEventRows(opened.db, rows, []);
    }
    const rows = await opened.db.selectFrom('tracker_clicks').select(['click_id', 'workspace_id']).execute();
    expect(Object.fromEntries(rows.map((row) => [row.click_id, Number(row.workspace_id)]))).toEqual({
      j1: ids[1],
      j2: ids[0],
      j3: ids[1],
    });
  });
});
