import { getResource, type ResourceName } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord, recordId, type StoredRecord } from './fixtures/config-records.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  bearer,
  createUserWithPermissions,
  expectError,
  forEachDatabase,
  login,
} from './harness.js';

// Cloning. `POST /api/{resource}/{id}/clone` answers 201 with a copy: a new external id,
// "(copy)" after the name, new row ids, the same references; a campaign `with_flow` copies its flow too.
// On SQLite and PostgreSQL.

const KINDS: ResourceName[] = [
  'campaigns',
  'tracker-campaigns',
  'flows',
  'tracker-flows',
  'offers',
  'tracker-offers',
  'tracker-landers',
  'segments',
  'tracker-segments',
];

/** Every row id of a body, by where it sits. */
function rowIds(body: Record<string, unknown>): string[] {
  const ids: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (['path_groups', 'paths', 'offers', 'landers', 'payout_rule_sets', 'rules'].includes(key)) {
          for (const row of child as { id: string }[]) ids.push(row.id);
          walk(child);
        }
      }
    }
  };
  walk(body);
  return ids;
}

forEachDatabase('cloning', (db) => {
  let app: FastifyInstance;
  let token: string;

  const clone = (name: ResourceName, id: string, payload?: object, userToken = token) =>
    app.inject({
      method: 'POST',
      url: `/api/${getResource(name).apiPath}/${id}/clone`,
      headers: bearer(userToken),
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
  });

  it.each(KINDS)('clones %s: new id, "(copy)", the same references', async (name) => {
    const original = await createRecord(app, token, name);
    const response = await clone(name, recordId(getResource(name), original));
    expect(response.statusCode, response.body).toBe(201);
    const copy = response.json<StoredRecord>();
    expect(copy.external_id).not.toBe(original.external_id);
    expect(copy.name).toBe(`${original.name} (copy)`);
    expect(copy.status).toBe('active');
    for (const reference of getResource(name).references ?? []) {
      if (!reference.field.includes('*'))
        expect(copy[reference.field], reference.field).toEqual(original[reference.field]);
    }
    if (name === 'campaigns') expect(copy.ingest_token).not.toBe(original.ingest_token);
  });

  it('gives a flow copy new row ids and keeps its offers, weights and conditions', async () => {
    const offer = await createRecord(app, token, 'tracker-offers');
    const lander = await createRecord(app, token, 'tracker-landers');
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        {
          id: 'g1',
          name: 'Britain',
          condition: JSON.stringify({
            type: 'InCondition',
            data: { Var: 'countryCode', Operation: 'IN', Values: ['GB'] },
          }),
          paths: [
            {
              id: 'p1',
              weight: 70,
              daily_cap: 50,
              offers: [{ id: 'o1', offer_external_id: offer.external_id, weight: 3 }],
              landers: [{ id: 'l1', lander_external_id: lander.external_id }],
            },
            { id: 'p2', weight: 30, offers: [{ id: 'o2', offer_external_id: offer.external_id }] },
          ],
        },
      ],
    });
    const response = await clone('tracker-flows', String(flow.external_id));
    expect(response.statusCode, response.body).toBe(201);
    const copy = response.json<StoredRecord>();
    const before = rowIds(flow);
    const after = rowIds(copy);
    expect(after).toHaveLength(before.length);
    for (const id of after) expect(before).not.toContain(id);
    const shape = (record: StoredRecord) =>
      (
        record.path_groups as {
          name: string;
          condition: string;
          paths: { weight: number; daily_cap: number; offers: { offer_external_id: string; weight: number }[] }[];
        }[]
      ).map((group) => ({
        name: group.name,
        condition: group.condition,
        paths: group.paths.map((path) => ({
          weight: path.weight,
          daily_cap: path.daily_cap,
          offers: path.offers.map((row) => [row.offer_external_id, row.weight]),
        })),
      }));
    expect(shape(copy)).toEqual(shape(flow));
  });

  it('clones a tracker campaign with a copy of its flow, and gives payout rules new ids', async () => {
    const event = await createRecord(app, token, 'postback-events');
    const campaign = await createRecord(app, token, 'tracker-campaigns', {
      payout_rule_sets: [{ id: 's1', postback_event_external_id: event.external_id, rules: [{ id: 'r1', payout: 2 }] }],
    });
    const plain = (await clone('tracker-campaigns', String(campaign.external_id))).json<StoredRecord>();
    expect(plain.flow_external_id).toBe(campaign.flow_external_id);
    expect(rowIds(plain)).toHaveLength(2);
    expect(rowIds(plain)).not.toContain('s1');

    const response = await clone('tracker-campaigns', String(campaign.external_id), { with_flow: true });
    expect(response.statusCode, response.body).toBe(201);
    const copy = response.json<StoredRecord & { flow: StoredRecord }>();
    expect(copy.flow_external_id).not.toBe(campaign.flow_external_id);
    expect(copy.flow.external_id).toBe(copy.flow_external_id);
    const flowCopy = await app.inject({
      method: 'GET',
      url: `/api/tracker/flows/${copy.flow_external_id}`,
      headers: bearer(token),
    });
    expect(flowCopy.statusCode).toBe(200);
    expect(flowCopy.json<StoredRecord>().name).toMatch(/ \(copy\)$/);
  });

  it('needs the create right, and finds nothing of another workspace or of a kind not cloned', async () => {
    const offer = await createRecord(app, token, 'tracker-offers');
    const reader = await createUserWithPermissions(app, token, ['/tracker/offer/get']);
    expectError(await clone('tracker-offers', String(offer.external_id), undefined, reader.token), 403);
    expectError(await clone('tracker-offers', 'nosuchoffer1'), 404);
    const source = await createRecord(app, token, 'traffic-sources');
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/api/traffic-sources/${source.external_id}/clone`,
          headers: bearer(token),
        })
      ).statusCode,
    ).toBe(404);
    const workspace = await app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: bearer(token),
      payload: { name: 'Other' },
    });
    const elsewhere = await app.inject({
      method: 'POST',
      url: `/api/tracker/offers/${offer.external_id}/clone`,
      headers: { ...bearer(token), 'x-workspace': String(workspace.json<{ id: number }>().id) },
    });
    expectError(elsewhere, 404);
  });

  it('shortens a long name to fit "(copy)"', async () => {
    const offer = await createRecord(app, token, 'tracker-offers', { name: 'n'.repeat(255) });
    const copy = (await clone('tracker-offers', String(offer.external_id))).json<StoredRecord>();
    expect(copy.name).toHaveLength(255);
    expect(copy.name.endsWith(' (copy)')).toBe(true);
  });
});
