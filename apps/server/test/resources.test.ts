import { ACTIONS, getResource, permissionString, VALIDATION_MESSAGES } from '@switchyard/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_RESOURCES } from '../src/api/config-records/routes.js';
import {
  type Body,
  bodyWithReference,
  createRecord,
  minimalBody,
  recordId,
  type StoredRecord,
  uniqueName,
  unknownReference,
} from './fixtures/config-records.js';
import {
  bearer,
  createUserWithPermissions,
  expectError,
  forEachDatabase,
  type TestUser,
  useSeededApp,
} from './harness.js';

// Every config entity of the registry, through the same table of checks (§7.2, §7.3, §6, §8).

/** A body each kind refuses, and the field it is refused on. */
const INVALID_BODIES: Record<string, { body: Body; field: string }> = {
  offers: { body: { name: 'Offer', url: 'ftp://example.com' }, field: 'url' },
  'tracker-offers': { body: { name: 'Offer', url: 'https://example.com', currency: 'dollars' }, field: 'currency' },
  'tracker-landers': { body: { name: 'Lander', url: 'not a url' }, field: 'url' },
  events: { body: { name: 'Event' }, field: 'label' },
  'postback-events': { body: { name: 'Postback', event_id: 'x' }, field: 'event_id' },
  segments: { body: { name: 'Segment', condition: '{"type":"Nope"}' }, field: 'condition' },
  'tracker-segments': { body: { name: 'Segment', condition: 'not json' }, field: 'condition' },
  flows: {
    body: { name: 'Flow', path_groups: [{ id: 'g', paths: [{ id: 'p' }] }] },
    field: 'path_groups.0.paths.0.offer_external_id',
  },
  'tracker-flows': {
    body: { name: 'Flow', path_groups: [{ id: 'g', paths: [{ id: 'p', weight: -1 }] }] },
    field: 'path_groups.0.paths.0.weight',
  },
  campaigns: { body: { name: 'Campaign' }, field: 'flow_external_id' },
  'tracker-campaigns': { body: { name: 'Campaign', cost_model: 'free' }, field: 'cost_model' },
  'traffic-sources': { body: { name: 'Source', default_cost: -1 }, field: 'default_cost' },
  'affiliate-networks': { body: { name: 'x'.repeat(300) }, field: 'name' },
};

function valueAt(record: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], record);
}

