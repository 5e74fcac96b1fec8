import { type ReportResponse, type TReportQuery, ZReportQuery } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ClickHouseNode, startClickHouse } from '../src/columnar/clickhouse-node.js';
import { DuckDBStore } from '../src/columnar/duckdb.js';
import { ColumnarFollower } from '../src/columnar/follower.js';
import type { ColumnarReader } from '../src/report-plan/columnar-reader.js';
import { ReportsService } from '../src/reports/service.js';
import { backfillRollups } from '../src/store/report-rollups-repair.js';
import { reachable, runUrl } from './clickhouse-support.js';
import { eventually } from './eventually.js';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { DESKTOP, GB_IP, GOOGLEBOT, HOME_IP, IPHONE } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// Report rows gain `lp_clicks` (clicks whose visitor followed the lander's offer link, once per
// click) and `lp_ctr` (lp_clicks / clicks sent to a lander × 100, rounded as cr). Three human clicks go to
// a lander; two follow the offer link (one of them twice), the third is only looked at by a link checker
// (HEAD); a bot follows it too, counted with include_bots only. Read from the cubes, the event tables, and
// the columnar store (DuckDB on SQLite, ClickHouse on PostgreSQL), which get the lp clicks after they
// copied the clicks (as adjustment rows). On SQLite and PostgreSQL.

const HUMANS = { lp_clicks: 2, lp_ctr: 66.666667, clicks: 3 };
const WITH_BOTS = { lp_clicks: 3, lp_ctr: 75, clicks: 4 };

