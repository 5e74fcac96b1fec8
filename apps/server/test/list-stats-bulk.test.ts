import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { DESKTOP } from './fixtures/traffic.js';
import {
  bearer,
  buildProxiedAdminApp,
  createUserWithPermissions,
  type DatabaseUnderTest,
  expectError,
  forEachDatabase,
} from './harness.js';

// Lists with `?stats=<period>`: each row's clicks, conversions, revenue, cost, profit and ROI, as the
// report grouped by that record says. `POST /api/{resource}/bulk`: enable, pause, archive, restore and
// move, answered per id, each through the service, permissions and history of one change.
// On SQLite and PostgreSQL.

type Stats = { clicks: number; conversions: number; revenue?: number; cost?: number; profit?: number; roi?: number };
type Listed = StoredRecord & { stats?: Stats };
type Results = { results: { id: string; ok: boolean; status: number; message?: string; errors?: object }[] };

forEachDatabase('list figures and bulk actions', (db: DatabaseUnderTest) => {
  let app: FastifyInstance;
  let token: string;
  let offer: StoredRecord;
  let busy: string;
  let quiet: string;
  let idle: string;
  let workspaceId: number;

  const call = (method: 'GET' | 'POST', url: string, payload?: object, as = token, headers = {}) =>
    app.inject({ method, url: `/api/${url}`, headers: { ...bearer(as), ...headers }, ...(payload ? { payload } : {}) });

  async function listed(url: string, as = token): Promise<Map<string, Listed>> {
    const response = await call('GET', url, undefined, as);
    expect(response.statusCode, response.body).toBe(200);
    return new Map(response.json<{ list: Listed[] }>().list.map((row) => [String(row.external_id), row]));
  }

  async function clickOn(campaign: string, ip: string): Promise<string> {
    const response = await app.inject({
      method: 'GET',
      url: `/c/${campaign}`,
      remoteAddress: ip,
      headers: { 'user-agent': DESKTOP },
    });
    return response.statusCode === 302 ? (new URL(String(response.headers.location)).searchParams.get('c') ?? '') : '';
  }

  beforeAll(async () => {
    ({ app, adminToken: token } = await buildProxiedAdminApp(db));
    workspaceId = (await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const sale = await createRecord(app, token, 'postback-events', { status_values: ['sale'], is_conversion: true });
    offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    const campaign = async () =>
      String(
        (
          await createRecord(app, token, 'tracker-campaigns', {
            flow_external_id: flow.external_id,
            cost_model: 'CPC',
            cost: 0.25,
            postback_events: [{ postback_event_external_id: sale.external_id, is_conversion: true }],
            payout_rule_sets: [
              { id: 'rs', postback_event_external_id: sale.external_id, default_payout: 4, rules: [] },
            ],
          })
        ).external_id,
      );
    [busy, quiet, idle] = [await campaign(), await campaign(), await campaign()];
    const clicks = [];
    for (let index = 1; index <= 4; index += 1) clicks.push(await clickOn(busy, `10.8.0.${index}`));
    await clickOn(quiet, '10.8.1.1');
    await app.engine.flush();
    const postback = await app.inject({
      method: 'GET',
      url: `${await postbackPath(app)}?clickid=${clicks[0]}&status=sale&txid=t1`,
    });
    expect(postback.statusCode, postback.body).toBe(200);
  });

  it("answers each campaign's and offer's figures for the period, as the report does", async () => {
    const campaigns = await listed('tracker/campaigns?stats=today&limit=0');
    expect(campaigns.get(busy)?.stats).toEqual({ clicks: 4, conversions: 1, revenue: 4, cost: 1, profit: 3, roi: 300 });
    expect(campaigns.get(quiet)?.stats).toMatchObject({
      clicks: 1,
      conversions: 0,
      revenue: 0,
      cost: 0.25,
      profit: -0.25,
    });
    expect(campaigns.get(idle)?.stats).toEqual({ clicks: 0, conversions: 0, revenue: 0, cost: 0, profit: 0, roi: 0 });
    const report = (await call('GET', 'reports?group_by=campaign&limit=0')).json<{ list: Record<string, unknown>[] }>();
    const quietRow = report.list.find((row) => row.campaign === quiet)!;
    expect(campaigns.get(quiet)?.stats?.roi).toBe(quietRow.roi);

    expect((await listed('tracker/offers?stats=last_7_days')).get(String(offer.external_id))?.stats).toMatchObject({
      clicks: 5,
      conversions: 1,
      revenue: 4,
    });
    // Nothing yesterday; no figures without ?stats.
    expect((await listed('tracker/campaigns?stats=yesterday')).get(busy)?.stats).toMatchObject({ clicks: 0 });
    expect((await listed('tracker/campaigns')).get(busy)?.stats).toBeUndefined();
  });

  it('leaves money out for a user without the money permission, and needs the right to read reports', async () => {
    const counter = await createUserWithPermissions(app, token, ['/tracker/campaign/get', '/tracker/reports/get'], {
      workspaces: [workspaceId],
    });
    expect((await listed('tracker/campaigns?stats=today', counter.token)).get(busy)?.stats).toEqual({
      clicks: 4,
      conversions: 1,
    });
    const lister = await createUserWithPermissions(app, token, ['/tracker/campaign/get'], {
      workspaces: [workspaceId],
    });
    expect((await call('GET', 'tracker/campaigns', undefined, lister.token)).statusCode).toBe(200);
    expectError(await call('GET', 'tracker/campaigns?stats=today', undefined, lister.token), 403);
    expect(expectError(await call('GET', 'tracker/campaigns?stats=forever'), 400).errors).toHaveProperty('stats');
    expect(
      expectError(await call('GET', 'tracker/campaigns?stats=today&stats_timezone=Mars/Base'), 400).errors,
    ).toHaveProperty('stats_timezone');
  });

  it('sorts by a figure across every page, and refuses a figure where the list shows none', async () => {
    const ids = async (url: string, as = token) => {
      const response = await call('GET', url, undefined, as);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ list: Listed[]; total: number }>();
    };
    const ours = (answer: { list: Listed[] }) =>
      answer.list.map((row) => String(row.external_id)).filter((id) => [busy, quiet, idle].includes(id));
    expect(ours(await ids('tracker/campaigns?stats=today&order_by=clicks&order=desc&limit=0'))).toEqual([
      busy,
      quiet,
      idle,
    ]);
    expect(ours(await ids('tracker/campaigns?stats=today&order_by=profit&order=asc&limit=0'))).toEqual([
      quiet,
      idle,
      busy,
    ]);
    // Sorted before paging: one row a page, the most clicks first.
    const first = await ids('tracker/campaigns?stats=today&order_by=clicks&order=desc&limit=1&page=1');
    const second = await ids('tracker/campaigns?stats=today&order_by=clicks&order=desc&limit=1&page=2');
    expect([first.list.map((row) => row.external_id), second.list.map((row) => row.external_id)]).toEqual([
      [busy],
      [quiet],
    ]);
    expect(first.total).toBe((await ids('tracker/campaigns?limit=0')).total);

    expect(expectError(await call('GET', 'tracker/campaigns?order_by=clicks'), 400).errors).toEqual({
      order_by: ['Sorting by clicks needs the period of the figures (?stats=).'],
    });
    expect(expectError(await call('GET', 'tracker/flows?order_by=roi'), 400).errors).toEqual({
      order_by: ['This list has no figures to sort by roi.'],
    });
    expect(expectError(await call('GET', 'tracker/campaigns?order_by=payout'), 400).errors).toHaveProperty('order_by');
    const counter = await createUserWithPermissions(app, token, ['/tracker/campaign/get', '/tracker/reports/get'], {
      workspaces: [workspaceId],
    });
    expect(ours(await ids('tracker/campaigns?stats=today&order_by=conversions&order=desc', counter.token))[0]).toBe(
      busy,
    );
    expect(
      expectError(await call('GET', 'tracker/campaigns?stats=today&order_by=profit', undefined, counter.token), 400)
        .errors,
    ).toEqual({ order_by: ['Sorting by profit needs the permission to see money (/tracker/reports/money).'] });
  });

  it('pauses and enables campaigns per id, each kept in history, and a paused campaign takes no clicks', async () => {
    const paused = await call('POST', 'tracker/campaigns/bulk', {
      action: 'pause',
      ids: [busy, quiet, 'NoSuchCampaign'],
    });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json<Results>().results).toEqual([
      { id: busy, ok: true, status: 200 },
      { id: quiet, ok: true, status: 200 },
      { id: 'NoSuchCampaign', ok: false, status: 404, message: 'Not found' },
    ]);
    expect((await listed('tracker/campaigns')).get(busy)?.enabled).toBe(false);
    expect(await clickOn(busy, '10.8.2.1')).toBe('');
    const [latest] = (await call('GET', `history?resource=tracker/campaigns&id=${busy}`)).json<{
      list: { id: number; action: string }[];
    }>().list;
    expect(latest?.action).toBe('update');
    const detail = (await call('GET', `history/${latest?.id}`)).json<{
      before: { enabled?: boolean };
      after: { enabled?: boolean };
    }>();
    expect([detail.before.enabled, detail.after.enabled]).toEqual([true, false]);

    const enabled = await call('POST', 'tracker/campaigns/bulk', { action: 'enable', ids: [busy, quiet] });
    expect(enabled.json<Results>().results.map((result) => result.ok)).toEqual([true, true]);
    expect(await clickOn(busy, '10.8.2.2')).not.toBe('');
  });

  it('archives per id: a record in use is refused (409) unless forced, and restores', async () => {
    const spare = await createRecord(app, token, 'tracker-offers', { url: 'https://spare.example/' });
    const archived = await call('POST', 'tracker/offers/bulk', {
      action: 'archive',
      ids: [offer.external_id, spare.external_id],
    });
    expect(archived.json<Results>().results.map(({ ok, status }) => [ok, status])).toEqual([
      [false, 409],
      [true, 200],
    ]);
    const forced = await call('POST', 'tracker/offers/bulk', {
      action: 'archive',
      ids: [offer.external_id],
      force: true,
    });
    expect(forced.json<Results>().results[0]).toMatchObject({ ok: true });
    const restored = await call('POST', 'tracker/offers/bulk', {
      action: 'restore',
      ids: [offer.external_id, spare.external_id],
    });
    expect(restored.json<Results>().results.every((result) => result.ok)).toBe(true);
    expect((await listed('tracker/offers?status=active')).has(String(offer.external_id))).toBe(true);
  });

  it('moves records to a workspace the user belongs to, refusing one whose references stay behind', async () => {
    const created = await call('POST', 'workspaces', { name: `Client ${Math.random().toString(36).slice(2, 7)}` });
    expect(created.statusCode, created.body).toBe(201);
    const target = created.json<{ id: number }>().id;
    const source = await createRecord(app, token, 'traffic-sources');
    const moved = await call('POST', 'traffic-sources/bulk', {
      action: 'move',
      ids: [source.external_id],
      workspace: target,
    });
    expect(moved.json<Results>().results).toEqual([{ id: source.external_id, ok: true, status: 200 }]);
    expect((await listed('traffic-sources')).has(String(source.external_id))).toBe(false);
    const there = await call('GET', `traffic-sources/${source.external_id}`, undefined, token, {
      'x-workspace': String(target),
    });
    expect(there.statusCode).toBe(200);
    // A campaign's flow and source stay in this workspace: moving it alone would break it.
    const refused = (
      await call('POST', 'tracker/campaigns/bulk', { action: 'move', ids: [idle], workspace: target })
    ).json<Results>();
    expect(refused.results[0]).toMatchObject({ ok: false, status: 400 });
    expect(Object.keys(refused.results[0]?.errors ?? {})).toContain('flow_external_id');

    const member = await createUserWithPermissions(app, token, ['/tracker'], { workspaces: [workspaceId] });
    expectError(
      await call(
        'POST',
        'tracker/offers/bulk',
        { action: 'move', ids: [offer.external_id], workspace: target },
        member.token,
      ),
      403,
    );
    const reader = await createUserWithPermissions(app, token, ['/tracker/campaign/get'], {
      workspaces: [workspaceId],
    });
    expectError(await call('POST', 'tracker/campaigns/bulk', { action: 'pause', ids: [busy] }, reader.token), 403);
  });

  it('refuses hostile bodies with 400 on the field, and an action the resource has not', async () => {
    const cases: [object, string][] = [
      [{ action: 'delete', ids: [busy] }, 'action'],
      [{ action: 'pause', ids: [] }, 'ids'],
      [{ action: 'pause', ids: busy }, 'ids'],
      [{ action: 'pause', ids: [1e308] }, 'ids.0'],
      [{ action: 'pause', ids: ['x'.repeat(1_000_000)] }, 'ids.0'],
      [{ action: 'pause', ids: Array.from({ length: 501 }, (_, index) => `id${index}`) }, 'ids'],
      [{ action: 'move', ids: [busy] }, 'workspace'],
      [{ action: 'move', ids: [busy], workspace: 1e308 }, 'workspace'],
      [{ action: 'move', ids: [busy], workspace: -1 }, 'workspace'],
    ];
    for (const [body, field] of cases) {
      const errors = expectError(await call('POST', 'tracker/campaigns/bulk', body), 400).errors ?? {};
      expect(Object.keys(errors), JSON.stringify(body).slice(0, 60)).toEqual([field]);
    }
    expect(
      expectError(await call('POST', 'traffic-sources/bulk', { action: 'pause', ids: ['x'] }), 400).errors,
    ).toHaveProperty('action');
  });
});
