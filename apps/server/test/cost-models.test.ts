import { type ClickEvent, type ConversionEvent, type ReportResponse, ZReportQuery } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { ReportsService } from '../src/reports/service.js';
import { autoCost } from '../src/store/cost-models.js';
import { eventLine, payloadBatches, rowObjects } from '../src/store/traffic/sqlite-events.js';
import { VISITOR_COLUMNS } from '../src/store/visitor-columns.js';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { DESKTOP, GB_IP } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, expectError, forEachDatabase, login } from './harness.js';

// The cost models. Auto reads each click's cost from the traffic source's cost parameter (a
// missing or invalid value is 0, flagged on the click); CPA costs `cost` per approved conversion, and
// RevShare `cost` % of the approved conversions' payout, moving with each conversion's state. Reports
// read the same cost from the rollups and from the events. Conversions count at their click's time by
// default, or at their postback's. On SQLite and PostgreSQL.

describe('a click cost read off its URL (Auto)', () => {
  it('takes a plain decimal from 0 to 1,000,000 and flags anything else as 0', () => {
    expect(autoCost('0.05')).toEqual({ cost: 0.05, flag: null });
    expect(autoCost('0,004')).toEqual({ cost: 0.004, flag: null });
    expect(autoCost('.5')).toEqual({ cost: 0.5, flag: null });
    expect(autoCost('12')).toEqual({ cost: 12, flag: null });
    expect(autoCost(undefined)).toEqual({ cost: 0, flag: 'missing' });
    expect(autoCost('')).toEqual({ cost: 0, flag: 'missing' });
    for (const bad of ['abc', '-1', '1e308', 'Infinity', 'NaN', '{cost}', '2000000', '0x10', '1.2.3']) {
      expect(autoCost(bad), bad).toEqual({ cost: 0, flag: 'invalid' });
    }
  });
});

describe('a journal line written before cost_flag existed', () => {
  const row = {
    click_id: 'old-click',
    created_at: '2026-11-10T00:00:00.000Z',
    campaign_external_id: 'c',
    visitor_id: 'v',
    reason: 'matched',
    cost: 0.25,
    cost_flag: 'invalid',
    workspace_id: 0,
  };
  // The columns of migration 0017 follow cost_flag; a click without them writes each as null (`_`); then
  // its workspace (0023), 0 here.
  const visitorTail = `${'_'.repeat(VISITOR_COLUMNS.length)}n0;`;

  it('reads with the new column at its default', () => {
    const line = eventLine('tracker_clicks', row);
    // The line as the earlier version wrote it: the same values without the last ones (`cost_flag` on).
    expect(line.endsWith(`7:invalid${visitorTail}`)).toBe(true);
    const old = line.slice(0, -`7:invalid${visitorTail}`.length);
    const [batch] = payloadBatches(`c${old.length}:${old}`);
    const [stored] = rowObjects('tracker_clicks', batch!.rows);
    expect(stored).toMatchObject({ click_id: 'old-click', cost: 0.25, cost_flag: null, reason: 'matched' });
  });

  it('reads a line written before the visitor columns with them empty', () => {
    const line = eventLine('tracker_clicks', row);
    const old = line.slice(0, -visitorTail.length);
    const [batch] = payloadBatches(`c${old.length}:${old}`);
    const [stored] = rowObjects('tracker_clicks', batch!.rows);
    expect(stored).toMatchObject({ cost_flag: 'invalid', region: null, asn: null, bot_reason: null });
  });
});

