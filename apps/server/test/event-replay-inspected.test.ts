import { type ClickReplay, type LeadReplay, MONEY_PERMISSION } from '@switchyard/domain';
import { expect, it } from 'vitest';
import { createRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { DESKTOP, GB_IP } from './fixtures/traffic.js';
import { bearer, createUserWithPermissions, forEachDatabase, useSeededApp } from './harness.js';

// The click inspector: a click's or lead's replay also names the records it was routed to and
// lists its conversions (as the event tables' click row does), their payout only with the money
// permission; so one link opens the whole event. On SQLite and PostgreSQL.

forEachDatabase('an inspected click or lead', (db) => {
  const ctx = useSeededApp(db);

  it("names a click's records and lists its conversions, their payout only for who sees money", async () => {
    const { app, adminToken: token } = ctx;
    const sale = await createRecord(app, token, 'postback-events', { status_values: ['approved', 'sale'] });
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://gb.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    const campaign = await createRecord(app, token, 'tracker-campaigns', {
      flow_external_id: flow.external_id,
      postback_events: [{ postback_event_external_id: sale.external_id, is_conversion: true }],
      payout_rule_sets: [{ id: 'rs', postback_event_external_id: sale.external_id, default_payout: 3, rules: [] }],
    });
    const clicked = await app.inject({
      method: 'GET',
      url: `/c/${String(campaign.external_id)}`,
      remoteAddress: GB_IP,
      headers: { 'user-agent': DESKTOP },
    });
    expect(clicked.statusCode, clicked.body).toBe(302);
    const clickId = new URL(String(clicked.headers.location)).searchParams.get('c') ?? '';
    const replay = async (as: string) => {
      const response = await app.inject({
        method: 'GET',
        url: `/api/events/clicks/${clickId}/replay`,
        headers: bearer(as),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<ClickReplay>().click;
    };

    expect((await replay(token)).conversions).toEqual([]);
    await app.engine.flush();
    for (const query of [`clickid=${clickId}&status=approved&txid=t1`, `clickid=${clickId}&status=sale&txid=t2`]) {
      const response = await app.inject({ method: 'GET', url: `${await postbackPath(app)}?${query}` });
      expect(response.statusCode, response.body).toBe(200);
    }

    const click = await replay(token);
    expect(click).toMatchObject({
      campaign: { kind: 'tracker-campaigns', external_id: campaign.external_id, name: campaign.name },
      flow: { kind: 'tracker-flows', external_id: flow.external_id, name: flow.name },
      offer: { kind: 'tracker-offers', external_id: offer.external_id, name: offer.name },
      lander: null,
    });
    expect(click.conversions.map(({ state, payout }) => ({ state, payout }))).toEqual([
      { state: 'approved', payout: 3 },
      { state: 'approved', payout: 3 },
    ]);

    const masked = await createUserWithPermissions(app, token, ['/tracker/reports/get']);
    const hidden = await replay(masked.token);
    expect(hidden.conversions).toHaveLength(2);
    for (const conversion of hidden.conversions) expect(conversion).not.toHaveProperty('payout');
    const moneyed = await createUserWithPermissions(app, token, ['/tracker/reports/get', MONEY_PERMISSION]);
    expect((await replay(moneyed.token)).conversions.map((conversion) => conversion.payout)).toEqual([3, 3]);
  });

  it("names a lead's records and lists its conversions", async () => {
    const { app, adminToken: token } = ctx;
    const sale = await createRecord(app, token, 'postback-events', { status_values: ['lead-sale'] });
    const offer = await createRecord(app, token, 'offers', { url: 'https://api.example/?l={lead_id}' });
    const flow = await createRecord(app, token, 'flows', {
      path_groups: [{ id: 'ag', name: 'All', paths: [{ id: 'ap', offer_external_id: offer.external_id }] }],
    });
    const campaign = await createRecord(app, token, 'campaigns', {
      flow_external_id: flow.external_id,
      postback_events: [{ postback_event_external_id: sale.external_id, is_conversion: true }],
      payout_rule_sets: [{ id: 'rs', postback_event_external_id: sale.external_id, default_payout: 2, rules: [] }],
    });
    const posted = await app.inject({
      method: 'POST',
      url: `/v1/campaigns/${String(campaign.external_id)}/leads`,
      headers: { 'x-api-key': String(campaign.ingest_token) },
      payload: { email: 'a@example.org', ip: GB_IP, user_agent: DESKTOP },
    });
    expect(posted.statusCode, posted.body).toBe(200);
    const leadId = posted.json<{ lead_id: string }>().lead_id;
    await app.engine.flush();
    const converted = await app.inject({
      method: 'GET',
      url: `${await postbackPath(app)}?clickid=${leadId}&status=lead-sale&txid=l1`,
    });
    expect(converted.statusCode, converted.body).toBe(200);

    const response = await app.inject({
      method: 'GET',
      url: `/api/events/leads/${leadId}/replay`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    const { lead } = response.json<LeadReplay>();
    expect(lead).toMatchObject({
      campaign: { kind: 'campaigns', external_id: campaign.external_id, name: campaign.name },
      flow: { kind: 'flows', name: flow.name },
      offer: { kind: 'offers', name: offer.name },
    });
    expect(lead).not.toHaveProperty('lander');
    expect(lead.conversions.map(({ state, payout }) => ({ state, payout }))).toEqual([
      { state: 'approved', payout: 2 },
    ]);
  });
});
