import {
  type ClickEvent,
  type ConversionEvent,
  type LeadEvent,
  type ListResponse,
  MONEY_PERMISSION,
  type ReportResponse,
  type ReportRow,
} from '@switchyard/domain';
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
  type TestUser,
} from './harness.js';

// The event tables: `GET /api/events/clicks|leads|conversions` list single events under the
// report's filters, so the events behind a report row are exactly what the row counts (clicks, leads,
// conversions, the clicks' cost), on SQLite and PostgreSQL. Static paths beside the events resource's
// `/api/events/:id`; the acting workspace's events only; money only with its permission.

forEachDatabase('event tables', (db) => {
  let app: FastifyInstance;
  let token: string;
  let clock = Date.parse('2026-11-10T03:00:00.000Z');
  let campaign: StoredRecord;
  let other: StoredRecord;
  let apiCampaign: StoredRecord;
  let offerGb: StoredRecord;
  let masked: TestUser;
  let moneyed: TestUser;
  const clicks: string[] = [];

  const at = (iso: string) => {
    clock = Date.parse(iso);
  };

  async function click(on: StoredRecord, ip: string, userAgent: string, query = '') {
    const response = await app.inject({
      method: 'GET',
      url: `/c/${on.external_id}?${query}`,
      remoteAddress: ip,
      headers: { 'user-agent': userAgent },
    });
    expect(response.statusCode, response.body).toBe(302);
    const clickId = new URL(String(response.headers.location)).searchParams.get('c')!;
    clicks.push(clickId);
    return clickId;
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

  async function get<T>(url: string, as: string = token, headers: Record<string, string> = {}): Promise<T> {
    const response = await app.inject({ method: 'GET', url, headers: { ...bearer(as), ...headers } });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json<T>();
  }

  const events = <T>(kind: string, query: Record<string, string | number>, as?: string) =>
    get<ListResponse<T>>(
      `/api/events/${kind}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)] as [string, string]))}`,
      as,
    );

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
      engine: { now: () => new Date(clock), outbound: { intervalMs: 0 } },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const network = await createRecord(app, token, 'affiliate-networks');
    const sale = await createRecord(app, token, 'postback-events', { status_values: ['approved', 'sale'] });
    const source = await createRecord(app, token, 'traffic-sources');
    offerGb = await createRecord(app, token, 'tracker-offers', {
      url: 'https://gb.example/?c={clickid}',
      affiliate_network_external_id: network.external_id,
    });
    const offerRest = await createRecord(app, token, 'tracker-offers', { url: 'https://rest.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        {
          id: 'eg-gb',
          name: 'Britain',
          condition: countryIn('GB'),
          paths: [{ id: 'ep-gb', offers: [{ id: 'o1', offer_external_id: offerGb.external_id }] }],
        },
        {
          id: 'eg-rest',
          name: 'Rest',
          paths: [{ id: 'ep-rest', offers: [{ id: 'o2', offer_external_id: offerRest.external_id }] }],
        },
      ],
    });
    const postbackEvents = [{ postback_event_external_id: sale.external_id, is_conversion: true }];
    const payoutRules = [{ id: 'rs', postback_event_external_id: sale.external_id, default_payout: 3, rules: [] }];
    const tracker = (cost: number) => ({
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
      cost_model: 'CPC',
      cost,
      postback_events: postbackEvents,
      payout_rule_sets: payoutRules,
    });
    campaign = await createRecord(app, token, 'tracker-campaigns', tracker(0.25));
    other = await createRecord(app, token, 'tracker-campaigns', tracker(0.4));
    const apiOffer = await createRecord(app, token, 'offers', { url: 'https://api.example/?l={lead_id}' });
    const apiFlow = await createRecord(app, token, 'flows', {
      path_groups: [{ id: 'ag', name: 'All', paths: [{ id: 'ap', offer_external_id: apiOffer.external_id }] }],
    });
    apiCampaign = await createRecord(app, token, 'campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: apiFlow.external_id,
      postback_events: postbackEvents,
      payout_rule_sets: payoutRules,
    });
    const workspace = await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow();
    masked = await createUserWithPermissions(app, token, ['/tracker/reports/get'], { workspaces: [workspace.id] });
    moneyed = await createUserWithPermissions(app, token, ['/tracker/reports/get', MONEY_PERMISSION], {
      workspaces: [workspace.id],
    });

    at('2026-11-10T03:00:00.000Z');
    const gb = await click(campaign, GB_IP, IPHONE, 'subaff=s1&var1=zone-1');
    at('2026-11-10T12:00:00.000Z');
    const us = await click(campaign, US_IP, DESKTOP, 'subaff=s2');
    await click(campaign, DE_IP, DESKTOP);
    await click(other, GB_IP, DESKTOP, 'var1=zone-1');
    await click(other, US_IP, IPHONE);
    const firstLead = await lead('one@example.org', US_IP);
    await lead('two@example.org', DE_IP);
    at('2026-11-11T04:30:00.000Z');
    await click(campaign, US_IP, IPHONE);
    at('2026-11-11T12:00:00.000Z');
    await app.engine.flush();
    await postback(`clickid=${gb}&payout=9&status=approved&txid=t1`);
    await postback(`clickid=${us}&status=sale&txid=t2`);
    await postback(`clickid=${us}&status=sale&txid=t3`);
    await postback(`lead_id=${firstLead}&status=sale&txid=t4`);
    // A rejected conversion and a postback event that is not a conversion: in no `conversions` figure.
    for (const [id, state, counts] of [
      ['ev-rejected', 'rejected', 1],
      ['ev-registration', 'approved', 0],
    ] as const) {
      await app.store.db
        .insertInto('conversions')
        .values({
          conversion_id: id,
          created_at: '2026-11-11T12:00:00.000Z',
          updated_at: '2026-11-11T12:00:00.000Z',
          click_id: gb,
          campaign_external_id: String(campaign.external_id),
          country: 'GB',
          status: state,
          is_conversion: counts,
          payout: 1,
          revenue: 1,
          currency: 'USD',
          txid: id,
          raw: '{}',
          state,
          event_key: '',
          txid_key: id,
          // As a postback stores it: in its key's workspace (the scoped store reads conversions by it).
          workspace_id: workspace.id,
        })
        .execute();
    }
    // Later in UTC and New York alike: outside the ranges asked below.
    at('2026-11-13T12:00:00.000Z');
    await click(campaign, GB_IP, IPHONE);
    await app.engine.flush();
  });

  const range = { date_from: '2026-11-09', date_to: '2026-11-11', timezone: 'America/New_York' };

  it('serves the three tables on static paths while /api/events/:id still reads an event record', async () => {
    const record = await createRecord(app, token, 'events');
    const read = await get<Record<string, unknown>>(`/api/events/${record.id}`);
    expect(read.id).toBe(record.id);
    expect(read).not.toHaveProperty('list');
    const table = await get<ListResponse<ClickEvent>>('/api/events/clicks');
    expect(table.total).toBe(clicks.length);
    expect((await get<ListResponse<LeadEvent>>('/api/events/leads')).total).toBe(2);
    expect((await get<ListResponse<ConversionEvent>>('/api/events/conversions')).total).toBe(4);
    expect((await get<ListResponse<ConversionEvent>>('/api/events/conversions?state=all')).total).toBe(6);
    const rejected = await get<ListResponse<ConversionEvent>>('/api/events/conversions?state=rejected');
    expect(rejected.list.map((row) => row.conversion_id)).toEqual(['ev-rejected']);
  });

  it('lists clicks newest first with every stored field: routing reason, cost, bot flag, conversions', async () => {
    const { list, total } = await events<ClickEvent>('clicks', { limit: 3 });
    expect(total).toBe(clicks.length);
    expect(list).toHaveLength(3);
    const times = list.map((row) => row.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const page2 = await events<ClickEvent>('clicks', { limit: 3, page: 2 });
    const page3 = await events<ClickEvent>('clicks', { limit: 3, page: 3 });
    const ids = [...list, ...page2.list, ...page3.list].map((row) => row.click_id);
    expect(new Set(ids)).toEqual(new Set(clicks));

    const all = await events<ClickEvent>('clicks', { limit: 100 });
    const gb = all.list.find((row) => row.click_id === clicks[0])!;
    expect(gb).toMatchObject({
      campaign: { kind: 'tracker-campaigns', external_id: campaign.external_id, name: campaign.name },
      offer: { external_id: offerGb.external_id, name: offerGb.name },
      path_group_id: 'eg-gb',
      country: 'GB',
      subaff: 's1',
      var1: 'zone-1',
      cost: 0.25,
      is_bot: false,
      is_unique: true,
      reason: expect.any(String),
    });
    expect(gb.reason).not.toBe('');
    // Every stored conversion of the click, rejected and non-counting ones too, oldest first.
    expect(gb.conversions).toEqual([
      { conversion_id: expect.any(String), state: 'approved', payout: 3, created_at: expect.any(String) },
      { conversion_id: 'ev-rejected', state: 'rejected', payout: 1, created_at: '2026-11-11T12:00:00.000Z' },
      { conversion_id: 'ev-registration', state: 'approved', payout: 1, created_at: '2026-11-11T12:00:00.000Z' },
    ]);
    const us = all.list.find((row) => row.click_id === clicks[1])!;
    expect(us.conversions.map((conversion) => conversion.state)).toEqual(['approved', 'approved']);
  });

  it('lists leads and conversions with their fields, conversions with their click’s device and vars', async () => {
    const leads = await events<LeadEvent>('leads', range);
    expect(leads.total).toBe(2);
    expect(leads.list[0]).toMatchObject({
      campaign: { kind: 'campaigns', external_id: apiCampaign.external_id, name: apiCampaign.name },
      subaff: 'api-sub',
      decision: expect.any(String),
      email_domain: 'example.org',
    });
    const conversions = await events<ConversionEvent>('conversions', { ...range, limit: 10 });
    expect(conversions.total).toBe(4);
    const gb = conversions.list.find((row) => row.click_id === clicks[0])!;
    expect(gb).toMatchObject({
      campaign: { kind: 'tracker-campaigns', external_id: campaign.external_id },
      state: 'approved',
      payout: 3,
      revenue: 9,
      txid: 't1',
      var1: 'zone-1',
      device: expect.any(String),
      raw: expect.objectContaining({ txid: 't1' }),
    });
    expect(conversions.list.find((row) => row.lead_id !== null)?.campaign.kind).toBe('campaigns');
  });

  it('agrees row for row with reports grouped by campaign and by country: counts and cost', async () => {
    for (const group of ['campaign', 'country', 'offer']) {
      const report = await get<ReportResponse>(
        // The event lists show every click, bots' too: the report counts them in to compare.
        `/api/reports?${new URLSearchParams({ ...range, group_by: group, limit: '0', include_bots: 'true' })}`,
      );
      expect(report.list.length).toBeGreaterThan(1);
      let clickSum = 0;
      for (const row of report.list as ReportRow[]) {
        const query = { ...range, filters: JSON.stringify({ [group]: row[group] ?? null }), limit: 1000 };
        const rowClicks = await events<ClickEvent>('clicks', query);
        const rowLeads = await events<LeadEvent>('leads', query);
        const rowConversions = await events<ConversionEvent>('conversions', query);
        expect(rowClicks.total, `${group} ${row.label} clicks`).toBe(row.clicks);
        expect(rowClicks.list).toHaveLength(row.clicks);
        expect(rowLeads.total, `${group} ${row.label} leads`).toBe(row.leads);
        expect(rowConversions.total, `${group} ${row.label} conversions`).toBe(row.conversions);
        for (const state of ['approved', 'pending', 'rejected'] as const) {
          const listed = await events<ConversionEvent>('conversions', { ...query, state });
          expect(listed.total, `${group} ${row.label} ${state}`).toBe(row[state]);
        }
        const cost = rowClicks.list.reduce((sum, entry) => sum + (entry.cost ?? 0), 0);
        expect(cost).toBeCloseTo(row.cost, 6);
        clickSum += rowClicks.total;
      }
      expect(clickSum).toBe(report.totals.clicks);
    }
    // Two filters at once, and vars.
    const both = { ...range, filters: JSON.stringify({ campaign: campaign.external_id, country: 'US' }) };
    expect((await events<ClickEvent>('clicks', both)).total).toBe(2);
    const zone = { ...range, vars: JSON.stringify({ var1: 'zone-1' }) };
    expect((await events<ClickEvent>('clicks', zone)).total).toBe(2);
    expect((await events<ConversionEvent>('conversions', zone)).total).toBe(1);
  });

  it('leaves cost and payouts out without the money permission, and keeps them with it', async () => {
    const hidden = await events<ClickEvent>('clicks', { limit: 100 }, masked.token);
    expect(hidden.total).toBe(clicks.length);
    for (const row of hidden.list) {
      expect(row).not.toHaveProperty('cost');
      for (const conversion of row.conversions) expect(conversion).not.toHaveProperty('payout');
    }
    const hiddenConversions = await events<ConversionEvent>('conversions', {}, masked.token);
    for (const row of hiddenConversions.list) {
      expect(row).not.toHaveProperty('payout');
      expect(row).not.toHaveProperty('revenue');
    }
    const shown = await events<ClickEvent>('clicks', { limit: 100 }, moneyed.token);
    expect(shown.list.every((row) => typeof row.cost === 'number')).toBe(true);
  });

  it('shows nothing of another workspace, and refuses without the reports permission', async () => {
    const made = await app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: bearer(token),
      payload: { name: `Events elsewhere ${Math.random().toString(36).slice(2, 7)}` },
    });
    expect(made.statusCode, made.body).toBe(201);
    const elsewhere = { 'x-workspace': String(made.json<{ id: number }>().id) };
    for (const kind of ['clicks', 'leads', 'conversions']) {
      const page = await get<ListResponse<unknown>>(`/api/events/${kind}`, token, elsewhere);
      expect(page).toEqual({ list: [], total: 0 });
    }
    const stranger = await createUserWithPermissions(app, token, ['/tracker/campaign/get']);
    expectError(await app.inject({ method: 'GET', url: '/api/events/clicks', headers: bearer(stranger.token) }), 403);
  });

  it('validates the query like a report’s, and caps the page size', async () => {
    for (const query of [
      'limit=0',
      'limit=100000',
      'filters={"nope":"x"}',
      'date_from=2026-11-12&date_to=2026-11-10',
    ]) {
      expectError(await app.inject({ method: 'GET', url: `/api/events/clicks?${query}`, headers: bearer(token) }), 400);
    }
  });
});
