import { getResource, VALIDATION_MESSAGES as M } from '@switchyard/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_RESOURCES } from '../src/api/config-records/routes.js';
import { createRecord, minimalBody, recordId, type StoredRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { GB_IP, IPHONE } from './fixtures/traffic.js';
import { bearer, expectError, forEachDatabase, listTotal, useSeededApp } from './harness.js';

// PostgreSQL refuses NUL (U+0000) in text columns. What an operator sends is refused with a 400
// on the field; what traffic brings (click vars, user agents, lead vars, postback parameters) is stripped,
// so no visitor's odd bytes lose a click. Never a 500, on SQLite and PostgreSQL alike.

const NUL = '\u0000';

forEachDatabase('NUL characters', (db) => {
  const ctx = useSeededApp(db);

  describe('in what an operator sends: 400 on the field, nothing written', () => {
    it.each(CONFIG_RESOURCES.map((definition) => definition.name))('%s: a name', async (name) => {
      const { apiPath } = getResource(name);
      const before = await listTotal(ctx.app, ctx.adminToken, apiPath);
      const body = await minimalBody(ctx.app, ctx.adminToken, name);
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/api/${apiPath}`,
        headers: bearer(ctx.adminToken),
        payload: { ...body, name: `Bad${NUL}name` },
      });
      expect(expectError(response, 400).errors).toEqual({ name: [M.nulCharacter] });
      expect(await listTotal(ctx.app, ctx.adminToken, apiPath)).toBe(before);
    });

    it.each([
      ['notes of an affiliate network', 'affiliate-networks', { notes: `Call${NUL}them` }, 'notes'],
      [
        "a path group's name in a flow",
        'flows',
        { path_groups: [{ id: 'g1', name: `Group${NUL}`, paths: [] }] },
        'path_groups.0.name',
      ],
    ] as const)('on update: %s', async (_case, name, changes, field) => {
      const body = await minimalBody(ctx.app, ctx.adminToken, name);
      const record = await createRecord(ctx.app, ctx.adminToken, name, body);
      const url = `/api/${getResource(name).apiPath}/${recordId(getResource(name), record)}`;
      const response = await ctx.app.inject({
        method: 'PUT',
        url,
        headers: bearer(ctx.adminToken),
        payload: { ...body, ...changes },
      });
      expect(expectError(response, 400).errors).toEqual({ [field]: [M.nulCharacter] });
      const stored = await ctx.app.inject({ method: 'GET', url, headers: bearer(ctx.adminToken) });
      expect(stored.json<StoredRecord>().updated_at).toBe(record.updated_at);
    });

    it('a workspace, a user, and a list search', async () => {
      const workspace = await ctx.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        headers: bearer(ctx.adminToken),
        payload: { name: `Team${NUL}` },
      });
      expect(expectError(workspace, 400).errors).toEqual({ name: [M.nulCharacter] });
      const user = await ctx.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: bearer(ctx.adminToken),
        payload: { name: `Ann${NUL}`, email: 'ann.nul@test.local', password: 'long-enough-1' },
      });
      expect(expectError(user, 400).errors).toEqual({ name: [M.nulCharacter] });
      const search = await ctx.app.inject({
        method: 'GET',
        url: '/api/offers?search=a%00b',
        headers: bearer(ctx.adminToken),
      });
      expect(expectError(search, 400).errors).toEqual({ search: [M.nulCharacter] });
    });
  });

  describe('in what traffic brings: stripped, and the event kept', () => {
    let campaign: StoredRecord;
    let apiCampaign: StoredRecord;

    beforeAll(async () => {
      const { app, adminToken: token } = ctx;
      const source = await createRecord(app, token, 'traffic-sources', {
        parameters: [{ name: 'Zone', ts_parameter: 'zone', ts_token: '{zone}', internal_token: 'var1', enabled: true }],
      });
      const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
      const flow = await createRecord(app, token, 'tracker-flows', {
        path_groups: [
          { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
        ],
      });
      campaign = await createRecord(app, token, 'tracker-campaigns', {
        traffic_source_external_id: source.external_id,
        flow_external_id: flow.external_id,
      });
      const apiOffer = await createRecord(app, token, 'offers', { url: 'https://api-offer.example/?l={lead_id}' });
      const apiFlow = await createRecord(app, token, 'flows', {
        path_groups: [{ id: 'g', name: 'All', paths: [{ id: 'p', offer_external_id: apiOffer.external_id }] }],
      });
      apiCampaign = await createRecord(app, token, 'campaigns', { flow_external_id: apiFlow.external_id });
    });

    it('a click with NUL in a var and in its user agent: 302, stored without NUL', async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/c/${campaign.external_id}?zone=Z%00one&utm_source=mail%00&sub%00aff=x`,
        remoteAddress: GB_IP,
        headers: { 'user-agent': `${IPHONE}${NUL}`, referer: `https://news.example/${NUL}` },
      });
      expect(response.statusCode, response.body).toBe(302);
      const clickId = new URL(String(response.headers.location)).searchParams.get('c')!;
      await ctx.app.engine.flush();
      const row = await ctx.app.store.db
        .selectFrom('tracker_clicks')
        .selectAll()
        .where('click_id', '=', clickId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ var1: 'Zone', device: 'mobile', referrer: 'https://news.example/' });
      expect(JSON.parse(row.vars)).toEqual({ var1: 'Zone', utm_source: 'mail', subaff: 'x' });
      expect(JSON.stringify(row)).not.toContain('\\u0000');
    });

    it('a click over HTTP (the door ahead of Fastify) with NUL in a var: 302, stored without NUL', async () => {
      const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const response = await fetch(`${base}/c/${campaign.external_id}?zone=Fast%00Door`, { redirect: 'manual' });
      expect(response.status).toBe(302);
      const clickId = new URL(String(response.headers.get('location'))).searchParams.get('c')!;
      await ctx.app.engine.flush();
      const row = await ctx.app.store.db
        .selectFrom('tracker_clicks')
        .select(['var1', 'vars'])
        .where('click_id', '=', clickId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ var1: 'FastDoor', vars: JSON.stringify({ var1: 'FastDoor' }) });
    });

    it('a lead with NUL in a var and its email: 200, stored without NUL', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/v1/campaigns/${apiCampaign.external_id}/leads`,
        headers: { 'x-api-key': String(apiCampaign.ingest_token) },
        payload: { email: `lead${NUL}@example.org`, user_agent: `UA${NUL}`, vars: { var1: `a${NUL}b` } },
      });
      expect(response.statusCode, response.body).toBe(200);
      const { lead_id: leadId } = response.json<{ lead_id: string }>();
      await ctx.app.engine.flush();
      const row = await ctx.app.store.db
        .selectFrom('tracker_leads')
        .selectAll()
        .where('lead_id', '=', leadId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ var1: 'ab', user_agent: 'UA', email_domain: 'example.org' });
      expect(JSON.parse(row.vars)).toEqual({ var1: 'ab' });
      expect(JSON.stringify(row)).not.toContain('\\u0000');
    });

    it('a postback with NUL in its parameters: counted, its parameters kept without NUL', async () => {
      const click = await ctx.app.inject({ method: 'GET', url: `/c/${campaign.external_id}`, remoteAddress: GB_IP });
      const clickId = new URL(String(click.headers.location)).searchParams.get('c')!;
      const response = await ctx.app.inject({
        method: 'GET',
        url: `${await postbackPath(ctx.app)}?clickid=${clickId}&payout=1&status=sa%00le&txid=t%001&note%00=x`,
      });
      expect(response.statusCode, response.body).toBe(200);
      const conversion = await ctx.app.store.db
        .selectFrom('conversions')
        .selectAll()
        .where('click_id', '=', clickId)
        .executeTakeFirstOrThrow();
      expect(conversion).toMatchObject({ status: 'sale', txid: 't1' });
      expect(JSON.parse(conversion.raw)).toEqual({
        clickid: clickId,
        payout: '1',
        status: 'sale',
        txid: 't1',
        note: 'x',
      });
      const unknown = await ctx.app.inject({
        method: 'GET',
        url: `${await postbackPath(ctx.app)}?clickid=no%00such&txid=x%00`,
      });
      expect(unknown.statusCode, unknown.body).toBe(404);
    });
  });
});