forEachDatabase('cost models', (db) => {
  let app: FastifyInstance;
  let token: string;
  let clock = Date.parse('2026-11-10T10:00:00.000Z');
  let workspaceId: number;
  let source: StoredRecord;
  let flow: StoredRecord;
  let path: string;

  const at = (iso: string) => {
    clock = Date.parse(iso);
  };

  const campaignOf = (cost_model: string, cost = 0) =>
    createRecord(app, token, 'tracker-campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
      cost_model,
      cost,
    });

  async function click(campaign: StoredRecord, query = ''): Promise<string> {
    const response = await app.inject({
      method: 'GET',
      url: `/c/${campaign.external_id}${query ? `?${query}` : ''}`,
      remoteAddress: GB_IP,
      headers: { 'user-agent': DESKTOP },
    });
    expect(response.statusCode, response.body).toBe(302);
    return new URL(String(response.headers.location)).searchParams.get('c')!;
  }

  async function postback(query: string) {
    const response = await app.inject({ method: 'GET', url: `${path}?${query}` });
    expect(response.statusCode, response.body).toBe(200);
  }

  /** The report from the API, checked against one read from the events alone. */
  async function report(campaign: StoredRecord, extra: Record<string, string> = {}): Promise<ReportResponse> {
    const input = {
      group_by: 'campaign',
      filters: JSON.stringify({ campaign: String(campaign.external_id) }),
      ...extra,
    };
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
    return fromApi;
  }

  const costOf = async (campaign: StoredRecord) => (await report(campaign)).totals.cost;

  async function events<Row>(kind: string, query: Record<string, string>): Promise<{ list: Row[]; total: number }> {
    const response = await app.inject({
      method: 'GET',
      url: `/api/events/${kind}?${new URLSearchParams(query)}`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ list: Row[]; total: number }>();
  }

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
      engine: { now: () => new Date(clock), outbound: { intervalMs: 0 } },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const workspace = await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow();
    workspaceId = Number(workspace.id);
    path = await postbackPath(app);
    source = await createRecord(app, token, 'traffic-sources', { cost_parameter: 'cost' });
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
  });

  it("refuses a cost parameter that is not a URL parameter's name", async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/traffic-sources',
      headers: bearer(token),
      payload: { name: 'Bad cost parameter', cost_parameter: 'cost paid!' },
    });
    expect(expectError(response, 400).errors?.cost_parameter).toEqual(['Use letters, digits, _, -, . and [ ].']);
  });

  it('Auto: each click costs its cost parameter; a missing or invalid one costs 0 and is flagged', async () => {
    const campaign = await campaignOf('Auto');
    at('2026-11-10T10:00:00.000Z');
    const paid = await click(campaign, 'cost=0.0125');
    const comma = await click(campaign, 'cost=0,5');
    const missing = await click(campaign);
    const invalid = await click(campaign, 'cost=-3');
    const huge = await click(campaign, 'cost=1e308');
    await app.engine.flush();
    expect(await costOf(campaign)).toBe(0.5125);

    const list = await events<ClickEvent>('clicks', {
      filters: JSON.stringify({ campaign: String(campaign.external_id) }),
      limit: '50',
    });
    const byId = new Map(list.list.map((row) => [row.click_id, row]));
    expect(byId.get(paid)).toMatchObject({ cost: 0.0125, cost_flag: null });
    expect(byId.get(comma)).toMatchObject({ cost: 0.5, cost_flag: null });
    expect(byId.get(missing)).toMatchObject({ cost: 0, cost_flag: 'missing' });
    expect(byId.get(invalid)).toMatchObject({ cost: 0, cost_flag: 'invalid' });
    expect(byId.get(huge)).toMatchObject({ cost: 0, cost_flag: 'invalid' });
  });

  it('CPA: costs its price per approved conversion, following each state move', async () => {
    const campaign = await campaignOf('CPA', 2);
    at('2026-11-10T11:00:00.000Z');
    const [first, second, third] = [await click(campaign), await click(campaign), await click(campaign)];
    await app.engine.flush();
    expect(await costOf(campaign)).toBe(0);

    await postback(`clickid=${first}&payout=10&status=pending&txid=a`);
    expect(await costOf(campaign)).toBe(0);
    await postback(`clickid=${first}&status=approved&txid=a`);
    expect(await costOf(campaign)).toBe(2);
    await postback(`clickid=${second}&payout=5&status=approved&txid=b`);
    // A duplicate adds nothing.
    await postback(`clickid=${second}&payout=5&status=approved&txid=b`);
    await postback(`clickid=${third}&payout=5&status=rejected&txid=c`);
    expect(await costOf(campaign)).toBe(4);
    const approved = await report(campaign);
    expect(approved.totals).toMatchObject({ approved: 2, revenue_confirmed: 15, cost: 4, profit: 11 });

    // A rejection takes back what the approval added.
    await postback(`clickid=${first}&status=rejected&txid=a`);
    expect(await costOf(campaign)).toBe(2);
    const clicks = await events<ClickEvent>('clicks', {
      filters: JSON.stringify({ campaign: String(campaign.external_id) }),
    });
    expect(new Map(clicks.list.map((row) => [row.click_id, row.cost]))).toEqual(
      new Map([
        [first, 0],
        [second, 2],
        [third, 0],
      ]),
    );
    // What ClickHouse is sent for each (columnar/clickhouse-feed.ts): the cost it was stored with, its
    // changes apart. The third was never moved. SQLite feeds no ClickHouse and keeps none.
    const stored = await app.store.db
      .selectFrom('tracker_clicks')
      .select(['click_id', 'original_cost'])
      .where('click_id', 'in', [first!, second!, third!])
      .execute();
    expect(new Map(stored.map((row) => [row.click_id, row.original_cost]))).toEqual(
      new Map([
        [first, db.kind === 'postgres' ? 0 : null],
        [second, db.kind === 'postgres' ? 0 : null],
        [third, null],
      ]),
    );
    const conversions = await events<ConversionEvent>('conversions', {
      filters: JSON.stringify({ campaign: String(campaign.external_id) }),
      state: 'all',
    });
    expect(conversions.list.map((row) => [row.click_id, row.state, row.cost]).sort()).toEqual(
      [
        [first, 'rejected', 0],
        [second, 'approved', 2],
        [third, 'rejected', 0],
      ].sort(),
    );
  });

  it('RevShare: costs its percent of the approved payout, the final amount when the approval sends one', async () => {
    const campaign = await campaignOf('RevShare', 40);
    at('2026-11-10T12:00:00.000Z');
    const [first, second] = [await click(campaign), await click(campaign)];
    await app.engine.flush();
    await postback(`clickid=${first}&payout=10&status=approved&txid=a`);
    expect(await costOf(campaign)).toBe(4);
    await postback(`clickid=${second}&payout=20&status=pending&txid=b`);
    expect(await costOf(campaign)).toBe(4);
    // Approved at a different amount than the pending one: the share is of the amount approved.
    await postback(`clickid=${second}&payout=12.5&status=approved&txid=b`);
    expect(await costOf(campaign)).toBe(9);
    expect((await report(campaign)).totals).toMatchObject({ revenue_confirmed: 22.5, cost: 9, profit: 13.5 });
  });

  it('a CPC campaign keeps its click cost whatever its conversions do', async () => {
    const campaign = await campaignOf('CPC', 0.3);
    at('2026-11-10T13:00:00.000Z');
    const id = await click(campaign);
    await app.engine.flush();
    await postback(`clickid=${id}&payout=10&status=approved&txid=a`);
    await postback(`clickid=${id}&status=rejected&txid=a`);
    expect(await costOf(campaign)).toBe(0.3);
  });

  it('attributes conversions to their click time by default, or to their postback time', async () => {
    const campaign = await campaignOf('CPC', 1);
    at('2026-11-14T22:00:00.000Z');
    const id = await click(campaign);
    await app.engine.flush();
    at('2026-11-16T09:00:00.000Z');
    await postback(`clickid=${id}&payout=7&status=approved&txid=late`);

    const day = (extra: Record<string, string>) =>
      report(campaign, { group_by: 'day', date_from: '2026-11-14', date_to: '2026-11-16', ...extra });
    const byClick = await day({});
    expect(byClick.list.map((row) => [row.day, row.clicks, row.conversions, row.revenue])).toEqual([
      ['2026-11-14', 1, 1, 7],
    ]);
    const byPostback = await day({ attribution: 'postback' });
    expect(byPostback.list.map((row) => [row.day, row.clicks, row.conversions, row.revenue])).toEqual([
      ['2026-11-14', 1, 0, 0],
      ['2026-11-16', 0, 1, 7],
    ]);
    // The conversion's event list agrees with each way, day by day.
    const listed = async (date: string, attribution: string) =>
      (
        await events<ConversionEvent>('conversions', {
          filters: JSON.stringify({ campaign: String(campaign.external_id) }),
          date_from: date,
          date_to: date,
          attribution,
        })
      ).list.map((row) => row.click_id);
    expect(await listed('2026-11-14', 'click')).toEqual([id]);
    expect(await listed('2026-11-16', 'click')).toEqual([]);
    expect(await listed('2026-11-14', 'postback')).toEqual([]);
    expect(await listed('2026-11-16', 'postback')).toEqual([id]);
    const [row] = (
      await events<ConversionEvent>('conversions', {
        filters: JSON.stringify({ campaign: String(campaign.external_id) }),
      })
    ).list;
    expect(row).toMatchObject({ event_at: '2026-11-14T22:00:00.000Z', created_at: '2026-11-16T09:00:00.000Z' });

    const bad = await app.inject({
      method: 'GET',
      url: '/api/reports?group_by=day&attribution=whenever',
      headers: bearer(token),
    });
    expect(Object.keys(expectError(bad, 400).errors ?? {})).toEqual(['attribution']);
  });
});
