import { getResource, type ResourceName, VALIDATION_MESSAGES } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { Migrator } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_RESOURCES } from '../src/api/config-records/routes.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest, openStore } from '../src/store/database.js';
import { migrations } from '../src/store/migrations.js';
import { type Body, recordId, type StoredRecord, uniqueName } from './fixtures/config-records.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  bearer,
  createUserWithPermissions,
  expectError,
  forEachDatabase,
  login,
  type TestUser,
  useSeededApp,
} from './harness.js';

// Config records belong to one workspace. A request reads and writes only the records of the
// workspace it acts in (X-Workspace, else the user's first); another workspace's record is as unknown as
// a missing one: 404 by id, 400 when a body refers to it.

type Method = 'GET' | 'POST' | 'PUT';

function segmentCondition(...segmentIds: string[]): string {
  return JSON.stringify({
    type: 'AndCondition',
    data: {
      Conditions: [
        { type: 'SegmentCondition', data: { Var: 'segment', Value: { Operation: 'IN', Values: segmentIds } } },
      ],
    },
  });
}

/** Requests as one user, in the workspace `workspace` names (none: the user's default). */
function client(app: () => FastifyInstance, token: () => string) {
  const send = (method: Method, url: string, options: { workspace?: number; payload?: Body } = {}) =>
    app().inject({
      method,
      url,
      headers: {
        ...bearer(token()),
        ...(options.workspace === undefined ? {} : { 'x-workspace': String(options.workspace) }),
      },
      ...(options.payload ? { payload: options.payload } : {}),
    });

  async function create(workspace: number | undefined, name: ResourceName, overrides: Body = {}) {
    const payload = { ...(await minimalBody(workspace, name)), ...overrides };
    const response = await send('POST', `/api/${getResource(name).apiPath}`, { workspace, payload });
    expect(response.statusCode, `${name}: ${response.body}`).toBe(201);
    return response.json<StoredRecord>();
  }

  /** The smallest body of each kind; what it must name is created in the same workspace. */
  async function minimalBody(workspace: number | undefined, name: ResourceName): Promise<Body> {
    const base = { name: uniqueName(name) };
    switch (name) {
      case 'offers':
      case 'tracker-offers':
      case 'tracker-landers':
        return { ...base, url: 'https://example.com/go?click={clickid}' };
      case 'events':
        return { ...base, label: `${base.name} label` };
      case 'postback-events':
        return { ...base, event_id: (await create(workspace, 'events')).id };
      case 'campaigns':
      case 'tracker-campaigns':
        return {
          ...base,
          traffic_source_external_id: (await create(workspace, 'traffic-sources')).external_id,
          flow_external_id: (await create(workspace, name === 'campaigns' ? 'flows' : 'tracker-flows')).external_id,
        };
      default:
        return base;
    }
  }

  /** The records of a list (every status, unpaged) in a workspace. */
  async function list(workspace: number | undefined, apiPath: string, query = ''): Promise<StoredRecord[]> {
    const response = await send('GET', `/api/${apiPath}?status=all&limit=0${query}`, { workspace });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ list: StoredRecord[] }>().list;
  }

  return { send, create, list };
}

