import { type ReportResponse, ZReportQuery } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { ReportsService } from '../src/reports/service.js';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { DESKTOP, GB_IP, GOOGLEBOT, HOME_IP, IPHONE } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// "Bots stay out of the headline numbers": clicks, unique clicks, CR, EPC and CPC count human
// clicks unless a report asks `include_bots=true`; every row says its `bot_clicks`; "Update cost" spreads
// the amount over human clicks. Read from the cubes and from the events alike. On SQLite and PostgreSQL.

forEachDatabase('reports without and with bots', (db) => {
  let app: FastifyInstance;
  let token: string;
  let workspaceId: number;
  let campaign: StoredRecord;
  const clock = Date.parse('2026-11-10T12:00:00.000Z');

  async function click(ip: string, userAgent: string, subaff: string) {
    const response = await app.inject({
      method: 'GET',
      url: `/c/${campaign.external_id}?subaff=${subaff}`,
      remoteAddress: ip,
      headers: { 'user-agent': userAgent },
    });
    expect(response.statusCode, response.body).toBe(302);
    return new URL(String(response.headers.location)).searchParams.get('c')!;
  }

  /** The API's report (cubes where they hold it), checked against the events alone. */
  async function report(input: Record<string, string>): Promise<ReportResponse> {
    const response = await app.inject({
      method: 'GET',
      url: `/api/reports?${new URLSearchParams(input)}`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    const fromApi = response.json<ReportResponse>();
    const fromEvents = await new ReportsService(app.store.db, { rollups: false }).run(
      ZReportQuery.parse({ limit: 0, ...input }),
      { workspaceId },
    );
    expect(fromApi.totals).toEqual(fromEvents.totals);
    expect(fromApi.list).toEqual(fromEvents.list);
    return fromApi;
  }

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
      engine: { now: () => new Date(clock), outbound: { intervalMs: 0 } },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const workspace = await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow();
    workspaceId = Number(workspace.id);
    const sale = await createRecord(app, token, 'postback-events', { status_values: ['sale'] });
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    campaign = await createRecord(app, token, 'tracker-campaigns', {
      flow_external_id: flow.external_id,
      cost_model: 'CPC',
      cost: 0.5,
      postback_events: [{ postback_event_external_id: sale.external_id, is_conversion: true }],
      payout_rule_sets: [{ id: 'rs', postback_event_external_id: sale.external_id, default_payout: 6, rules: [] }],
    });
    // Three humans (three unique visitors, on home connections) and two bots (two unique visitors).
    const human = await click(GB_IP, IPHONE, 's1');
    await click(GB_IP, DESKTOP, 's1');
    await click(HOME_IP, IPHONE, 's2');
    await click('203.0.113.7', GOOGLEBOT, 's1');
    await click('203.0.113.8', GOOGLEBOT, 's2');
    await app.engine.flush();
    const postback = await app.inject({
      method: 'GET',
      url: `${await postbackPath(app)}?clickid=${human}&status=sale&txid=t1`,
    });
    expect(postback.statusCode, postback.body).toBe(200);
    await app.engine.flush();
  });

  it('leaves bots out of clicks, unique clicks, CR, EPC and CPC, and counts them apart', async () => {
    // By campaign: from a cube; by subaff: from the events.
    for (const group of ['campaign', 'subaff']) {
      const { totals } = await report({ group_by: group });
      expect(totals).toMatchObject({
        clicks: 3,
        unique_clicks: 3,
        bot_clicks: 2,
        conversions: 1,
        revenue: 6,
        // Every click's cost stays in cost: the bots were routed and paid for.
        cost: 2.5,
        cr: Math.round((1 / 3) * 100 * 1e6) / 1e6,
        epc: 2,
        cpc: Math.round((2.5 / 3) * 1e6) / 1e6,
      });
    }
    const bySubaff = await report({ group_by: 'subaff' });
    expect(bySubaff.list.map((row) => [row.subaff, row.clicks, row.bot_clicks])).toEqual([
      ['s1', 2, 1],
      ['s2', 1, 1],
    ]);
  });

  it('counts bots in with include_bots=true', async () => {
    for (const group of ['campaign', 'subaff']) {
      const { totals } = await report({ group_by: group, include_bots: 'true' });
      expect(totals).toMatchObject({
        clicks: 5,
        unique_clicks: 5,
        bot_clicks: 2,
        cost: 2.5,
        cr: 20,
        epc: 1.2,
        cpc: 0.5,
      });
    }
    // Ordered by clicks, bots in or out.
    const out = await report({ group_by: 'subaff', order_by: 'clicks', order: 'asc' });
    expect(out.list.map((row) => row.subaff)).toEqual(['s2', 's1']);
    const both = await report({ group_by: 'subaff', order_by: 'bot_clicks', order: 'desc', include_bots: 'true' });
    expect(both.list.map((row) => [row.subaff, row.clicks])).toEqual([
      ['s1', 3],
      ['s2', 2],
    ]);
  });

  it('refuses an include_bots that is not true or false', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/reports?group_by=campaign&include_bots=yes',
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json<{ errors: Record<string, string[]> }>().errors)).toEqual(['include_bots']);
  });

  it('spreads "Update cost" over the human clicks only', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `/api/tracker/campaigns/${campaign.external_id}/costs`,
      headers: bearer(token),
      payload: { start: '2026-11-10', end: '2026-11-10', timezone: 'UTC', amount: 9 },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ clicks: 3 });
    const clicks = await app.store.db.selectFrom('tracker_clicks').select(['is_bot', 'cost']).execute();
    expect(clicks.map((row) => [Number(row.is_bot), Number(row.cost)]).sort()).toEqual([
      [0, 3],
      [0, 3],
      [0, 3],
      [1, 0],
      [1, 0],
    ]);
    for (const group of ['campaign', 'subaff']) {
      const { totals } = await report({ group_by: group });
      expect(totals).toMatchObject({ clicks: 3, cost: 9, cpc: 3 });
    }
  });
});
