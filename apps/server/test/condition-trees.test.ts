import { CONDITION_MAX_DEPTH } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import { createRecord, minimalBody } from './fixtures/config-records.js';
import { bearer, expectError, forEachDatabase, listTotal, useSeededApp } from './harness.js';

// Issue 4: the server validates every stored condition tree with the domain's code, and refuses a tree
// deeper than the limit or of the wrong shape with a 400 on the field.

const leaf = { type: 'InCondition', data: { Var: 'countryCode', Operation: 'IN', Values: ['US'] } };

/** `levels` nested And groups around one leaf. */
function nested(levels: number): unknown {
  let node: unknown = leaf;
  for (let level = 0; level < levels; level += 1) node = { type: 'AndCondition', data: { Conditions: [node] } };
  return node;
}

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
});