forEachDatabase('workspace records', (db) => {
  const ctx = useSeededApp(db);
  const admin = client(
    () => ctx.app,
    () => ctx.adminToken,
  );
  /** The seeded "Default" workspace, the admin's own; and a second one the admin (root) is not a member of. */
  let workspaceA: number;
  let workspaceB: number;
  /** One record of every config kind in each workspace. */
  const inA = new Map<ResourceName, StoredRecord>();
  const inB = new Map<ResourceName, StoredRecord>();

  beforeAll(async () => {
    const workspaces = await admin.list(undefined, 'workspaces');
    workspaceA = Math.min(...workspaces.map((workspace) => Number(workspace.id)));
    const created = await admin.send('POST', '/api/workspaces', { payload: { name: 'Client B' } });
    expect(created.statusCode, created.body).toBe(201);
    workspaceB = created.json<{ id: number }>().id;
    for (const definition of CONFIG_RESOURCES) {
      inA.set(definition.name, await admin.create(undefined, definition.name));
      inB.set(definition.name, await admin.create(workspaceB, definition.name));
    }
  });

  it('created records belong to the acting workspace: the default one, or the one X-Workspace names', () => {
    for (const definition of CONFIG_RESOURCES) {
      expect(inA.get(definition.name)?.workspace_id, definition.name).toBe(workspaceA);
      expect(inB.get(definition.name)?.workspace_id, definition.name).toBe(workspaceB);
    }
  });

  for (const definition of CONFIG_RESOURCES) {
    describe(definition.name, () => {
      const base = `/api/${definition.apiPath}`;
      const idOf = (record: StoredRecord | undefined) => recordId(definition, record ?? {});

      it('lists (and lookups) show only the acting workspace records', async () => {
        const listedA = (await admin.list(undefined, definition.apiPath)).map((record) => idOf(record));
        const listedB = (await admin.list(workspaceB, definition.apiPath)).map((record) => idOf(record));
        expect(listedA).toContain(idOf(inA.get(definition.name)));
        expect(listedA).not.toContain(idOf(inB.get(definition.name)));
        expect(listedB).toContain(idOf(inB.get(definition.name)));
        expect(listedB).not.toContain(idOf(inA.get(definition.name)));
        // Naming the default workspace is the same as naming none.
        const named = (await admin.list(workspaceA, definition.apiPath)).map((record) => idOf(record));
        expect(named.sort()).toEqual([...listedA].sort());

        // A lookup searches the list by name: another workspace's name finds nothing.
        const otherName = encodeURIComponent(String(inA.get(definition.name)?.name));
        const lookup = await admin.send('GET', `${base}?limit=20&search=${otherName}`, { workspace: workspaceB });
        expect(lookup.json()).toMatchObject({ list: [], total: 0 });
      });

      it('a record of another workspace is not found: get, update, archive and restore answer 404', async () => {
        const ofA = inA.get(definition.name)!;
        const ofB = inB.get(definition.name)!;
        const update = { ...(await admin.create(workspaceB, definition.name)), name: 'Renamed' };
        for (const [record, workspace] of [
          [ofA, workspaceB],
          [ofB, workspaceA],
        ] as const) {
          const url = `${base}/${idOf(record)}`;
          expectError(await admin.send('GET', url, { workspace }), 404);
          expectError(await admin.send('PUT', url, { workspace, payload: updateBody(update) }), 404);
          expectError(await admin.send('PUT', `${url}/archive`, { workspace }), 404);
          expectError(await admin.send('PUT', `${url}/restore`, { workspace }), 404);
        }
        // Untouched, and still answered in its own workspace.
        const own = await admin.send('GET', `${base}/${idOf(ofB)}`, { workspace: workspaceB });
        expect(own.statusCode, own.body).toBe(200);
        expect(own.json()).toMatchObject({ name: ofB.name, status: 'active', workspace_id: workspaceB });
        const ownA = await admin.send('GET', `${base}/${idOf(ofA)}`);
        expect(ownA.json()).toMatchObject({ name: ofA.name, status: 'active', workspace_id: workspaceA });
      });

      it('get, update, archive and restore work in the record workspace', async () => {
        const record = await admin.create(workspaceB, definition.name);
        const url = `${base}/${idOf(record)}`;
        const updated = await admin.send('PUT', url, {
          workspace: workspaceB,
          payload: updateBody({ ...record, name: `${record.name} renamed` }),
        });
        expect(updated.statusCode, updated.body).toBe(200);
        expect(updated.json()).toMatchObject({ name: `${record.name} renamed`, workspace_id: workspaceB });
        const archived = await admin.send('PUT', `${url}/archive`, { workspace: workspaceB });
        expect(archived.json()).toMatchObject({ status: 'archived', workspace_id: workspaceB });
        const restored = await admin.send('PUT', `${url}/restore`, { workspace: workspaceB });
        expect(restored.json()).toMatchObject({ status: 'active', workspace_id: workspaceB });
      });
    });
  }

  /** A record as an update body: its form fields, without what the server computes. */
  function updateBody(record: StoredRecord): Body {
    const {
      id: _id,
      external_id: _externalId,
      workspace_id: _workspace,
      status: _status,
      created_at: _created,
      updated_at: _updated,
      backup_offers_chain: _chain,
      min_daily_cap: _cap,
      segments_chain: _segments,
      ingest_token: _token,
      postback_url: _url,
      ...body
    } = record;
    return body;
  }

  describe('references across workspaces are refused on the field', () => {
    const unknown = [VALIDATION_MESSAGES.unknownReference];

    it("a flow in B naming A's offer", async () => {
      const offerOfA = inA.get('offers')!;
      const body = {
        name: uniqueName('flow'),
        path_groups: [{ id: 'g', paths: [{ id: 'p', offer_external_id: offerOfA.external_id }] }],
      };
      const refused = expectError(
        await admin.send('POST', '/api/flows', { workspace: workspaceB, payload: body }),
        400,
      );
      expect(refused.errors).toEqual({ 'path_groups.0.paths.0.offer_external_id': unknown });
      // The same flow in A is accepted.
      const accepted = await admin.send('POST', '/api/flows', { payload: body });
      expect(accepted.statusCode, accepted.body).toBe(201);
    });

    it("a tracker flow in B naming A's offer and lander, among B's own", async () => {
      const body = {
        name: uniqueName('tracker flow'),
        path_groups: [
          {
            id: 'g',
            paths: [
              {
                id: 'p',
                offers: [
                  { id: 'o1', offer_external_id: inB.get('tracker-offers')!.external_id },
                  { id: 'o2', offer_external_id: inA.get('tracker-offers')!.external_id },
                ],
                landers: [{ id: 'l1', lander_external_id: inA.get('tracker-landers')!.external_id }],
              },
            ],
          },
        ],
      };
      const refused = expectError(
        await admin.send('POST', '/api/tracker/flows', { workspace: workspaceB, payload: body }),
        400,
      );
      expect(refused.errors).toEqual({
        'path_groups.0.paths.0.offers.1.offer_external_id': unknown,
        'path_groups.0.paths.0.landers.0.lander_external_id': unknown,
      });
    });

    it("a campaign in B on A's flow and traffic source, and an update of B's to A's", async () => {
      const payload = {
        name: uniqueName('campaign'),
        traffic_source_external_id: inA.get('traffic-sources')!.external_id,
        flow_external_id: inA.get('flows')!.external_id,
      };
      const refused = expectError(await admin.send('POST', '/api/campaigns', { workspace: workspaceB, payload }), 400);
      expect(refused.errors).toEqual({ traffic_source_external_id: unknown, flow_external_id: unknown });

      const campaignOfB = inB.get('campaigns')!;
      const update = expectError(
        await admin.send('PUT', `/api/campaigns/${campaignOfB.external_id}`, {
          workspace: workspaceB,
          payload: { ...updateBody(campaignOfB), flow_external_id: inA.get('flows')!.external_id },
        }),
        400,
      );
      expect(update.errors).toEqual({ flow_external_id: unknown });
    });

    it("a postback event in B on A's event (by id) and network", async () => {
      const refused = expectError(
        await admin.send('POST', '/api/postback-events', {
          workspace: workspaceB,
          payload: {
            name: uniqueName('postback event'),
            event_id: inA.get('events')!.id,
            affiliate_network_external_id: inA.get('affiliate-networks')!.external_id,
          },
        }),
        400,
      );
      expect(refused.errors).toEqual({ event_id: unknown, affiliate_network_external_id: unknown });
    });

    it("an offer in B backed by A's offer; a segment in B naming A's segment", async () => {
      const offer = expectError(
        await admin.send('POST', '/api/offers', {
          workspace: workspaceB,
          payload: {
            name: uniqueName('offer'),
            url: 'https://example.com/',
            backup_offer_external_id: inA.get('offers')!.external_id,
          },
        }),
        400,
      );
      expect(offer.errors).toEqual({ backup_offer_external_id: unknown });
      for (const kind of ['segments', 'tracker-segments'] as const) {
        const segment = expectError(
          await admin.send('POST', `/api/${getResource(kind).apiPath}`, {
            workspace: workspaceB,
            payload: { name: uniqueName('segment'), condition: segmentCondition(inA.get(kind)!.external_id as string) },
          }),
          400,
        );
        expect(segment.errors, kind).toEqual({ condition: unknown });
      }
    });
  });

  describe('chains and relation names follow only the workspace records', () => {
    it('backup chains, segment chains and with_relations names', async () => {
      const last = await admin.create(workspaceB, 'offers', { daily_cap: 7 });
      const first = await admin.create(workspaceB, 'offers', { backup_offer_external_id: last.external_id });
      expect(first.backup_offers_chain).toEqual([last.external_id]);
      const offers = await admin.list(workspaceB, 'offers', `&with_backup_chain=true&search=${first.name}`);
      expect(offers).toMatchObject([{ backup_offers_chain: [last.external_id], min_daily_cap: 7 }]);

      const inner = await admin.create(workspaceB, 'segments');
      const outer = await admin.create(workspaceB, 'segments', {
        condition: segmentCondition(inner.external_id as string),
      });
      expect(outer.segments_chain).toEqual([inner.external_id]);
      const withChainPath = getResource('segments').withChainApiPath!;
      const withChain = await admin.send('GET', `/api/${withChainPath}?search=${encodeURIComponent(outer.name)}`, {
        workspace: workspaceB,
      });
      expect(withChain.statusCode, withChain.body).toBe(200);
      expect(withChain.json()).toMatchObject({ total: 1, list: [{ segments_chain: [inner.external_id] }] });
      const notInA = await admin.send('GET', `/api/${withChainPath}?search=${encodeURIComponent(outer.name)}`);
      expect(notInA.json()).toMatchObject({ total: 0, list: [] });

      const campaign = inB.get('campaigns')!;
      const related = await admin.list(workspaceB, 'campaigns', `&with_relations=true&search=${campaign.name}`);
      expect(related).toHaveLength(1);
      expect(related[0]?.flow_name).toEqual(expect.any(String));
      expect(related[0]?.traffic_source_name).toEqual(expect.any(String));
    });

    it("a network's postback_url carries its own workspace's key", async () => {
      const keyOf = async (id: number) =>
        (await admin.send('GET', `/api/workspaces/${id}`)).json<{ postback_key: string }>().postback_key;
      const networkOfB = await admin.send(
        'GET',
        `/api/affiliate-networks/${inB.get('affiliate-networks')!.external_id}`,
        { workspace: workspaceB },
      );
      expect(networkOfB.json<{ postback_url: string }>().postback_url).toContain(
        `/${await keyOf(workspaceB)}/postback`,
      );
      const networkOfA = await admin.send(
        'GET',
        `/api/affiliate-networks/${inA.get('affiliate-networks')!.external_id}`,
      );
      expect(networkOfA.json<{ postback_url: string }>().postback_url).toContain(
        `/${await keyOf(workspaceA)}/postback`,
      );
    });
  });

  describe('who may act in which workspace', () => {
    let memberOfB: TestUser;
    const member = client(
      () => ctx.app,
      () => memberOfB.token,
    );
    beforeAll(async () => {
      memberOfB = await createUserWithPermissions(ctx.app, ctx.adminToken, ['/api', '/tracker', '/general/event'], {
        workspaces: [workspaceB],
      });
    });

    it('a member of only B acts in B by default, and is refused A with 403', async () => {
      const offers = (await member.list(undefined, 'offers')).map((record) => record.external_id);
      expect(offers).toContain(inB.get('offers')!.external_id);
      expect(offers).not.toContain(inA.get('offers')!.external_id);
      const created = await member.create(undefined, 'offers');
      expect(created.workspace_id).toBe(workspaceB);

      expectError(await member.send('GET', '/api/offers', { workspace: workspaceA }), 403);
      expectError(
        await member.send('GET', `/api/offers/${inA.get('offers')!.external_id}`, { workspace: workspaceA }),
        403,
      );
      expectError(
        await member.send('POST', '/api/offers', {
          workspace: workspaceA,
          payload: { name: uniqueName('offer'), url: 'https://example.com/' },
        }),
        403,
      );
      expectError(await member.send('GET', `/api/events/${inA.get('events')!.id}`), 404);
      expect((await admin.send('GET', `/api/offers/${created.external_id}`)).statusCode).toBe(404);
    });

    it('root reaches every workspace it names, member or not', async () => {
      const inOwn = await admin.send('GET', `/api/offers/${inA.get('offers')!.external_id}`, { workspace: workspaceA });
      expect(inOwn.statusCode, inOwn.body).toBe(200);
      const inOther = await admin.send('GET', `/api/offers/${inB.get('offers')!.external_id}`, {
        workspace: workspaceB,
      });
      expect(inOther.statusCode, inOther.body).toBe(200);
    });
  });
});

