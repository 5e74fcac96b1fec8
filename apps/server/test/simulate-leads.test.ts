import type { SimulationAnswer } from '@switchyard/domain';
import { expect, it } from 'vitest';
import { createRecord } from './fixtures/config-records.js';
import { bearer, expectError, forEachDatabase, useSeededApp } from './harness.js';

// A lead simulated on an API campaign is routed by its own fields (age here), answered with
// its offer's URL as a lead's, and not recorded. On SQLite and PostgreSQL (visitors: simulate.test.ts).

type Trace = { verdict: boolean; value?: unknown; conditions?: Trace[] };
const leaves = (trace: Trace) => (trace.conditions ?? []).map(({ value, verdict }) => [value, verdict]);

forEachDatabase('simulating a lead', (db) => {
  const ctx = useSeededApp(db);

  it('simulates a lead on an API campaign without recording it', async () => {
    const offer = await createRecord(ctx.app, ctx.adminToken, 'offers', {
      url: 'https://adult.example/?c={clickid}&u={utm_source}',
    });
    const rest = await createRecord(ctx.app, ctx.adminToken, 'offers', { url: 'https://rest.example/' });
    const flow = await createRecord(ctx.app, ctx.adminToken, 'flows', {
      path_groups: [
        {
          id: 'adults',
          name: 'Adults',
          condition: JSON.stringify({
            type: 'CompareIntCondition',
            data: { Var: 'age', Values: { Value: 18, Comparator: '>=' } },
          }),
          paths: [{ id: 'pa', offer_external_id: offer.external_id }],
        },
        { id: 'rest', name: 'Rest', paths: [{ id: 'pr', offer_external_id: rest.external_id }] },
      ],
    });
    const apiCampaign = await createRecord(ctx.app, ctx.adminToken, 'campaigns', {
      flow_external_id: flow.external_id,
    });
    const lead = (payload: object) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/campaigns/${String(apiCampaign.external_id)}/simulate`,
        headers: bearer(ctx.adminToken),
        payload,
      });
    const adult = await lead({ email: 'a@example.org', age: 30, vars: { utm_source: 'news' }, country: 'DE' });
    expect(adult.statusCode, adult.body).toBe(200);
    const answer = adult.json<SimulationAnswer>();
    expect(answer).toMatchObject({
      context: { country: 'DE', vars: { utm_source: 'news' } },
      path_group: { id: 'adults' },
      offer: { external_id: offer.external_id },
      url: 'https://adult.example/?c={lead_id}&u=news',
    });
    expect(leaves(answer.groups[0]!.condition_trace as Trace)).toEqual([[30, true]]);
    const young = (await lead({ email: 'b@example.org', age: 15 })).json<SimulationAnswer>();
    expect(young.groups[0]).toMatchObject({ matched: false, condition_trace: { verdict: false } });
    expect(leaves(young.groups[0]!.condition_trace as Trace)).toEqual([[15, false]]);
    expect(young.path_group?.id).toBe('rest');
    expectError(await lead({ age: 30 }), 400);
    await ctx.app.engine.flush();
    expect(await ctx.app.store.db.selectFrom('tracker_leads').select('lead_id').execute()).toEqual([]);
  });
});
