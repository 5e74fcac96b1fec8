import type { ClickEvent, ListResponse, PostbackLogEntry } from '@switchyard/domain';
import { ZEventQuery, ZOutboundPostbackQuery, ZPostbackLogQuery, ZReportQuery } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { EventsService } from '../src/events/service.js';
import { PostbackLogService } from '../src/postback-log/service.js';
import { ReportsService } from '../src/reports/service.js';
import type { Database } from '../src/store/schema.js';
import { ScopeGuard, scopeCondition, workspaceTables } from '../src/store/scope.js';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { DESKTOP, US_IP } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createUserWithPermissions, forEachDatabase, login } from './harness.js';

// The engine writes each click with its campaign's workspace, and the report, event-table and
// postback-log services, run through ScopeGuard (store/scope.ts), name their scope in every query: a
// service query that dropped it would throw here. The store's side is in workspace-scope-store.test.ts.

forEachDatabase('workspace scope: the services', (db) => {
  let app: FastifyInstance;
  let guarded: Kysely<Database>;
  const workspace = { A: 0, B: 0 };
  const campaigns: Record<'A' | 'B', StoredRecord | null> = { A: null, B: null };

  /** A tracker campaign of the token's workspace, on a flow whose one path goes to one offer. */
  async function trackerCampaign(token: string): Promise<StoredRecord> {
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    const source = await createRecord(app, token, 'traffic-sources');
    return createRecord(app, token, 'tracker-campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
    });
  }

  async function click(on: StoredRecord): Promise<void> {
    const response = await app.inject({
      method: 'GET',
      url: `/c/${on.external_id}`,
      remoteAddress: US_IP,
      headers: { 'user-agent': DESKTOP },
    });
    expect(response.statusCode, response.body).toBe(302);
  }

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
      engine: { outbound: { intervalMs: 0 } },
    });
    const root = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    workspace.A = (await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const made = await app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: bearer(root),
      payload: { name: 'Scope B' },
    });
    expect(made.statusCode, made.body).toBe(201);
    workspace.B = made.json<{ id: number }>().id;
    const memberOfB = await createUserWithPermissions(app, root, ['/api', '/tracker', '/general'], {
      workspaces: [workspace.B],
    });
    campaigns.A = await trackerCampaign(root);
    campaigns.B = await trackerCampaign(memberOfB.token);
    for (let index = 0; index < 3; index += 1) await click(campaigns.A);
    for (let index = 0; index < 2; index += 1) await click(campaigns.B);
    await app.engine.flush();
    const tables = await workspaceTables(app.store.db as Kysely<unknown>, app.store.dialect);
    guarded = app.store.db.withPlugin(new ScopeGuard(tables));
  });

  it("the engine writes each click with its campaign's workspace", async () => {
    const rows = await app.store.db
      .selectFrom('tracker_clicks')
      .select(['campaign_external_id', 'workspace_id'])
      .where(scopeCondition({ instance: true }, 'workspace_id'))
      .execute();
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      const side = row.campaign_external_id === campaigns.A!.external_id ? 'A' : 'B';
      expect(Number(row.workspace_id)).toBe(workspace[side]);
    }
  });

  describe('every query of a service names its scope', () => {
    it('reports: a workspace sees its own events, the instance every one', async () => {
      for (const rollups of [true, false]) {
        const reports = new ReportsService(guarded, { rollups });
        for (const group_by of ['campaign', 'day', 'campaign,offer', 'subaff']) {
          // The clicks here send no user agent: bots', counted in.
          const query = ZReportQuery.parse({ group_by, include_bots: 'true' });
          expect((await reports.run(query, { workspaceId: workspace.A })).totals.clicks).toBe(3);
          expect((await reports.run(query, { workspaceId: workspace.B })).totals.clicks).toBe(2);
          expect((await reports.run(query, { instance: true })).totals.clicks).toBe(5);
        }
        const named = await reports.run(ZReportQuery.parse({ group_by: 'campaign' }), { workspaceId: workspace.B });
        expect(named.list.map((row) => [row.campaign, row.campaign_name])).toEqual([
          [campaigns.B!.external_id, campaigns.B!.name],
        ]);
      }
    });

    it('event tables: a workspace lists its own clicks', async () => {
      const events = new EventsService(guarded);
      const query = ZEventQuery.parse({});
      const ofA = (await events.list('clicks', query, { workspaceId: workspace.A })) as ListResponse<ClickEvent>;
      expect(ofA.total).toBe(3);
      expect(new Set(ofA.list.map((row) => row.campaign.external_id))).toEqual(new Set([campaigns.A!.external_id]));
      expect((await events.list('clicks', query, { workspaceId: workspace.B })).total).toBe(2);
      expect((await events.list('leads', query, { workspaceId: workspace.B })).total).toBe(0);
      expect((await events.list('conversions', query, { instance: true })).total).toBe(0);
    });

    it('postback log: read within the scope', async () => {
      const log = new PostbackLogService(guarded);
      const query = ZPostbackLogQuery.parse({});
      const page: ListResponse<PostbackLogEntry> = await log.incoming(query, { workspaceId: workspace.A });
      expect(page.total).toBe(0);
      await log.incoming(query, { workspaceId: workspace.A, unkeyed: true });
      await log.incoming(query, { instance: true });
      const outbound = ZOutboundPostbackQuery.parse({});
      expect((await log.outbound(outbound, { workspaceId: workspace.B })).total).toBe(0);
      await log.outbound(outbound, { instance: true });
    });
  });
});
