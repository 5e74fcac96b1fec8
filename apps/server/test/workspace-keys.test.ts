import type { CreatedApiToken, ImportedLine, ReportFigures } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRecord, type StoredRecord, uniqueName } from './fixtures/config-records.js';
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

// Tokens and keys are bound to their workspace. A is the seeded workspace, B a second one.
// A token made in A, even with the root permission, reaches nothing of B; B's postback key (and B's
// conversion import) never converts A's clicks or leads, whatever the state of A's campaign; and B's
// postback log names nothing of A. On SQLite and PostgreSQL.

const inDays = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString();

interface Workspace {
  id: number;
  name: string;
  postback_key: string;
}

interface UserRecord {
  id: number;
  name: string;
  workspaces: number[];
}

forEachDatabase('workspace keys', (db) => {
  let app: FastifyInstance;
  let session: string;
  let workspaceA: Workspace;
  let workspaceB: Workspace;
  /** Made in A from the root administrator's session, with `/`. */
  let rootToken: string;
  let userOfB: TestUser;
  let userOfBoth: TestUser;

  const call = (
    token: string,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    options: { payload?: object | string; workspace?: number } = {},
  ) =>
    app.inject({
      method,
      url: `/api/${url}`,
      headers: {
        ...bearer(token),
        ...(options.workspace !== undefined ? { 'x-workspace': String(options.workspace) } : {}),
      },
      ...(options.payload !== undefined ? { payload: options.payload } : {}),
    });

  const workspaceRow = (id: number) =>
    app.store.db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    session = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const first = await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow();
    workspaceA = (await call(session, 'GET', `workspaces/${first.id}`)).json<Workspace>();
    const created = await call(session, 'POST', 'workspaces', { payload: { name: 'Client B' } });
    expect(created.statusCode, created.body).toBe(201);
    workspaceB = created.json<Workspace>();
    const made = await call(session, 'POST', 'tokens', {
      payload: { name: 'Root script', expires_at: inDays(7), permissions: ['/'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const token = made.json<CreatedApiToken>();
    expect(token.workspace_id).toBe(workspaceA.id);
    rootToken = token.token;
    userOfB = await createUserWithPermissions(app, session, ['/tracker', '/general/conversion'], {
      workspaces: [workspaceB.id],
      name: 'User of B',
    });
    userOfBoth = await createUserWithPermissions(app, session, ['/tracker'], {
      workspaces: [workspaceA.id, workspaceB.id],
      name: 'User of both',
    });
  });

  describe("a token made in A with the root permission reaches nothing of B's", () => {
    it("neither reads nor changes B's workspace, nor rotates B's postback key", async () => {
      const before = await workspaceRow(workspaceB.id);
      expectError(await call(rootToken, 'GET', `workspaces/${workspaceB.id}`), 404);
      expectError(await call(rootToken, 'PUT', `workspaces/${workspaceB.id}`, { payload: { name: 'Taken' } }), 404);
      expectError(await call(rootToken, 'POST', `workspaces/${workspaceB.id}/postback-key`, { payload: {} }), 404);
      expect(await workspaceRow(workspaceB.id)).toEqual(before);
      // Its own workspace it manages as root would.
      const own = await call(rootToken, 'GET', `workspaces/${workspaceA.id}`);
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json<Workspace>().postback_key).toBe(workspaceA.postback_key);
    });

    it('lists, names and switches to no other workspace, and makes none', async () => {
      const list = await call(rootToken, 'GET', 'workspaces?limit=0&status=all');
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json<{ list: Workspace[]; total: number }>()).toMatchObject({
        total: 1,
        list: [{ id: workspaceA.id }],
      });
      expect(list.body).not.toContain(workspaceB.postback_key);
      const me = await call(rootToken, 'GET', 'me');
      expect(me.json<{ workspaces: { id: number }[] }>().workspaces.map((one) => one.id)).toEqual([workspaceA.id]);
      expectError(await call(rootToken, 'GET', 'tracker/offers', { workspace: workspaceB.id }), 403);
      expectError(await call(rootToken, 'POST', 'workspaces', { payload: { name: 'Made by a token' } }), 403);
      const count = await app.store.db
        .selectFrom('workspaces')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(2);
    });

    it("neither reads nor updates B's users", async () => {
      const list = await call(rootToken, 'GET', 'users?limit=0&status=all');
      expect(list.statusCode, list.body).toBe(200);
      const listed = list.json<{ list: UserRecord[] }>().list;
      expect(listed.map((user) => user.id)).not.toContain(userOfB.id);
      for (const user of listed) expect(user.workspaces).not.toContain(workspaceB.id);

      expectError(await call(rootToken, 'GET', `users/${userOfB.id}`), 404);
      const update = {
        name: 'Taken over',
        email: userOfB.email,
        password: 'taken-over-password-1',
        permissions: ['/'],
      };
      expectError(await call(rootToken, 'PUT', `users/${userOfB.id}`, { payload: update }), 404);
      const stored = await app.store.db
        .selectFrom('users')
        .select(['name', 'permissions'])
        .where('id', '=', userOfB.id)
        .executeTakeFirstOrThrow();
      expect(stored.name).toBe('User of B');
      // B's user still signs in with their own password.
      await login(app, userOfB.email, userOfB.password);
    });

    it('sees of a user of A and B only A, and leaves their B membership as it is', async () => {
      const read = await call(rootToken, 'GET', `users/${userOfBoth.id}`);
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json<UserRecord>().workspaces).toEqual([workspaceA.id]);
      const denied = await call(rootToken, 'PUT', `users/${userOfBoth.id}`, {
        payload: {
          name: 'User of both',
          email: userOfBoth.email,
          workspaces: [workspaceB.id],
          permissions: ['/tracker'],
        },
      });
      expectError(denied, 400);
      const updated = await call(rootToken, 'PUT', `users/${userOfBoth.id}`, {
        payload: {
          name: 'Renamed in A',
          email: userOfBoth.email,
          workspaces: [workspaceA.id],
          permissions: ['/tracker'],
        },
      });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json<UserRecord>().workspaces).toEqual([workspaceA.id]);
      const links = await app.store.db
        .selectFrom('user_workspaces')
        .select('workspace_id')
        .where('user_id', '=', userOfBoth.id)
        .orderBy('workspace_id')
        .execute();
      expect(links.map((link) => link.workspace_id)).toEqual([workspaceA.id, workspaceB.id]);
    });

    it('neither adds a user to B nor invites one into B', async () => {
      const email = `into-b-${Date.now()}@test.local`;
      const user = {
        name: 'Into B',
        email,
        password: 'into-b-password-1',
        permissions: [],
        workspaces: [workspaceB.id],
      };
      expectError(await call(rootToken, 'POST', 'users', { payload: user }), 400);
      const invitation = { email, workspaces: [workspaceB.id] };
      expectError(await call(rootToken, 'POST', 'invitations', { payload: invitation }), 400);
      expect(await app.store.db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual([]);
      expect(await app.store.db.selectFrom('invitations').select('id').where('email', '=', email).execute()).toEqual(
        [],
      );
    });

    it('leaves sessions as they were: root and a member of both still switch to B', async () => {
      const root = await call(session, 'GET', `workspaces/${workspaceB.id}`);
      expect(root.statusCode, root.body).toBe(200);
      const member = await call(userOfBoth.token, 'GET', 'me', { workspace: workspaceB.id });
      expect(member.statusCode, member.body).toBe(200);
      expect(member.json<{ workspace_id: number }>().workspace_id).toBe(workspaceB.id);
    });
  });

  describe("B's key and B's import never convert A's clicks or leads", () => {
    let campaign: StoredRecord;
    let apiCampaign: StoredRecord;
    const clicks: Record<string, string> = {};
    let lead: string;

    async function click(): Promise<string> {
      const response = await app.inject({ method: 'GET', url: `/c/${campaign.external_id}`, remoteAddress: DE_IP });
      expect(response.statusCode, response.body).toBe(302);
      return new URL(String(response.headers.location)).searchParams.get('c')!;
    }

    const postback = (key: string, query: string) =>
      app.inject({ method: 'GET', url: `/${key}/postback?${query}`, remoteAddress: '198.51.100.7' });

    const conversionsOf = (ids: string[]) =>
      app.store.db
        .selectFrom('conversions')
        .select('conversion_id')
        .where((eb) => eb.or([eb('click_id', 'in', ids), eb('lead_id', 'in', ids)]))
        .execute();

    /** Puts the campaign in `state`, as an operator would or as routing would find it. */
    async function setState(state: 'active' | 'archived' | 'disabled' | 'removed', stored?: object) {
      const kind = 'tracker-campaigns';
      if (state === 'archived') {
        const response = await call(session, 'PUT', `tracker/campaigns/${campaign.external_id}/archive`);
        expect(response.statusCode, response.body).toBe(200);
        return;
      }
      if (state === 'disabled') {
        // A status routing does not run, as an older or newer node may write.
        await app.store.db
          .updateTable('config_records')
          .set({ status: 'disabled' })
          .where('kind', '=', kind)
          .where('external_id', '=', String(campaign.external_id))
          .execute();
      } else if (state === 'removed') {
        await app.store.db
          .deleteFrom('config_records')
          .where('kind', '=', kind)
          .where('external_id', '=', String(campaign.external_id))
          .execute();
      } else if (stored) {
        await app.store.db
          .insertInto('config_records')
          .values(stored as never)
          .execute();
      } else {
        await app.store.db
          .updateTable('config_records')
          .set({ status: 'active' })
          .where('kind', '=', kind)
          .where('external_id', '=', String(campaign.external_id))
          .execute();
      }
      await app.engine.configChanged(kind);
    }

    beforeAll(async () => {
      const sale = await createRecord(app, session, 'postback-events', { name: 'Sale' });
      const source = await createRecord(app, session, 'traffic-sources');
      const offer = await createRecord(app, session, 'tracker-offers', {
        url: 'https://offer.example/?c={clickid}',
        payout: 40,
      });
      const flow = await createRecord(app, session, 'tracker-flows', {
        path_groups: [
          { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
        ],
      });
      const events = [{ postback_event_external_id: sale.external_id, is_conversion: true }];
      campaign = await createRecord(app, session, 'tracker-campaigns', {
        name: uniqueName('Secret campaign of A'),
        traffic_source_external_id: source.external_id,
        flow_external_id: flow.external_id,
        postback_events: events,
      });
      const apiOffer = await createRecord(app, session, 'offers', { url: 'https://api.example/?l={lead_id}' });
      const apiFlow = await createRecord(app, session, 'flows', {
        path_groups: [{ id: 'ag', name: 'All', paths: [{ id: 'ap', offer_external_id: apiOffer.external_id }] }],
      });
      apiCampaign = await createRecord(app, session, 'campaigns', {
        name: uniqueName('Secret API campaign of A'),
        traffic_source_external_id: source.external_id,
        flow_external_id: apiFlow.external_id,
        postback_events: events,
      });
      for (const state of ['active', 'archived', 'disabled', 'removed', 'imported', 'own'])
        clicks[state] = await click();
      const response = await app.inject({
        method: 'POST',
        url: `/v1/campaigns/${apiCampaign.external_id}/leads`,
        headers: { 'x-api-key': String(apiCampaign.ingest_token) },
        payload: { email: `lead-${Date.now()}@gmail.com`, ip: DE_IP },
      });
      expect(response.statusCode, response.body).toBe(200);
      lead = response.json<{ lead_id: string }>().lead_id;
      await app.engine.flush();
    });

    it("refuses B's key on A's click whether A's campaign is active, archived, disabled or removed", async () => {
      const refused = async (state: string) => {
        const clickId = clicks[state]!;
        const response = await postback(
          workspaceB.postback_key,
          `clickid=${clickId}&payout=999999&status=approved&txid=b-${state}`,
        );
        // Soft: every state is tried and reported, not only the first that lets the key in.
        expect.soft(response.statusCode, `${state}: ${response.body}`).toBe(403);
        expect.soft(await conversionsOf([clickId]), state).toEqual([]);
      };
      await refused('active');
      await setState('archived');
      await refused('archived');
      const restored = await call(session, 'PUT', `tracker/campaigns/${campaign.external_id}/restore`);
      expect(restored.statusCode, restored.body).toBe(200);
      await setState('disabled');
      await refused('disabled');
      await setState('active');
      const stored = await app.store.db
        .selectFrom('config_records')
        .selectAll()
        .where('kind', '=', 'tracker-campaigns')
        .where('external_id', '=', String(campaign.external_id))
        .executeTakeFirstOrThrow();
      await setState('removed');
      await refused('removed');
      await setState('active', stored);
      expect(app.engine.routing.tracker.campaigns.has(String(campaign.external_id))).toBe(true);
    });

    it("refuses B's key on A's lead while A's API campaign is archived", async () => {
      const archived = await call(session, 'PUT', `campaigns/${apiCampaign.external_id}/archive`);
      expect(archived.statusCode, archived.body).toBe(200);
      const response = await postback(workspaceB.postback_key, `lead_id=${lead}&payout=500&status=approved&txid=b-l`);
      expect(response.statusCode, response.body).toBe(403);
      expect(await conversionsOf([lead])).toEqual([]);
      const restored = await call(session, 'PUT', `campaigns/${apiCampaign.external_id}/restore`);
      expect(restored.statusCode, restored.body).toBe(200);
    });

    it("counts nothing of B's import of A's click and lead ids, each line refused", async () => {
      await setState('archived');
      const archived = await call(session, 'PUT', `campaigns/${apiCampaign.external_id}/archive`);
      expect(archived.statusCode, archived.body).toBe(200);
      const ids = [clicks.imported!, clicks.active!, lead];
      const text = ids.map((id, index) => `${id},approved,1000000,imp-${index}`).join('\n');
      for (const [actor, workspace] of [
        [session, workspaceB.id],
        [userOfB.token, undefined],
      ] as const) {
        const response = await call(actor, 'POST', 'conversions/import', { payload: { text }, workspace });
        expect(response.statusCode, response.body).toBe(200);
        const result = response.json<{ lines: ImportedLine[]; counted: number; refused: number }>();
        expect(result.counted).toBe(0);
        expect(result.refused).toBe(ids.length);
        for (const line of result.lines) {
          expect(line.outcome).toBe('refused_key');
          expect(line.message).toMatch(/workspace/);
        }
      }
      expect(await conversionsOf(ids)).toEqual([]);
      for (const path of [`tracker/campaigns/${campaign.external_id}`, `campaigns/${apiCampaign.external_id}`]) {
        const restored = await call(session, 'PUT', `${path}/restore`);
        expect(restored.statusCode, restored.body).toBe(200);
      }
    });

    it("leaves A's revenue at 0 once its campaigns are restored", async () => {
      const report = await call(session, 'GET', 'reports?group_by=campaign&limit=0');
      expect(report.statusCode, report.body).toBe(200);
      const { list, totals } = report.json<{ list: (ReportFigures & { campaign: string })[]; totals: ReportFigures }>();
      expect(list.map((row) => row.campaign)).toContain(campaign.external_id);
      expect(totals.conversions).toBe(0);
      expect(totals.revenue).toBe(0);
      expect(totals.revenue_confirmed).toBe(0);
    });

    it("names nothing of A's in B's postback log", async () => {
      // A payout refused before the click is read is B's row; it must not name A's campaign either.
      const invalid = await postback(workspaceB.postback_key, `clickid=${clicks.active}&payout=-5&txid=b-invalid`);
      expect(invalid.statusCode).toBe(400);
      // B's member, not root: root also sees the refusals logged for no workspace.
      const response = await call(userOfB.token, 'GET', 'postback-log?limit=1000');
      expect(response.statusCode, response.body).toBe(200);
      const { list } = response.json<{ list: { txid: string | null; campaign: unknown; conversion: unknown }[] }>();
      expect(list.map((row) => row.txid)).toContain('b-invalid');
      for (const name of [campaign.name, apiCampaign.name, campaign.external_id, apiCampaign.external_id, 'Sale']) {
        expect(response.body).not.toContain(String(name));
      }
      for (const row of list) expect(row.conversion).toBeNull();
    });

    it("still counts A's own key on A's archived campaign", async () => {
      await setState('archived');
      const response = await postback(
        workspaceA.postback_key,
        `clickid=${clicks.own}&payout=5&status=approved&txid=a-own`,
      );
      expect(response.statusCode, response.body).toBe(200);
      const [conversion] = await app.store.db
        .selectFrom('conversions')
        .select(['workspace_id', 'payout'])
        .where('click_id', '=', clicks.own!)
        .execute();
      expect(conversion).toMatchObject({ workspace_id: workspaceA.id });
      await call(session, 'PUT', `tracker/campaigns/${campaign.external_id}/restore`);
    });
  });
});