forEachDatabase('workspace records migration', (db) => {
  it('records, conversions and postback log rows without a workspace go to the default one', async () => {
    const database = await db.createDatabase();
    const store = openStore(loadConfig({ ...database }));
    let app: FastifyInstance | undefined;
    try {
      // The database as 0008 left it, with data written before workspaces scoped it.
      const migrator = new Migrator({
        db: store.db,
        provider: { getMigrations: async () => migrations(store.dialect) },
      });
      const { error } = await migrator.migrateTo('0008_conversion_states');
      expect(error).toBeUndefined();
      const at = new Date().toISOString();
      const record = { status: 'active', created_at: at, updated_at: at };
      const [first, second] = [
        await store.db
          .insertInto('workspaces')
          .values({ ...record, name: 'Default', postback_key: 'k'.repeat(24) })
          .returning('id')
          .executeTakeFirstOrThrow(),
        await store.db
          .insertInto('workspaces')
          .values({ ...record, name: 'Other', postback_key: 'o'.repeat(24) })
          .returning('id')
          .executeTakeFirstOrThrow(),
      ];
      await store.db
        .insertInto('config_records')
        .values([
          {
            ...record,
            kind: 'offers',
            external_id: 'legacyOffer1',
            workspace_id: null,
            name: 'Legacy offer',
            body: '{}',
          },
          {
            ...record,
            kind: 'events',
            external_id: 'legacyEvent1',
            workspace_id: null,
            name: 'Legacy event',
            body: '{"label":"L"}',
          },
          {
            ...record,
            kind: 'offers',
            external_id: 'otherOffer01',
            workspace_id: second!.id,
            name: 'Other offer',
            body: '{}',
          },
        ])
        .execute();
      await store.db
        .insertInto('conversions')
        .values({
          conversion_id: 'legacy-conversion',
          created_at: at,
          click_id: 'legacy-click',
          lead_id: null,
          campaign_external_id: 'legacyCampaign',
          flow_external_id: null,
          path_group_id: null,
          path_id: null,
          offer_external_id: null,
          lander_external_id: null,
          traffic_source_external_id: null,
          affiliate_network_external_id: null,
          postback_event_external_id: null,
          status: null,
          is_conversion: 1,
          payout: 1,
          revenue: 1,
          currency: 'USD',
          txid: null,
          country: null,
          subaff: null,
          payout_rule_id: null,
          raw: '{}',
          original_currency: null,
          updated_at: at,
          workspace_id: null,
        })
        .execute();
      await store.db
        .insertInto('postback_log')
        .values({
          created_at: at,
          outcome: 'unknown_click',
          click_id: 'nope',
          txid: null,
          conversion_id: null,
          ip: null,
          raw: '{}',
          state: null,
          previous_state: null,
          reason: null,
          workspace_id: null,
        })
        .execute();

      await migrateToLatest(store);

      const records = await store.db
        .selectFrom('config_records')
        .select(['external_id', 'workspace_id'])
        .orderBy('external_id')
        .execute();
      expect(records).toEqual([
        { external_id: 'legacyEvent1', workspace_id: first!.id },
        { external_id: 'legacyOffer1', workspace_id: first!.id },
        { external_id: 'otherOffer01', workspace_id: second!.id },
      ]);
      expect(await store.db.selectFrom('conversions').select('workspace_id').execute()).toEqual([
        { workspace_id: first!.id },
      ]);
      expect(await store.db.selectFrom('postback_log').select('workspace_id').execute()).toEqual([
        { workspace_id: first!.id },
      ]);

      // The tracker starts on it: the seeded administrator finds the records in the default workspace.
      await store.db.destroy();
      app = await db.buildApp({
        database,
        env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
      });
      const token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
      const offers = await app.inject({ method: 'GET', url: '/api/offers?status=all&limit=0', headers: bearer(token) });
      expect(offers.json<{ list: StoredRecord[] }>().list.map((offer) => offer.external_id)).toEqual(['legacyOffer1']);
      const other = await app.inject({
        method: 'GET',
        url: '/api/offers?status=all&limit=0',
        headers: { ...bearer(token), 'x-workspace': String(second!.id) },
      });
      expect(other.json<{ list: StoredRecord[] }>().list.map((offer) => offer.external_id)).toEqual(['otherOffer01']);
    } finally {
      if (!app) await store.db.destroy().catch(() => undefined);
    }
  });

  it('a database with no workspace yet migrates and leaves its rows as they are', async () => {
    const store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    try {
      const migrator = new Migrator({
        db: store.db,
        provider: { getMigrations: async () => migrations(store.dialect) },
      });
      expect((await migrator.migrateTo('0008_conversion_states')).error).toBeUndefined();
      const at = new Date().toISOString();
      await store.db
        .insertInto('config_records')
        .values({
          status: 'active',
          created_at: at,
          updated_at: at,
          kind: 'offers',
          external_id: 'orphanOffer1',
          workspace_id: null,
          name: 'Orphan',
          body: '{}',
        })
        .execute();
      await migrateToLatest(store);
      expect(await store.db.selectFrom('config_records').select('workspace_id').execute()).toEqual([
        { workspace_id: null },
      ]);
    } finally {
      await store.db.destroy();
    }
  });
});
