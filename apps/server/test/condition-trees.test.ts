import { CONDITION_MAX_DEPTH, getResource, VALIDATION_MESSAGES as M, type ResourceName } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import { type Body, createRecord, minimalBody, recordId } from './fixtures/config-records.js';
import { bearer, expectError, forEachDatabase, listTotal, useSeededApp } from './harness.js';

// The server validates every stored condition tree with the domain's code, and refuses a tree
// deeper than the limit or of the wrong shape with a 400 on the field.

const leaf = { type: 'InCondition', data: { Var: 'countryCode', Operation: 'IN', Values: ['US'] } };

/** `levels` nested And groups around one leaf. */
function nested(levels: number): unknown {
  let node: unknown = leaf;
  for (let level = 0; level < levels; level += 1) node = { type: 'AndCondition', data: { Conditions: [node] } };
  return node;
}

/**
 * Hostile trees, built as text: one this deep cannot go through JSON.stringify. Each is small
 * enough for the 1 MB body limit, so it is the tree that is refused, not the body.
 */
const HOSTILE_TREES = [
  ['AND nested 10,000 levels', chainText('AndCondition', 10_000), M.conditionTooDeep],
  ['OR nested 10,000 levels', chainText('OrCondition', 10_000), M.conditionTooDeep],
  ['NOT nested 10,000 levels', chainText('NotCondition', 10_000), M.conditionTooDeep],
  // The smallest nodes there are: 100,000 real leaves would pass the body limit (413) before the tree is read.
  ['100,000 nodes wide', wideText('{}', 100_000), M.conditionTooLarge],
  ['25,000 AllCondition leaves wide', wideText('{"type":"AllCondition"}', 25_000), M.conditionTooLarge],
] as const;

function chainText(kind: 'AndCondition' | 'OrCondition' | 'NotCondition', levels: number): string {
  const [open, close] =
    kind === 'NotCondition'
      ? ['{"type":"NotCondition","data":{"Condition":', '}}']
      : [`{"type":"${kind}","data":{"Conditions":[`, ']}}'];
  return open.repeat(levels) + JSON.stringify(leaf) + close.repeat(levels);
}

function wideText(node: string, nodes: number): string {
  return `{"type":"OrCondition","data":{"Conditions":[${Array.from({ length: nodes - 1 }, () => node).join(',')}]}}`;
}

/** Every resource that takes conditions, the body that puts one where it goes, and the field it is named by. */
const CONDITION_FIELDS: readonly { resource: ResourceName; field: string; body: (condition: string) => Body }[] = [
  { resource: 'segments', field: 'condition', body: (condition) => ({ condition }) },
  { resource: 'tracker-segments', field: 'condition', body: (condition) => ({ condition }) },
  ...(['flows', 'tracker-flows'] as const).map((resource) => ({
    resource,
    field: 'path_groups.0.condition',
    body: (condition: string) => ({ path_groups: [{ id: 'g1', name: 'Hostile', condition, paths: [] }] }),
  })),
  ...(['campaigns', 'tracker-campaigns'] as const).map((resource) => ({
    resource,
    field: 'payout_rule_sets.0.rules.0.condition',
    body: (condition: string) => ({
      payout_rule_sets: [
        { id: 's1', postback_event_external_id: 'anyEvent1', rules: [{ id: 'r1', payout: 1, condition }] },
      ],
    }),
  })),
];

forEachDatabase('condition trees', (db) => {
  const context = useSeededApp(db);

  describe('a segment', () => {
    it('takes a tree at the depth limit', async () => {
      const segment = await createRecord(context.app, context.adminToken, 'segments', {
        condition: JSON.stringify(nested(CONDITION_MAX_DEPTH - 1)),
      });
      expect(typeof segment.condition).toBe('string');
    });

    it.each([
      ['deeper than the limit', JSON.stringify(nested(CONDITION_MAX_DEPTH + 1))],
      ['of an unknown node type', JSON.stringify({ type: 'MaybeCondition', data: {} })],
      ['with a leaf missing its values', JSON.stringify({ type: 'InCondition', data: { Var: 'countryCode' } })],
      ['that is not JSON', '{"type": "AndCondition"'],
    ])('refuses a tree %s with a 400 on condition, writing nothing', async (_case, condition) => {
      const before = await listTotal(context.app, context.adminToken, 'segments');
      const body = { ...(await minimalBody(context.app, context.adminToken, 'segments')), condition };
      const response = await context.app.inject({
        method: 'POST',
        url: '/api/segments',
        headers: bearer(context.adminToken),
        payload: body,
      });
      const error = expectError(response, 400);
      expect(Object.keys(error.errors ?? {}).some((field) => field.startsWith('condition'))).toBe(true);
      expect(await listTotal(context.app, context.adminToken, 'segments')).toBe(before);
    });
  });

  it("refuses a flow whose path group's tree is too deep, naming that group's condition", async () => {
    const body = (await minimalBody(context.app, context.adminToken, 'flows')) as Record<string, unknown>;
    const offer = await createRecord(context.app, context.adminToken, 'offers');
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/flows',
      headers: bearer(context.adminToken),
      payload: {
        ...body,
        path_groups: [
          {
            id: 'g1',
            name: 'Too deep',
            enabled: true,
            priority: 0,
            condition: JSON.stringify(nested(CONDITION_MAX_DEPTH + 1)),
            paths: [
              {
                id: 'p1',
                name: 'Only path',
                enabled: true,
                weight: 100,
                daily_cap: 0,
                postback_daily_cap: 0,
                subaff: '',
                offer_external_id: offer.external_id,
              },
            ],
          },
        ],
      },
    });
    const error = expectError(response, 400);
    expect(Object.keys(error.errors ?? {})).toContain('path_groups.0.condition');
  });

  describe.each(CONDITION_FIELDS)('$resource refuses hostile trees on $field, before reading them', (target) => {
    const { apiPath } = getResource(target.resource);

    it.each(HOSTILE_TREES)('on create: %s', async (_case, condition, message) => {
      const before = await listTotal(context.app, context.adminToken, apiPath);
      const base = await minimalBody(context.app, context.adminToken, target.resource);
      const response = await context.app.inject({
        method: 'POST',
        url: `/api/${apiPath}`,
        headers: bearer(context.adminToken),
        payload: { ...base, ...target.body(condition) },
      });
      expect(expectError(response, 400).errors).toEqual({ [target.field]: [message] });
      expect(await listTotal(context.app, context.adminToken, apiPath)).toBe(before);
    });

    it.each(HOSTILE_TREES)('on update: %s', async (_case, condition, message) => {
      const base = await minimalBody(context.app, context.adminToken, target.resource);
      const record = await createRecord(context.app, context.adminToken, target.resource, base);
      const id = recordId(getResource(target.resource), record);
      const response = await context.app.inject({
        method: 'PUT',
        url: `/api/${apiPath}/${id}`,
        headers: bearer(context.adminToken),
        payload: { ...base, ...target.body(condition) },
      });
      expect(expectError(response, 400).errors).toEqual({ [target.field]: [message] });
    });
  });

  it('refuses a deep tree sent as JSON instead of text with a 400 on the field, not a stack overflow', async () => {
    const payload = `{"name":"Deep body","condition":${chainText('NotCondition', 10_000)}}`;
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/segments',
      headers: { ...bearer(context.adminToken), 'content-type': 'application/json' },
      payload,
    });
    expect(Object.keys(expectError(response, 400).errors ?? {})).toEqual(['condition']);
  });
});
