import type { LeadReplay, SimulationAnswer } from '@switchyard/domain';
import { expect, it } from 'vitest';
import { createRecord } from './fixtures/config-records.js';
import { DESKTOP, GB_IP } from './fixtures/traffic.js';
import { bearer, createUserWithPermissions, expectError, forEachDatabase, useSeededApp } from './harness.js';

// `GET /api/events/leads/{lead_id}/replay` routes a stored lead's context again against
// today's configuration, its email read back from its stored hash and domain; records nothing; under
// the event tables' permission, in the acting workspace only. On SQLite and PostgreSQL.

const ADULTS_IN_DE = JSON.stringify({
  type: 'AndCondition',
  data: {
    Conditions: [
      { type: 'CompareIntCondition', data: { Var: 'age', Values: { Value: 18, Comparator: '>=' } } },
      { type: 'InCondition', data: { Var: 'countryCode', Operation: 'IN', Values: ['DE'] } },
    ],
  },
});

forEachDatabase('replaying a stored lead', (db) => {
  const ctx = useSeededApp(db);

  it('answers the stored lead beside its context routed today, records nothing, stays in its workspace', async () => {
    const { app, adminToken } = ctx;
    const adults = await createRecord(app, adminToken, 'offers', { url: 'https://adult.example/?c={clickid}' });
    const rest = await createRecord(app, adminToken, 'offers', { url: 'https://rest.example/' });
    const flow = await createRecord(app, adminToken, 'flows', {
      path_groups: [
        {
          id: 'adults',
          name: 'Adults in DE',
          condition: ADULTS_IN_DE,
          paths: [{ id: 'pa', offer_external_id: adults.external_id }],
        },
        { id: 'rest', name: 'Rest', paths: [{ id: 'pr', offer_external_id: rest.external_id }] },
      ],
    });
    const campaign = await createRecord(app, adminToken, 'campaigns', { flow_external_id: flow.external_id });
    const visitor = { email: 'a@gmail.com', age: 30, country: 'DE', vars: { utm_source: 'news' } };
    const post = async () => {
      const response = await app.inject({
        method: 'POST',
        url: `/v1/campaigns/${String(campaign.external_id)}/leads`,
        headers: { 'x-api-key': String(campaign.ingest_token) },
        payload: { ...visitor, ip: GB_IP, user_agent: DESKTOP },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ lead_id: string }>().lead_id;
    };
    const replay = (leadId: string, headers: Record<string, string> = bearer(adminToken)) =>
      app.inject({ method: 'GET', url: `/api/events/leads/${leadId}/replay`, headers });
    const leads = async () => {
      await app.engine.flush();
      return (await app.store.db.selectFrom('tracker_leads').select('lead_id').execute()).length;
    };

    const leadId = await post();
    const response = await replay(leadId);
    expect(response.statusCode, response.body).toBe(200);
    const { lead, replay: today } = response.json<LeadReplay>();
    expect(lead).toMatchObject({
      lead_id: leadId,
      path_group_id: 'adults',
      offer_external_id: adults.external_id,
      decision: 'routed',
      email_domain: 'gmail.com',
      age: 30,
      country: 'DE',
      is_unique: true,
      vars: { utm_source: 'news' },
    });
    expect(today).toMatchObject({
      path_group: { id: 'adults' },
      offer: { external_id: adults.external_id },
      context: { country: 'DE', vars: { utm_source: 'news' } },
    });
    // The email's registrations are counted by its stored hash (this lead's own among them), and it
    // rates as the email itself does.
    const simulated = await app.inject({
      method: 'POST',
      url: `/api/campaigns/${String(campaign.external_id)}/simulate`,
      headers: bearer(adminToken),
      payload: visitor,
    });
    const fields = simulated.json<SimulationAnswer>().context.fields;
    expect(today?.context.fields).toMatchObject({ regsCount: 1, isUnique: 'true', emailRate: fields.emailRate });

    const again = (await replay(await post())).json<LeadReplay>();
    expect(again.lead.is_unique).toBe(false);
    expect(again.replay?.context.fields).toMatchObject({ regsCount: 2, isUnique: 'false' });

    const before = await leads();
    expect((await replay(leadId)).statusCode).toBe(200);
    expect(await leads()).toBe(before);

    const campaignReader = await createUserWithPermissions(app, adminToken, ['/api/campaign/get']);
    expectError(await replay(leadId, bearer(campaignReader.token)), 403);
    const workspace = await app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: bearer(adminToken),
      payload: { name: 'Client B' },
    });
    expect(workspace.statusCode, workspace.body).toBe(201);
    const other = { ...bearer(adminToken), 'x-workspace': String(workspace.json<{ id: number }>().id) };
    expectError(await replay(leadId, other), 404);
    expectError(await replay('noSuchLead1'), 404);
  });
});
