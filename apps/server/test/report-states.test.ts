import { REPORT_METRICS, type ReportMetric, type ReportResponse, type ReportRow } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { DESKTOP, US_IP } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// Reports count conversions by state. Conversions and revenue are pending + approved; approved,
// pending and rejected count each state; revenue_confirmed and roi_confirmed are approved only. Clicks are
// sent over HTTP; conversions are written straight to the table in each state (a postback's way there is
// the postback tests' business). On SQLite and PostgreSQL.

type State = 'pending' | 'approved' | 'rejected';

const NEW_FIGURES = ['approved', 'pending', 'rejected', 'revenue_confirmed', 'roi_confirmed'] as const;

forEachDatabase('report figures by conversion state', (db) => {
  let app: FastifyInstance;
  let token: string;
  let cheap: StoredRecord;
  let dear: StoredRecord;
  let conversionCount = 0;

  async function clicks(campaign: StoredRecord, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const response = await app.inject({
        method: 'GET',
        url: `/c/${campaign.external_id}`,
        remoteAddress: US_IP,
        headers: { 'user-agent': DESKTOP },
      });
      expect(response.statusCode, response.body).toBe(302);
      ids.push(new URL(String(response.headers.location)).searchParams.get('c')!);
    }
    return ids;
  }

  async function conversion(
    campaign: StoredRecord,
    clickId: string,
    state: State,
    payout: number,
    { counts = true, at = '2026-11-10T12:00:00.000Z' } = {},
  ) {
    conversionCount += 1;
    const txid = `tx-${conversionCount}`;
    // As a postback stores it: in its campaign's workspace (the scoped store reads conversions by it).
    const { workspace_id } = await app.store.db
      .selectFrom('config_records')
      .select('workspace_id')
      .where('kind', '=', 'tracker-campaigns')
      .where('external_id', '=', String(campaign.external_id))
      .executeTakeFirstOrThrow();
    await app.store.db
      .insertInto('conversions')
      .values({
        conversion_id: `conv-${conversionCount}`,
        created_at: at,
        updated_at: at,
        click_id: clickId,
        campaign_external_id: String(campaign.external_id),
        country: 'US',
        status: state,
        is_conversion: counts ? 1 : 0,
        payout,
        revenue: payout,
        currency: 'USD',
        txid,
        raw: JSON.stringify({ clickid: clickId, status: state, payout, txid }),
        state,
        event_key: '',
        txid_key: txid,
        // Every click of this suite happens at the engine's clock.
        event_at: '2026-11-10T10:00:00.000Z',
        workspace_id,
      })
      .execute();
  }

  async function report(query: string): Promise<ReportResponse> {
    // This file's clicks come from a datacenter address: bots', counted in.
    const response = await app.inject({
      method: 'GET',
      url: `/api/reports?include_bots=true&${query}`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ReportResponse>();
  }

  const figuresOf = (row: ReportRow | undefined) =>
    Object.fromEntries(REPORT_METRICS.map((metric) => [metric, row?.[metric]]));

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
      engine: { now: () => new Date('2026-11-10T10:00:00.000Z'), outbound: { intervalMs: 0 } },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const source = await createRecord(app, token, 'traffic-sources');
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    const campaignOf = (cost: number) =>
      createRecord(app, token, 'tracker-campaigns', {
        traffic_source_external_id: source.external_id,
        flow_external_id: flow.external_id,
        cost_model: 'CPC',
        cost,
      });
    cheap = await campaignOf(0.5);
    dear = await campaignOf(2);

    // cheap: 4 clicks (cost 2); dear: 2 clicks (cost 4). Without a cookie, each visitor is a new one.
    const [c1, c2, c3, c4] = await clicks(cheap, 4);
    const [d1, d2] = await clicks(dear, 2);
    await app.engine.flush();

    await conversion(cheap, c1!, 'pending', 10);
    await conversion(cheap, c2!, 'approved', 20);
    await conversion(cheap, c3!, 'approved', 5);
    await conversion(cheap, c4!, 'rejected', 7);
    // Events that are not conversions: counted in no state, but their payout is revenue unless rejected.
    await conversion(cheap, c1!, 'approved', 3, { counts: false });
    await conversion(cheap, c2!, 'rejected', 100, { counts: false });
    await conversion(dear, d1!, 'pending', 1);
    await conversion(dear, d2!, 'rejected', 50);
    await conversion(dear, d1!, 'rejected', 6);
    // Two days after its click: that day has revenue and no cost.
    await conversion(dear, d2!, 'approved', 6, { at: '2026-11-12T09:00:00.000Z' });
  });

  it('counts each state, and revenue, profit and ROI of pending and approved or approved only', async () => {
    const { list, total, totals } = await report('group_by=campaign');
    expect(total).toBe(2);
    const rows = new Map(list.map((row) => [row.campaign, row]));
    expect(figuresOf(rows.get(String(cheap.external_id)))).toEqual({
      clicks: 4,
      // One visitor (one address and agent) clicks every time: unique once per campaign.
      unique_clicks: 1,
      leads: 0,
      conversions: 3,
      approved: 2,
      pending: 1,
      rejected: 1,
      revenue: 38,
      revenue_confirmed: 28,
      cost: 2,
      profit: 36,
      roi: 1800,
      roi_confirmed: 1300,
      cr: 75,
      epc: 9.5,
      cpc: 0.5,
      cpa: 0.666667,
      // The datacenter address's clicks are bots', counted in here.
      bot_clicks: 4,
      // No lander in these paths.
      lp_clicks: 0,
      lp_ctr: 0,
    });
    expect(figuresOf(rows.get(String(dear.external_id)))).toEqual({
      clicks: 2,
      unique_clicks: 1,
      leads: 0,
      conversions: 2,
      approved: 1,
      pending: 1,
      rejected: 2,
      revenue: 7,
      revenue_confirmed: 6,
      cost: 4,
      profit: 3,
      roi: 75,
      roi_confirmed: 50,
      cr: 100,
      epc: 3.5,
      cpc: 2,
      cpa: 2,
      // The datacenter address's clicks are bots', counted in here.
      bot_clicks: 2,
      // No lander in these paths.
      lp_clicks: 0,
      lp_ctr: 0,
    });
    expect(totals).toEqual({
      clicks: 6,
      unique_clicks: 2,
      leads: 0,
      conversions: 5,
      approved: 3,
      pending: 2,
      rejected: 3,
      revenue: 45,
      revenue_confirmed: 34,
      cost: 6,
      profit: 39,
      roi: 650,
      roi_confirmed: 466.666667,
      cr: 83.333333,
      epc: 7.5,
      cpc: 1,
      cpa: 1.2,
      // The datacenter address's clicks are bots', counted in here.
      bot_clicks: 6,
      // No lander in these paths.
      lp_clicks: 0,
      lp_ctr: 0,
    });
  });

  it('gives the same figures whatever the grouping, and 0 for ROI without cost', async () => {
    const byCampaign = await report('group_by=campaign');
    for (const query of ['group_by=day', 'group_by=country,offer', 'group_by=device']) {
      expect((await report(query)).totals, query).toEqual(byCampaign.totals);
    }
    // Attributed to their clicks' day (the default), every conversion is on 2026-11-10.
    const clickDays = (await report('group_by=day')).list;
    expect(clickDays.map((row) => [row.day, row.conversions, row.approved])).toEqual([['2026-11-10', 5, 3]]);
    const days = new Map((await report('group_by=day&attribution=postback')).list.map((row) => [row.day, row]));
    expect(days.get('2026-11-10')).toMatchObject({ conversions: 4, approved: 2, revenue_confirmed: 28, cost: 6 });
    // By postback time, a day with a conversion and no click: no cost, so both ROIs are 0.
    expect(days.get('2026-11-12')).toMatchObject({
      conversions: 1,
      approved: 1,
      pending: 0,
      rejected: 0,
      revenue: 6,
      revenue_confirmed: 6,
      cost: 0,
      profit: 6,
      roi: 0,
      roi_confirmed: 0,
    });
    const narrowed = await report(
      `group_by=day&filters=${encodeURIComponent(JSON.stringify({ campaign: String(dear.external_id) }))}`,
    );
    expect(narrowed.totals).toMatchObject({ approved: 1, pending: 1, rejected: 2, revenue_confirmed: 6 });
  });

  it('sorts by each new figure, both ways', async () => {
    const order = async (metric: ReportMetric, direction: 'asc' | 'desc') =>
      (await report(`group_by=campaign&order_by=${metric}&order=${direction}`)).list.map((row) => row.campaign);
    expect(await order('approved', 'desc')).toEqual([cheap.external_id, dear.external_id]);
    expect(await order('approved', 'asc')).toEqual([dear.external_id, cheap.external_id]);
    expect(await order('rejected', 'desc')).toEqual([dear.external_id, cheap.external_id]);
    expect(await order('rejected', 'asc')).toEqual([cheap.external_id, dear.external_id]);
    expect(await order('revenue_confirmed', 'desc')).toEqual([cheap.external_id, dear.external_id]);
    expect(await order('roi_confirmed', 'asc')).toEqual([dear.external_id, cheap.external_id]);
    for (const metric of NEW_FIGURES) {
      for (const direction of ['asc', 'desc'] as const) {
        const { list } = await report(`group_by=campaign&order_by=${metric}&order=${direction}`);
        const values = list.map((row) => row[metric]);
        const sorted = [...values].sort((a, b) => (direction === 'asc' ? a - b : b - a));
        expect(values, `${metric} ${direction}`).toEqual(sorted);
      }
    }
  });

  it('refuses to sort by an unknown figure', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/reports?group_by=campaign&order_by=approved_revenue',
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(400);
  });
});