forEachDatabase('lp clicks and lp CTR', (db) => {
  let app: FastifyInstance;
  let token: string;
  let workspaceId: number;
  let campaign: StoredRecord;
  let duck: DuckDBStore | undefined;
  let node: ClickHouseNode | undefined;
  let columnar: ColumnarReader | undefined;
  const clock = Date.parse('2026-11-10T12:00:00.000Z');

  async function click(ip: string, userAgent: string, subaff: string): Promise<string> {
    const response = await app.inject({
      method: 'GET',
      url: `/c/${campaign.external_id}?subaff=${subaff}`,
      remoteAddress: ip,
      headers: { 'user-agent': userAgent },
    });
    expect(response.statusCode, response.body).toBe(302);
    const location = new URL(String(response.headers.location));
    expect(location.host).toBe('lander.example');
    return location.searchParams.get('c')!;
  }

  async function followOffer(clickId: string, method: 'GET' | 'HEAD' = 'GET', userAgent: string | null = IPHONE) {
    const response = await app.inject({
      method,
      url: `/c/${campaign.external_id}/offer?clickid=${clickId}`,
      headers: userAgent === null ? {} : { 'user-agent': userAgent },
    });
    expect(response.statusCode, response.body).toBe(302);
    expect(String(response.headers.location)).toBe(`https://offer.example/?c=${clickId}`);
  }

  const query = (input: Record<string, string>): TReportQuery => ZReportQuery.parse({ limit: 0, ...input });

  /** The API's report (cubes where they hold it), checked against the event tables and the columnar store. */
  async function report(input: Record<string, string>): Promise<ReportResponse> {
    const response = await app.inject({
      method: 'GET',
      url: `/api/reports?${new URLSearchParams(input)}`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    const fromApi = response.json<ReportResponse>();
    const scope = { workspaceId };
    const fromEvents = await new ReportsService(app.store.db, { rollups: false }).run(query(input), scope);
    expect(fromApi.totals).toEqual(fromEvents.totals);
    expect(fromApi.list).toEqual(fromEvents.list);
    if (columnar) {
      const fromColumns = await new ReportsService(app.store.db, { rollups: false, columnar }).run(query(input), scope);
      expect(fromColumns.totals).toEqual(fromEvents.totals);
      expect(fromColumns.list).toEqual(fromEvents.list);
    }
    return fromApi;
  }

  /**
   * On SQLite the app's own report engine follows the database too, and prunes the change log up to what
   * it copied. Its first catch-up (then a pruning) must be over before the lp clicks, so that the log still
   * holds them when this test's own store reads it: until the next pruning, a minute later at the soonest.
   */
  async function appColumnarReady(): Promise<void> {
    await eventually(
      async () => {
        const response = await app.inject({
          method: 'GET',
          url: '/api/reports?group_by=subaff',
          headers: bearer(token),
        });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<ReportResponse>().meta?.source === 'duckdb';
      },
      () => 'the report engine did not open its columnar store',
      { withinMs: 60_000 },
    );
  }

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
      engine: { now: () => new Date(clock), outbound: { intervalMs: 0 } },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    if (app.store.sqlite) await appColumnarReady();
    const workspace = await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow();
    workspaceId = Number(workspace.id);
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    const lander = await createRecord(app, token, 'tracker-landers', { url: 'https://lander.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        {
          id: 'g',
          name: 'All',
          paths: [
            {
              id: 'p',
              landers: [{ id: 'l', lander_external_id: lander.external_id }],
              offers: [{ id: 'o', offer_external_id: offer.external_id }],
            },
          ],
        },
      ],
    });
    campaign = await createRecord(app, token, 'tracker-campaigns', { flow_external_id: flow.external_id });
    const ids = [
      await click(GB_IP, IPHONE, 's1'),
      await click(GB_IP, DESKTOP, 's1'),
      await click(HOME_IP, IPHONE, 's2'),
      await click('203.0.113.7', GOOGLEBOT, 's2'),
    ];
    // The bot's visitor goes on before the columnar store copies the clicks (its row carries it), the
    // others after (their lp clicks reach it as adjustments).
    await followOffer(ids[3]!);
    await app.engine.flush();

    if (app.store.sqlite) {
      const store = await DuckDBStore.open(':memory:');
      duck = store;
      const follower = await ColumnarFollower.start(app.store.sqlite.name, store, { info: () => undefined });
      await follower.catchUp();
      columnar = {
        kind: 'duckdb',
        ready: true,
        conversions: true,
        catchUp: () => follower.catchUp(),
        aggregate: (plan) => store.aggregate(plan),
        report: (paged) => store.report(paged),
      };
    } else if (reachable) {
      node = startClickHouse(app.store.db, runUrl('lp'), { info: () => undefined, warn: () => undefined });
      await node.started;
      columnar = node.reader;
    }

    await followOffer(ids[0]!);
    await followOffer(ids[0]!);
    await followOffer(ids[1]!);
    // Link checkers: answered alike, nothing recorded.
    await followOffer(ids[2]!, 'HEAD');
    await followOffer(ids[2]!, 'GET', GOOGLEBOT);
    await followOffer(ids[2]!, 'GET', null);
    await followOffer(ids[3]!);
    await app.engine.flush();
    await followOffer(ids[1]!);
    await app.engine.flush();
  }, 120_000);

  afterAll(async () => {
    await duck?.close();
    if (node) {
      await node.close();
      await node.feed.store.client.execute(`DROP DATABASE IF EXISTS ${node.feed.store.client.target.database}`, {
        inDatabase: false,
      });
    }
  });

  it('records each click through its lander once, when its visitor follows the offer link', async () => {
    const rows = await app.store.db
      .selectFrom('tracker_clicks')
      .select(['subaff', 'is_bot', 'lp_clicked_at'])
      .orderBy('id')
      .execute();
    expect(rows.map((row) => [row.subaff, row.is_bot, row.lp_clicked_at])).toEqual([
      ['s1', 0, '2026-11-10T12:00:00.000Z'],
      ['s1', 0, '2026-11-10T12:00:00.000Z'],
      ['s2', 0, null],
      ['s2', 1, '2026-11-10T12:00:00.000Z'],
    ]);
    // Once each in the log the columnar stores follow.
    const logged = await app.store.db.selectFrom('tracker_click_cost_changes').select(['lp', 'delta']).execute();
    expect(logged.map((row) => [Number(row.lp), Number(row.delta)])).toEqual([
      [1, 0],
      [1, 0],
      [1, 0],
    ]);
  });

  it('reports lp_clicks and lp_ctr of human clicks from the cubes, the events and the columnar store', async () => {
    // By campaign and by lander: from a cube; by subaff: from the events (or the columnar store).
    for (const group of ['campaign', 'lander', 'subaff']) {
      const { totals } = await report({ group_by: group });
      expect(totals).toMatchObject(HUMANS);
    }
    const bySubaff = await report({ group_by: 'subaff', order_by: 'lp_ctr', order: 'desc' });
    expect(bySubaff.list.map((row) => [row.subaff, row.clicks, row.lp_clicks, row.lp_ctr])).toEqual([
      ['s1', 2, 2, 100],
      ['s2', 1, 0, 0],
    ]);
  });

  it('counts bots’ lp clicks with include_bots only', async () => {
    for (const group of ['campaign', 'subaff']) {
      const { totals } = await report({ group_by: group, include_bots: 'true' });
      expect(totals).toMatchObject(WITH_BOTS);
    }
    const bySubaff = await report({ group_by: 'subaff', include_bots: 'true', order_by: 'lp_clicks', order: 'asc' });
    expect(bySubaff.list.map((row) => [row.subaff, row.clicks, row.lp_clicks, row.lp_ctr])).toEqual([
      ['s2', 2, 1, 50],
      ['s1', 2, 2, 100],
    ]);
  });

  it('gives the same figures from cubes rebuilt from the events, and from lander counts filled as 0040 does', async () => {
    const cubes = async () =>
      (
        await app.store.db
          .selectFrom('report_rollups')
          .select([
            'cube',
            'bucket',
            'k1',
            'k2',
            'clicks',
            'lp_clicks',
            'bot_lp_clicks',
            'lander_clicks',
            'bot_lander_clicks',
          ])
          .orderBy(['cube', 'bucket', 'k1', 'k2'])
          .execute()
      ).map((row) => Object.values(row).map(String));
    const kept = await cubes();
    expect(kept.length).toBeGreaterThan(0);
    await app.store.db.deleteFrom('report_rollups').execute();
    await backfillRollups(app.store.db, true, 'with');
    expect(await cubes()).toEqual(kept);
    await app.store.db.updateTable('report_rollups').set({ lander_clicks: 0, bot_lander_clicks: 0 }).execute();
    await backfillRollups(app.store.db, true, 'landers');
    expect(await cubes()).toEqual(kept);
    expect((await report({ group_by: 'campaign' })).totals).toMatchObject(HUMANS);
  });
});