forEachDatabase('config resources', (db) => {
  const ctx = useSeededApp(db);
  /** One user whose permissions each check sets (they are read on every request). */
  let tester: TestUser;
  beforeAll(async () => {
    tester = await createUserWithPermissions(ctx.app, ctx.adminToken, [], { name: 'Permission tester' });
  });

  async function grant(permissions: string[]): Promise<void> {
    const response = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${tester.id}`,
      headers: bearer(ctx.adminToken),
      payload: { name: 'Permission tester', email: tester.email, permissions },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  it('the table covers every config resource', () => {
    expect(Object.keys(INVALID_BODIES).sort()).toEqual(CONFIG_RESOURCES.map((definition) => definition.name).sort());
  });

  for (const definition of CONFIG_RESOURCES) {
    const base = `/api/${definition.apiPath}`;
    const { section, resource } = definition.permission;

    describe(definition.name, () => {
      const inject = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Body, token = ctx.adminToken) =>
        ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

      async function list(query: string) {
        const response = await inject('GET', `${base}?${query}`);
        expect(response.statusCode, response.body).toBe(200);
        const body = response.json<{ list: StoredRecord[]; total: number }>();
        expect(Object.keys(body).sort()).toEqual(['list', 'total']);
        return body;
      }

      it('create → get → update → archive → restore', async () => {
        const payload = await minimalBody(ctx.app, ctx.adminToken, definition.name);
        const created = await inject('POST', base, payload);
        expect(created.statusCode, created.body).toBe(201);
        const record = created.json<StoredRecord>();
        const id = recordId(definition, record);
        expect(record).toMatchObject({ name: payload.name, status: 'active' });
        expect(record.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
        if (definition.idField === 'external_id') {
          expect(record.external_id).toMatch(/^[A-Za-z0-9]{12}$/);
          expect(record).not.toHaveProperty('id');
        } else {
          expect(Number.isInteger(record.id)).toBe(true);
          expect(record).not.toHaveProperty('external_id');
        }

        const fetched = await inject('GET', `${base}/${id}`);
        expect(fetched.statusCode, fetched.body).toBe(200);
        expect(fetched.json()).toEqual(record);

        const newName = uniqueName('Renamed');
        const updated = await inject('PUT', `${base}/${id}`, { ...payload, name: newName });
        expect(updated.statusCode, updated.body).toBe(200);
        expect(updated.json()).toMatchObject({ [definition.idField]: record[definition.idField], name: newName });
        expect((await inject('GET', `${base}/${id}`)).json()).toMatchObject({ name: newName });

        const archived = await inject('PUT', `${base}/${id}/archive`);
        expect(archived.statusCode, archived.body).toBe(200);
        expect(archived.json()).toMatchObject({ name: newName, status: 'archived' });
        const search = `search=${encodeURIComponent(newName)}`;
        expect((await list(search)).list).toEqual([]);
        expect((await list(`${search}&status=archived`)).list.map((item) => item.name)).toEqual([newName]);
        expect((await list(`${search}&status=all`)).total).toBe(1);

        const restored = await inject('PUT', `${base}/${id}/restore`);
        expect(restored.statusCode, restored.body).toBe(200);
        expect(restored.json()).toMatchObject({ name: newName, status: 'active' });
        expect((await list(search)).list.map((item) => item.name)).toEqual([newName]);
        expect((await list(`${search}&status=archived`)).total).toBe(0);
      });

      it('lists in pages with the total, searches names case-insensitively, filters by status', async () => {
        const tag = uniqueName('Pg').replace(/\s/g, '_');
        const names = [`${tag} Alpha`, `${tag} alpha two`, `${tag} Beta`];
        const records = [];
        for (const name of names) records.push(await createRecord(ctx.app, ctx.adminToken, definition.name, { name }));

        const all = await list(`search=${tag.toUpperCase()}&limit=0`);
        expect(all.total).toBe(3);
        expect(all.list.map((item) => item.name)).toEqual(names);

        const page2 = await list(`search=${tag}&limit=2&page=2`);
        expect(page2).toMatchObject({ total: 3 });
        expect(page2.list.map((item) => item.name)).toEqual([names[2]]);

        const alpha = await list(`search=${encodeURIComponent(`${tag} ALPHA`)}`);
        expect(alpha.list.map((item) => item.name)).toEqual(names.slice(0, 2));
        expect((await list(`search=${tag}%25`)).total).toBe(0); // `%` matches itself only

        await inject('PUT', `${base}/${recordId(definition, records[0]!)}/archive`);
        expect((await list(`search=${tag}`)).list.map((item) => item.name)).toEqual(names.slice(1));
        expect((await list(`search=${tag}&status=archived`)).list.map((item) => item.name)).toEqual([names[0]]);
        expect((await list(`search=${tag}&status=all`)).total).toBe(3);
        expectError(await inject('GET', `${base}?status=deleted`), 400);
        expectError(await inject('GET', `${base}?limit=-1`), 400);
      });

      it('answers 404 for an unknown id', async () => {
        const unknown = definition.idField === 'id' ? '2000000000' : 'noSuchRecord1';
        for (const [method, url] of [
          ['GET', `${base}/${unknown}`],
          ['PUT', `${base}/${unknown}`],
          ['PUT', `${base}/${unknown}/archive`],
          ['PUT', `${base}/${unknown}/restore`],
          ['GET', `${base}/${definition.idField === 'id' ? 'abc' : 'bad%20id'}`],
          ['GET', `${base}/99999999999999999999`],
        ] as const) {
          const payload = method === 'PUT' ? await minimalBody(ctx.app, ctx.adminToken, definition.name) : undefined;
          const response = await inject(method, url, payload);
          expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(404);
        }
      });

      it('refuses an invalid body with 400 and the field, and writes nothing', async () => {
        const before = (await list('status=all&limit=0')).total;
        const { body, field } = INVALID_BODIES[definition.name]!;
        const error = expectError(await inject('POST', base, body), 400);
        expect(error.errors?.[field], JSON.stringify(error)).toBeDefined();

        const missing = expectError(await inject('POST', base), 400);
        expect(missing.errors?.name).toEqual([VALIDATION_MESSAGES.required]);
        expectError(await inject('POST', base, { name: 42 }), 400);
        expectError(await inject('POST', base, [] as unknown as Body), 400);

        const existing = await createRecord(ctx.app, ctx.adminToken, definition.name);
        const update = expectError(await inject('PUT', `${base}/${recordId(definition, existing)}`, body), 400);
        expect(update.errors?.[field]).toBeDefined();
        expect((await inject('GET', `${base}/${recordId(definition, existing)}`)).json()).toEqual(existing);
        expect((await list('status=all&limit=0')).total).toBe(before + 1);
      });

      for (const reference of definition.references ?? []) {
        it(`refuses an unknown ${reference.field} (${reference.resource}) with 400 on the field`, async () => {
          const valid = await minimalBody(ctx.app, ctx.adminToken, definition.name);
          const before = (await list('status=all&limit=0')).total;
          const target = getResource(reference.resource);
          const { body, path } = bodyWithReference(reference.field, unknownReference(target));
          const error = expectError(await inject('POST', base, { ...valid, ...body }), 400);
          expect(error.errors?.[path], JSON.stringify(error)).toEqual([VALIDATION_MESSAGES.unknownReference]);
          expect((await list('status=all&limit=0')).total).toBe(before);

          const existing = await createRecord(ctx.app, ctx.adminToken, definition.name);
          const updateError = expectError(
            await inject('PUT', `${base}/${recordId(definition, existing)}`, { ...valid, ...body }),
            400,
          );
          expect(updateError.errors?.[path]).toEqual([VALIDATION_MESSAGES.unknownReference]);
        });

        it(`accepts an existing ${reference.field}`, async () => {
          const valid = await minimalBody(ctx.app, ctx.adminToken, definition.name);
          const target = getResource(reference.resource);
          const referenced = await createRecord(ctx.app, ctx.adminToken, reference.resource);
          const { body, path } = bodyWithReference(reference.field, referenced[target.idField]);
          const response = await inject('POST', base, { ...valid, ...body });
          expect(response.statusCode, response.body).toBe(201);
          expect(valueAt(response.json(), path)).toBe(referenced[target.idField]);
        });
      }

      it('guards every route with its permission (§6); archive and restore use the archive action', async () => {
        const record = await createRecord(ctx.app, ctx.adminToken, definition.name);
        const id = recordId(definition, record);
        const payload = await minimalBody(ctx.app, ctx.adminToken, definition.name);
        const routes = [
          { action: 'get', method: 'GET', url: base, status: 200 },
          { action: 'get', method: 'GET', url: `${base}/${id}`, status: 200 },
          { action: 'create', method: 'POST', url: base, payload, status: 201 },
          { action: 'update', method: 'PUT', url: `${base}/${id}`, payload, status: 200 },
          { action: 'archive', method: 'PUT', url: `${base}/${id}/archive`, status: 200 },
          { action: 'archive', method: 'PUT', url: `${base}/${id}/restore`, status: 200 },
        ] as const;

        for (const route of routes) {
          const request = {
            method: route.method,
            url: route.url,
            ...('payload' in route ? { payload: route.payload } : {}),
          };
          const as = (token: string) => ctx.app.inject({ ...request, headers: bearer(token) });
          expectError(await ctx.app.inject(request), 401);
          expectError(await as('not-a-token'), 401);
          await grant([]);
          expectError(await as(tester.token), 403);
          await grant([permissionString(section === 'api' ? 'tracker' : 'api')]);
          expectError(await as(tester.token), 403);
          // Holding every other action of the resource is not enough.
          const otherActions = ACTIONS.filter((action) => action !== route.action);
          await grant(otherActions.map((action) => permissionString(section, resource, action)));
          expectError(await as(tester.token), 403);

          await grant([permissionString(section, resource, route.action)]);
          const response = await as(tester.token);
          expect(response.statusCode, `${route.method} ${route.url}: ${response.body}`).toBe(route.status);
        }

        await grant([permissionString(section)]);
        expect((await ctx.app.inject({ method: 'GET', url: base, headers: bearer(tester.token) })).statusCode).toBe(
          200,
        );
      });
    });
  }

  describe('records', () => {
    let records: StoredRecord[] = [];
    beforeAll(async () => {
      records = [];
      for (const definition of CONFIG_RESOURCES)
        records.push(await createRecord(ctx.app, ctx.adminToken, definition.name));
    });

    it('external ids are unique per record and carry the creator’s workspace', () => {
      const ids = records.map((record) => record.external_id).filter(Boolean);
      expect(new Set(ids).size).toBe(ids.length);
      for (const record of records) expect(typeof record.workspace_id).toBe('number');
    });

    it('an id of one kind is not found under another', async () => {
      const offer = records[CONFIG_RESOURCES.findIndex((definition) => definition.name === 'offers')]!;
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/api/tracker/offers/${offer.external_id}`,
        headers: bearer(ctx.adminToken),
      });
      expectError(response, 404);
    });
  });
});
