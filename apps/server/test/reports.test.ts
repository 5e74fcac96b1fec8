import { REPORT_FILTER_GROUPS, REPORT_METRICS, type ReportResponse, type ReportRow } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { countryIn, DE_IP, DESKTOP, GB_IP, IPHONE, US_IP } from './fixtures/traffic.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  bearer,
  createUserWithPermissions,
  expectError,
  forEachDatabase,
  login,
} from './harness.js';

// Reports agree exactly with the events written — clicks, leads and
// postbacks sent over HTTP at known times, then grouped by campaign, offer, country and day (in a
// timezone whose days are not UTC's). On SQLite and PostgreSQL.

forEachDatabase('reports', (db) => {
  let app: FastifyInstance;
  let token: string;
  let clock = Date.parse('2026-11-10T03:00:00.000Z');
  let campaign: StoredRecord;
  let apiCampaign: StoredRecord;
  let offerGb: StoredRecord;
  let offerRest: StoredRecord;
  let apiOffer: StoredRecord;
  let network: StoredRecord;

  const at = (iso: string) => {
    clock = Date.parse(iso);
  };

  async function click(ip: string, userAgent: string, query = '', cookie?: string) {
    const response = await app.inject({
      method: 'GET',
      url: `/c/${campaign.external_id}?${query}`,
      remoteAddress: ip,
      headers: { 'user-agent': userAgent, ...(cookie ? { cookie } : {}) },
    });
    expect(response.statusCode, response.body).toBe(302);
    const clickId = new URL(String(response.headers.location)).searchParams.get('c')!;
    expect(clickId).toBeTruthy();
    const setCookies = [response.headers['set-cookie'] ?? []].flat();
    return { clickId, cookie: setCookies.map((value) => value.split(';')[0]).join('; ') };
  }

  async function lead(email: string, ip: string) {
    const response = await app.inject({
      method: 'POST',
      url: `/v1/campaigns/${apiCampaign.external_id}/leads`,
      headers: { 'x-api-key': String(apiCampaign.ingest_token) },
      payload: { email, ip, user_agent: DESKTOP, vars: { subaff: 'api-sub' } },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ lead_id: string }>().lead_id;
  }

  async function postback(query: string) {
    const response = await app.inject({ method: 'GET', url: `${await postbackPath(app)}?${query}` });
    expect(response.statusCode, response.body).toBe(200);
  }

  // US_IP and DE_IP are datacenter addresses, so their clicks have a bot verdict: this file checks reports
  // against every stored event, bots counted in (report-bots.test.ts checks them left out).
  async function report(query: string, authToken = token) {
    return app.inject({ method: 'GET', url: `/api/reports?include_bots=true&${query}`, headers: bearer(authToken) });
  }

  async function reportOk(query: string): Promise<ReportResponse> {
    const response = await report(query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ReportResponse>();
  }

  const byValue = (list: ReportRow[], group: string) =>
    new Map<unknown, ReportRow>(list.map((row) => [row[group], row]));

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
      engine: { now: () => new Date(clock), outbound: { intervalMs: 0 } },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    network = await createRecord(app, token, 'affiliate-networks');
    const sale = await createRecord(app, token, 'postback-events', { status_values: ['approved', 'sale'] });
    const source = await createRecord(app, token, 'traffic-sources');
    offerGb = await createRecord(app, token, 'tracker-offers', {
      url: 'https://gb.example/?c={clickid}',
      affiliate_network_external_id: network.external_id,
    });
    offerRest = await createRecord(app, token, 'tracker-offers', { url: 'https://rest.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        {
          id: 'rg-gb',
          name: 'Britain',
          condition: countryIn('GB'),
          paths: [{ id: 'rp-gb', name: 'GB path', offers: [{ id: 'o1', offer_external_id: offerGb.external_id }] }],
        },
        {
          id: 'rg-rest',
          name: 'Rest',
          paths: [{ id: 'rp-rest', offers: [{ id: 'o2', offer_external_id: offerRest.external_id }] }],
        },
      ],
    });
    const postbackEvents = [{ postback_event_external_id: sale.external_id, is_conversion: true }];
    const payoutRules = [
      {
        id: 'rs',
        postback_event_external_id: sale.external_id,
        default_payout: 2,
        rules: [{ id: 'r-gb', payout: 5, priority: 1, condition: countryIn('GB') }],
      },
    ];
    campaign = await createRecord(app, token, 'tracker-campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
      cost_model: 'CPC',
      cost: 0.25,
      postback_events: postbackEvents,
      payout_rule_sets: payoutRules,
    });
    apiOffer = await createRecord(app, token, 'offers', { url: 'https://api.example/?l={lead_id}' });
    const apiFlow = await createRecord(app, token, 'flows', {
      path_groups: [{ id: 'ag', name: 'All', paths: [{ id: 'ap', offer_external_id: apiOffer.external_id }] }],
    });
    apiCampaign = await createRecord(app, token, 'campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: apiFlow.external_id,
      postback_events: postbackEvents,
      payout_rule_sets: payoutRules,
    });

    // New York days: 11-09 (22:00), 11-10 (07:00, 07:00, 23:30), 11-11 (07:00).
    at('2026-11-10T03:00:00.000Z');
    const gb = await click(GB_IP, IPHONE, 'subaff=s1&var1=zone-1');
    at('2026-11-10T12:00:00.000Z');
    const us = await click(US_IP, DESKTOP, 'subaff=s2');
    await click(DE_IP, DESKTOP);
    await click(GB_IP, IPHONE, 'subaff=s1', gb.cookie); // the same visitor again: not unique
    const firstLead = await lead('one@example.org', US_IP);
    await lead('two@example.org', DE_IP);
    at('2026-11-11T04:30:00.000Z');
    await click(US_IP, IPHONE);
    at('2026-11-11T12:00:00.000Z');
    await app.engine.flush();
    await postback(`clickid=${gb.clickId}&payout=9&status=approved&txid=t1`); // GB rule: 5
    await postback(`clickid=${us.clickId}&status=sale&txid=t2`); // default: 2
    await postback(`clickid=${us.clickId}&status=sale&txid=t2`); // duplicate: not counted
    await postback(`lead_id=${firstLead}&status=sale&txid=t3`); // default: 2
    await app.engine.flush();
  });

  it('groups by campaign: the figures are the events sent, totals and definitions included', async () => {
    const { list, total, totals } = await reportOk('group_by=campaign');
    expect(total).toBe(2);
    const rows = byValue(list, 'campaign');
    expect(rows.get(campaign.external_id)).toMatchObject({
      campaign_name: campaign.name,
      label: campaign.name,
      clicks: 5,
      unique_clicks: 4,
      leads: 0,
      conversions: 2,
      revenue: 7,
      cost: 1.25,
      profit: 5.75,
      roi: 460,
      cr: 40,
      epc: 1.4,
    });
    expect(rows.get(apiCampaign.external_id)).toMatchObject({
      campaign_name: apiCampaign.name,
      clicks: 0,
      leads: 2,
      conversions: 1,
      revenue: 2,
      cost: 0,
      profit: 2,
      roi: 0, // no cost: 0, not a division by zero
      cr: 50,
      epc: 1,
    });
    // Every postback here is a sale: approved, so the confirmed figures are the same.
    expect(totals).toEqual({
      clicks: 5,
      unique_clicks: 4,
      leads: 2,
      conversions: 3,
      approved: 3,
      pending: 0,
      rejected: 0,
      revenue: 9,
      revenue_confirmed: 9,
      cost: 1.25,
      profit: 7.75,
      roi: 620,
      roi_confirmed: 620,
      cr: Math.round((3 / 7) * 100 * 1e6) / 1e6,
      epc: Math.round((9 / 7) * 1e6) / 1e6,
      // Cost per click (and lead), and per conversion.
      cpc: Math.round((1.25 / 7) * 1e6) / 1e6,
      cpa: Math.round((1.25 / 3) * 1e6) / 1e6,
      // The three clicks from the datacenter addresses (US_IP, DE_IP), counted in clicks here.
      bot_clicks: 3,
      // No lander in these paths.
      lp_clicks: 0,
      lp_ctr: 0,
    });
  });

  it('agrees with the stored rows, whatever the group', async () => {
    const clicks = await app.store.db.selectFrom('tracker_clicks').selectAll().execute();
    const conversions = await app.store.db.selectFrom('conversions').selectAll().execute();
    expect(clicks).toHaveLength(5);
    expect(conversions).toHaveLength(3);
    const { list } = await reportOk('group_by=offer&limit=0');
    const rows = byValue(list, 'offer');
    for (const offer of [offerGb, offerRest]) {
      const mine = clicks.filter((row) => row.offer_external_id === offer.external_id);
      const converted = conversions.filter((row) => row.offer_external_id === offer.external_id);
      expect(rows.get(offer.external_id)).toMatchObject({
        offer_name: offer.name,
        clicks: mine.length,
        unique_clicks: mine.filter((row) => row.is_unique === 1).length,
        cost: mine.reduce((sum, row) => sum + Number(row.cost), 0),
        conversions: converted.length,
        revenue: converted.reduce((sum, row) => sum + Number(row.payout), 0),
      });
    }
    expect(rows.get(offerGb.external_id)).toMatchObject({ clicks: 2, conversions: 1, revenue: 5 });
    expect(rows.get(offerRest.external_id)).toMatchObject({ clicks: 3, conversions: 1, revenue: 2 });
    expect(rows.get(apiOffer.external_id)).toMatchObject({ leads: 2, conversions: 1, revenue: 2 });
  });

  it('groups by country, device and several names at once', async () => {
    const countries = byValue((await reportOk('group_by=country')).list, 'country');
    expect(countries.get('GB')).toMatchObject({ clicks: 2, unique_clicks: 1, conversions: 1, revenue: 5 });
    expect(countries.get('US')).toMatchObject({ clicks: 2, leads: 1, conversions: 2, revenue: 4 });
    expect(countries.get('DE')).toMatchObject({ clicks: 1, leads: 1, conversions: 0, revenue: 0 });

    // Conversions take the device of the click or lead they convert.
    const devices = byValue((await reportOk('group_by=device')).list, 'device');
    expect(devices.get('mobile')).toMatchObject({ clicks: 3, conversions: 1, revenue: 5 });

    const pair = await reportOk('group_by=campaign,country&order_by=clicks&order=desc');
    expect(pair.total).toBe(5);
    expect(pair.list[0]).toMatchObject({ campaign: campaign.external_id, clicks: 2 });
    expect(pair.list.map((row) => row.clicks)).toEqual([2, 2, 1, 0, 0]);

    const paths = byValue((await reportOk('group_by=path_group')).list, 'path_group');
    expect(paths.get('rg-gb')).toMatchObject({ path_group_name: 'Britain', clicks: 2 });

    const networks = byValue((await reportOk('group_by=affiliate_network')).list, 'affiliate_network');
    expect(networks.get(network.external_id)).toMatchObject({ affiliate_network_name: network.name, clicks: 2 });

    const vars = await reportOk(`group_by=subaff&vars=${encodeURIComponent('{"var1":"zone-1"}')}`);
    expect(vars.list).toEqual([expect.objectContaining({ subaff: 's1', clicks: 1, conversions: 1 })]);
  });

  it('groups by day in the chosen timezone, within the date range', async () => {
    // Conversions on their clicks' days (the default attribution), or on their postbacks'.
    const york = await reportOk('group_by=day&timezone=America/New_York');
    expect(york.list.map((row) => [row.day, row.clicks, row.leads, row.conversions])).toEqual([
      ['2026-11-09', 1, 0, 1],
      ['2026-11-10', 4, 2, 2],
    ]);
    const byPostback = await reportOk('group_by=day&timezone=America/New_York&attribution=postback');
    expect(byPostback.list.map((row) => [row.day, row.clicks, row.leads, row.conversions])).toEqual([
      ['2026-11-09', 1, 0, 0],
      ['2026-11-10', 4, 2, 0],
      ['2026-11-11', 0, 0, 3],
    ]);
    expect(byPostback.totals).toEqual(york.totals);
    const utc = await reportOk('group_by=day');
    expect(utc.list.map((row) => [row.day, row.clicks])).toEqual([
      ['2026-11-10', 4],
      ['2026-11-11', 1],
    ]);
    const range = await reportOk('group_by=day&timezone=America/New_York&date_from=2026-11-10&date_to=2026-11-10');
    expect(range.list.map((row) => row.day)).toEqual(['2026-11-10']);
    expect(range.totals).toMatchObject({ clicks: 4, leads: 2, conversions: 2 });
    const postbackRange = await reportOk(
      'group_by=day&timezone=America/New_York&date_from=2026-11-10&date_to=2026-11-10&attribution=postback',
    );
    expect(postbackRange.totals).toMatchObject({ clicks: 4, leads: 2, conversions: 0 });
    // The spec's names for the range, and hours.
    const hours = await reportOk('group_by=hour&start_date=2026-11-10&end_date=2026-11-10&timezone=America/New_York');
    expect(hours.list.map((row) => [row.hour, row.hour_name, row.clicks])).toEqual([
      ['07', '07:00', 3],
      ['23', '23:00', 1],
    ]);
  });

  it('searches the labels, orders and pages', async () => {
    const found = await reportOk(`group_by=campaign&search_text=${encodeURIComponent(apiCampaign.name.slice(-8))}`);
    expect(found.list.map((row) => row.campaign)).toEqual([apiCampaign.external_id]);
    expect(found.totals).toMatchObject({ clicks: 0, leads: 2 });

    const all = await reportOk('group_by=country&order_by=clicks&order=desc&limit=0');
    const first = await reportOk('group_by=country&order_by=clicks&order=desc&limit=2&page=1');
    const second = await reportOk('group_by=country&order_by=clicks&order=desc&limit=2&page=2');
    expect(first.total).toBe(all.total);
    expect(first.list).toHaveLength(2);
    expect([...first.list, ...second.list]).toEqual(all.list);
    expect(first.totals).toEqual(all.totals);
  });

  const filtersOf = (filters: Record<string, unknown>) => `filters=${encodeURIComponent(JSON.stringify(filters))}`;

  it('narrows to one value of a group: a campaign row drills down to its offers', async () => {
    const offers = await reportOk(`group_by=offer&${filtersOf({ campaign: campaign.external_id })}`);
    expect(offers.list.map((row) => [row.offer, row.clicks, row.conversions, row.revenue]).sort()).toEqual(
      [
        [offerGb.external_id, 2, 1, 5],
        [offerRest.external_id, 3, 1, 2],
      ].sort(),
    );
    expect(offers.totals).toMatchObject({ clicks: 5, leads: 0, conversions: 2, revenue: 7 });

    // Several filters at once, with vars and a search; clicks and leads by their offer's network.
    const narrowed = await reportOk(
      `group_by=country&${filtersOf({ campaign: campaign.external_id, affiliate_network: network.external_id })}`,
    );
    expect(narrowed.list.map((row) => [row.country, row.clicks, row.conversions, row.revenue])).toEqual([
      ['GB', 2, 1, 5],
    ]);
    const withVars = await reportOk(
      `group_by=device&${filtersOf({ offer: offerGb.external_id })}&vars=${encodeURIComponent('{"var1":"zone-1"}')}`,
    );
    expect(withVars.list).toEqual([expect.objectContaining({ device: 'mobile', clicks: 1, conversions: 1 })]);

    // null: the rows labelled "(none)". Leads have no lander, and this flow sends clicks to no lander.
    const noLander = await reportOk(`group_by=campaign&${filtersOf({ lander: null })}`);
    expect(noLander.totals).toMatchObject({ clicks: 5, leads: 2, conversions: 3 });
    const someLander = await reportOk(`group_by=campaign&${filtersOf({ lander: 'lander-x' })}`);
    expect(someLander).toMatchObject({ list: [], total: 0, totals: { clicks: 0, leads: 0, conversions: 0 } });
  });

  it('filters agree with grouping: each row of a group is what filtering on its value gives', async () => {
    for (const group of REPORT_FILTER_GROUPS) {
      const { list } = await reportOk(`group_by=${group}&limit=0`);
      expect(list.length, group).toBeGreaterThan(0);
      for (const row of list) {
        const value = row[group] === null ? null : String(row[group]);
        const { totals } = await reportOk(`group_by=campaign&limit=0&${filtersOf({ [group]: value })}`);
        const expected = Object.fromEntries(REPORT_METRICS.map((metric) => [metric, row[metric]]));
        expect(totals, `${group} = ${value}`).toEqual(expected);
      }
    }
  });

  it('binds filter values, and refuses filters on unknown or time groups', async () => {
    const injected = await reportOk(`group_by=campaign&${filtersOf({ campaign: "x' or '1'='1" })}`);
    expect(injected.total).toBe(0);
    const networkInjected = await reportOk(`group_by=campaign&${filtersOf({ affiliate_network: "x') or ('1'='1" })}`);
    expect(networkInjected.totals).toMatchObject({ clicks: 0, leads: 0, conversions: 0 });

    const unknown = expectError(await report(`group_by=campaign&${filtersOf({ planet: 'mars' })}`), 400);
    expect(JSON.stringify(unknown.errors)).toContain('Cannot filter on planet');
    expectError(await report(`group_by=campaign&${filtersOf({ day: '2026-11-10' })}`), 400);
    expectError(await report('group_by=campaign&filters=%7Bnot-json'), 400);
    expectError(await report(`group_by=campaign&filters=${encodeURIComponent('{"campaign":5}')}`), 400);
  });

  it("says which source answered and why (meta.source and meta.source_reason), beside the vars' names", async () => {
    // A cube holds every campaign: the rollups answer the clicks and leads.
    const byCampaign = await reportOk('group_by=campaign');
    expect(byCampaign.meta).toMatchObject({ labels: {}, source: 'rollups' });
    expect(byCampaign.meta?.source_reason).toMatch(/^The rollups keep every column and filter of this report/);
    // No cube keeps subaff: the event tables, or on SQLite the engine's DuckDB store once it caught up.
    const bySubaff = await reportOk('group_by=subaff');
    expect(db.kind === 'sqlite' ? ['events', 'duckdb'] : ['events']).toContain(bySubaff.meta?.source);
    expect(bySubaff.meta?.source_reason).toContain('no rollup keeps subaff');
    // Without the money permission the figures lose their money, the meta nothing.
    const analyst = await createUserWithPermissions(app, token, ['/tracker/reports/get']);
    const plain = await report('group_by=campaign', analyst.token);
    expect(plain.statusCode, plain.body).toBe(200);
    // (On SQLite the conversions may come from DuckDB by now: the reason names where from.)
    const { meta } = plain.json<ReportResponse>();
    expect(meta).toMatchObject({ labels: {}, source: 'rollups' });
    expect(meta?.source_reason).toMatch(/^The rollups keep every column and filter of this report/);
  });

  it('needs the reports permission, and refuses unknown groups', async () => {
    const outsider = await createUserWithPermissions(app, token, ['/tracker/campaign/get']);
    expectError(await report('group_by=campaign', outsider.token), 403);
    const analyst = await createUserWithPermissions(app, token, ['/tracker/reports/get']);
    expect((await report('group_by=campaign', analyst.token)).statusCode).toBe(200);
    expectError(await app.inject({ method: 'GET', url: '/api/reports?group_by=campaign' }), 401);

    const bad = expectError(await report('group_by=campaign,planet'), 400);
    expect(JSON.stringify(bad.errors)).toContain('Cannot group by planet');
    expectError(await report(''), 400);
    expectError(await report('group_by=day&timezone=Mars/Base'), 400);
    expectError(await report('group_by=day&date_from=2026-11-12&date_to=2026-11-10'), 400);
    expectError(await report('group_by=day&vars=%7B%22email%22%3A%22x%22%7D'), 400);
  });
});
