import type { CustomMetric, ReportResponse, ReportRow } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { DE_IP } from './fixtures/traffic.js';
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

// Custom metrics: formulas over a report's figures, checked on save, computed for every row and
// the totals of the acting workspace's reports, sortable, and masked like money when they read money.

type Figures = Record<string, number>;

forEachDatabase('custom metrics', (db) => {
  let app: FastifyInstance;
  let token: string;
  let clock = Date.parse('2026-06-01T09:00:00.000Z');
  let converting: StoredRecord;
  let idle: StoredRecord;
  let otherWorkspace: number;
  let masked: TestUser;
  let reader: TestUser;
  let rpm: CustomMetric;
  let approval: CustomMetric;

  async function send(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    options: { as?: string; payload?: unknown; acting?: number } = {},
  ) {
    return app.inject({
      method,
      url,
      headers: {
        ...bearer(options.as ?? token),
        ...(options.acting !== undefined ? { 'x-workspace': String(options.acting) } : {}),
      },
      ...(options.payload !== undefined ? { payload: options.payload as object } : {}),
    });
  }

  async function report(query: string, as = token, acting?: number): Promise<ReportResponse> {
    // The clicks here come without a user agent from a datacenter: bots, counted in.
    const response = await send('GET', `/api/reports?include_bots=true&${query}`, { as, acting });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ReportResponse>();
  }

  async function click(campaign: StoredRecord): Promise<string> {
    clock += 1000;
    const clicked = await app.inject({ method: 'GET', url: `/c/${campaign.external_id}`, remoteAddress: DE_IP });
    expect(clicked.statusCode, clicked.body).toBe(302);
    return new URL(String(clicked.headers.location)).searchParams.get('c')!;
  }

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
      engine: { now: () => new Date(clock) },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const sale = await createRecord(app, token, 'postback-events', { status_values: ['approved'] });
    const source = await createRecord(app, token, 'traffic-sources', {});
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    const campaign = (name: string) =>
      createRecord(app, token, 'tracker-campaigns', {
        name,
        traffic_source_external_id: source.external_id,
        flow_external_id: flow.external_id,
        postback_events: [{ postback_event_external_id: sale.external_id, is_conversion: true }],
        payout_rule_sets: [{ id: 'rs', postback_event_external_id: sale.external_id, default_payout: 4.5, rules: [] }],
      });
    converting = await campaign('Converting');
    idle = await campaign('Idle');
    for (const txid of ['t-1', 't-2']) {
      const clickId = await click(converting);
      const posted = await app.inject({
        method: 'GET',
        url: `${await postbackPath(app)}?clickid=${clickId}&payout=10&status=approved&txid=${txid}`,
        remoteAddress: '203.0.113.7',
      });
      expect(posted.statusCode, posted.body).toBe(200);
    }
    for (let n = 0; n < 3; n += 1) await click(idle);
    // Clicks answered are stored before the reports read them.
    await app.engine.flush();

    const workspace = await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow();
    const member = { workspaces: [workspace.id] };
    masked = await createUserWithPermissions(app, token, ['/tracker/reports/get', '/tracker/campaign/update'], member);
    reader = await createUserWithPermissions(app, token, ['/tracker/reports/get'], member);
    const made = await send('POST', '/api/workspaces', { payload: { name: `Other ${Date.now()}` } });
    expect(made.statusCode, made.body).toBe(201);
    otherWorkspace = made.json<{ id: number }>().id;
  });

  it('saves formulas, keyed from their names', async () => {
    const first = await send('POST', '/api/report-metrics', {
      payload: { name: 'RPM', formula: 'revenue / clicks * 1000' },
    });
    expect(first.statusCode, first.body).toBe(201);
    rpm = first.json<CustomMetric>();
    expect(rpm).toMatchObject({ key: 'cm_rpm', name: 'RPM', formula: 'revenue / clicks * 1000', money: true });
    const second = await send('POST', '/api/report-metrics', {
      payload: { name: 'Approval rate', formula: 'approved / conversions' },
    });
    expect(second.statusCode, second.body).toBe(201);
    approval = second.json<CustomMetric>();
    expect(approval).toMatchObject({ key: 'cm_approval_rate', money: false });
    const again = await send('POST', '/api/report-metrics', { payload: { name: 'RPM', formula: 'clicks' } });
    expect(again.json<CustomMetric>().key).toBe('cm_rpm_2');
    expect((await send('DELETE', `/api/report-metrics/${again.json<CustomMetric>().id}`)).statusCode).toBe(204);

    const listed = await send('GET', '/api/report-metrics', { as: reader.token });
    expect(listed.statusCode).toBe(200);
    expect(listed.json<{ list: CustomMetric[] }>().list.map((metric) => metric.key)).toEqual([
      'cm_rpm',
      'cm_approval_rate',
    ]);
  });

  it('refuses a bad formula with its position, and a missing or long name', async () => {
    const bad = expectError(
      await send('POST', '/api/report-metrics', { payload: { name: 'Bad', formula: 'revenue / clickz' } }),
      400,
    );
    expect(bad.errors?.formula?.[0]).toMatch(/at position 11/);
    const unbalanced = expectError(
      await send('PUT', `/api/report-metrics/${rpm.id}`, { payload: { name: 'RPM', formula: '(revenue' } }),
      400,
    );
    expect(unbalanced.errors?.formula?.[0]).toMatch(/position 9/);
    const unnamed = expectError(
      await send('POST', '/api/report-metrics', { payload: { name: ' ', formula: 'clicks' } }),
      400,
    );
    expect(Object.keys(unnamed.errors ?? {})).toEqual(['name']);
    expectError(
      await send('POST', '/api/report-metrics', { payload: { name: 'x'.repeat(101), formula: 'clicks' } }),
      400,
    );
  });

  it('needs a write permission to change metrics', async () => {
    const refused = await send('POST', '/api/report-metrics', {
      as: reader.token,
      payload: { name: 'Mine', formula: 'clicks' },
    });
    expect(refused.statusCode).toBe(403);
    expect((await send('DELETE', `/api/report-metrics/${rpm.id}`, { as: reader.token })).statusCode).toBe(403);
  });

  it('computes each metric for every row and the totals from their figures', async () => {
    const expected = (figures: Figures) => ({
      cm_rpm: figures.clicks === 0 ? 0 : Math.round((figures.revenue! / figures.clicks!) * 1000 * 1e6) / 1e6,
      cm_approval_rate: figures.conversions === 0 ? 0 : figures.approved! / figures.conversions!,
    });
    const answer = await report('group_by=campaign');
    expect(answer.list).toHaveLength(2);
    for (const figures of [...answer.list, answer.totals] as Figures[]) {
      expect(figures).toMatchObject(expected(figures));
    }
    const row = (id: unknown) => answer.list.find((one) => one.campaign === id) as ReportRow;
    expect(row(converting.external_id)).toMatchObject({ clicks: 2, revenue: 9, cm_rpm: 4500, cm_approval_rate: 1 });
    expect(row(idle.external_id)).toMatchObject({ clicks: 3, cm_rpm: 0, cm_approval_rate: 0 });
    expect(answer.totals).toMatchObject({ clicks: 5, cm_rpm: 1800, cm_approval_rate: 1 });
  });

  it('sorts by a custom metric, and refuses an unknown one', async () => {
    const descending = await report('group_by=campaign&order_by=cm_rpm&order=desc');
    expect(descending.list.map((row) => row.campaign)).toEqual([converting.external_id, idle.external_id]);
    const ascending = await report('group_by=campaign&order_by=cm_rpm&order=asc');
    expect(ascending.list.map((row) => row.campaign)).toEqual([idle.external_id, converting.external_id]);
    expectError(await send('GET', '/api/reports?group_by=campaign&order_by=cm_nothing'), 400);
    expectError(await send('GET', '/api/reports?group_by=campaign&order_by=nothing'), 400);
  });

  it('follows an edited formula under the same key', async () => {
    const edited = await send('PUT', `/api/report-metrics/${approval.id}`, {
      payload: { name: 'Approval %', formula: '(approved / conversions) * 100' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<CustomMetric>()).toMatchObject({ key: 'cm_approval_rate', name: 'Approval %' });
    expect((await report('group_by=campaign')).totals).toMatchObject({ cm_approval_rate: 100 });
  });

  it('masks a metric that reads money for a user without the money permission', async () => {
    const answer = await report('group_by=campaign', masked.token);
    for (const figures of [...answer.list, answer.totals]) {
      expect(figures).not.toHaveProperty('cm_rpm');
      expect(figures).toHaveProperty('cm_approval_rate');
    }
    const refused = expectError(
      await send('GET', '/api/reports?group_by=campaign&order_by=cm_rpm', { as: masked.token }),
      400,
    );
    expect(Object.keys(refused.errors ?? {})).toEqual(['order_by']);
    expect((await report('group_by=campaign&order_by=cm_approval_rate', masked.token)).list).toHaveLength(2);
  });

  it("keeps each workspace's metrics to itself", async () => {
    for (const method of ['PUT', 'DELETE'] as const) {
      const response = await send(method, `/api/report-metrics/${rpm.id}`, {
        acting: otherWorkspace,
        payload: method === 'PUT' ? { name: 'Stolen', formula: 'clicks' } : undefined,
      });
      expect(response.statusCode, `${method}: ${response.body}`).toBe(404);
    }
    const listed = await send('GET', '/api/report-metrics', { acting: otherWorkspace });
    expect(listed.json<{ list: CustomMetric[] }>().list).toEqual([]);
    const other = await report('group_by=campaign', token, otherWorkspace);
    expect(other.totals).not.toHaveProperty('cm_rpm');
    expectError(await send('GET', '/api/reports?group_by=campaign&order_by=cm_rpm', { acting: otherWorkspace }), 400);
    expect((await send('GET', '/api/report-metrics')).json<{ list: CustomMetric[] }>().list).toHaveLength(2);
    expect((await send('DELETE', '/api/report-metrics/999999')).statusCode).toBe(404);
  });
});
