import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { countryIn, GB_IP, IPHONE, US_IP } from './fixtures/traffic.js';
import { bearer, expectError, forEachDatabase, useSeededApp } from './harness.js';

// A click is routed (302 with macros filled) and recorded; a lead is routed and
// recorded; a wrong key is 401 and a bad body 400. On SQLite and PostgreSQL.

const condition = (tree: unknown) => JSON.stringify(tree);

async function update(app: FastifyInstance, token: string, apiPath: string, record: StoredRecord, changes: object) {
  const { external_id: _id, status: _s, created_at: _c, updated_at: _u, workspace_id: _w, ...body } = record;
  const response = await app.inject({
    method: 'PUT',
    url: `/api/${apiPath}/${record.external_id}`,
    headers: bearer(token),
    payload: { ...body, ...changes },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<StoredRecord>();
}

forEachDatabase('tracker clicks', (db) => {
  const ctx = useSeededApp(db);
  let campaign: StoredRecord;
  let flow: StoredRecord;
  let offerGb: StoredRecord;
  let offerOther: StoredRecord;
  let lander: StoredRecord;

  beforeAll(async () => {
    const { app, adminToken: token } = ctx;
    const source = await createRecord(app, token, 'traffic-sources', {
      parameters: [
        { name: 'Zone', ts_parameter: 'zone', ts_token: '{zone}', internal_token: 'var1', enabled: true },
        { name: 'Click id', ts_parameter: 'cid', ts_token: '{click_id}', internal_token: 'var2', enabled: true },
      ],
    });
    offerGb = await createRecord(app, token, 'tracker-offers', {
      url: 'https://offer-gb.example/go?c={clickid}&z={var1}&cc={country}&ext={external_id}&s={subaff}&l={lander_id}&keep={own}',
    });
    offerOther = await createRecord(app, token, 'tracker-offers', {
      url: 'https://offer-other.example/?c={clickid}&camp={campaign_id}&o={offer_id}&u={utm_source}',
    });
    lander = await createRecord(app, token, 'tracker-landers', {
      url: 'https://lander.example/?c={clickid}&o={offer_id}&z={var1}',
    });
    flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        {
          id: 'g-gb',
          name: 'Great Britain',
          condition: countryIn('GB'),
          paths: [
            {
              id: 'p-gb',
              name: 'GB path',
              offers: [{ id: 'o1', offer_external_id: offerGb.external_id }],
              landers: [{ id: 'l1', lander_external_id: lander.external_id }],
            },
          ],
        },
        {
          id: 'g-rest',
          name: 'Everyone else',
          paths: [{ id: 'p-rest', offers: [{ id: 'o2', offer_external_id: offerOther.external_id }] }],
        },
      ],
    });
    campaign = await createRecord(app, token, 'tracker-campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
      cost_model: 'CPC',
      cost: 0.25,
    });
  });

  it('routes a GB click to the lander, and the lander on to the offer, with macros filled', async () => {
    const { app } = ctx;
    const click = await app.inject({
      method: 'GET',
      url: `/c/${campaign.external_id}?zone=Z%201&cid=abc&subaff=s%2F1&other=x`,
      remoteAddress: GB_IP,
      headers: { 'user-agent': IPHONE, referer: 'https://news.example/a' },
    });
    expect(click.statusCode, click.body).toBe(302);
    const landerUrl = new URL(String(click.headers.location));
    expect(landerUrl.origin).toBe('https://lander.example');
    const clickId = landerUrl.searchParams.get('c')!;
    expect(clickId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(landerUrl.searchParams.get('o')).toBe(offerGb.external_id);
    expect(landerUrl.searchParams.get('z')).toBe('Z 1');
    expect(String(click.headers['set-cookie'])).toContain('sy_vid=');

    const offer = await app.inject({
      method: 'GET',
      url: `/c/${campaign.external_id}/offer?clickid=${clickId}`,
      remoteAddress: GB_IP,
    });
    expect(offer.statusCode, offer.body).toBe(302);
    expect(offer.headers.location).toBe(
      `https://offer-gb.example/go?c=${clickId}&z=Z%201&cc=GB&ext=abc&s=s%2F1&l=${lander.external_id}&keep={own}`,
    );

    await app.engine.flush();
    const row = await app.store.db
      .selectFrom('tracker_clicks')
      .selectAll()
      .where('click_id', '=', clickId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      campaign_external_id: campaign.external_id,
      flow_external_id: flow.external_id,
      path_group_id: 'g-gb',
      path_id: 'p-gb',
      lander_external_id: lander.external_id,
      offer_external_id: offerGb.external_id,
      country: 'GB',
      device: 'mobile',
      platform: 'ios',
      browser: 'Mobile Safari',
      var1: 'Z 1',
      var2: 'abc',
      subaff: 's/1',
      external_click_id: 'abc',
      referrer: 'https://news.example/a',
      is_unique: 1,
      is_bot: 0,
      reason: 'matched',
    });
    expect(Number(row.cost)).toBeCloseTo(0.25);
    expect(JSON.parse(row.vars)).toEqual({ var1: 'Z 1', var2: 'abc', subaff: 's/1' });
  });

  it('routes a click from elsewhere straight to the offer, and counts a returning visitor as not unique', async () => {
    const { app } = ctx;
    const first = await app.inject({
      method: 'GET',
      url: `/c/${campaign.external_id}?utm_source=mail%20&more`,
      remoteAddress: US_IP,
      headers: { 'user-agent': 'curl/8.5.0' },
    });
    expect(first.statusCode, first.body).toBe(302);
    const location = new URL(String(first.headers.location));
    expect(location.origin).toBe('https://offer-other.example');
    expect(location.searchParams.get('camp')).toBe(campaign.external_id);
    expect(location.searchParams.get('o')).toBe(offerOther.external_id);
    expect(location.searchParams.get('u')).toBe('mail ');
    const cookies = ([] as string[]).concat(first.headers['set-cookie'] ?? []).map((cookie) => cookie.split(';')[0]);
    expect(cookies).toHaveLength(2);

    const again = await app.inject({
      method: 'GET',
      url: `/c/${campaign.external_id}`,
      remoteAddress: US_IP,
      headers: { 'user-agent': 'curl/8.5.0', cookie: cookies.join('; ') },
    });
    expect(again.statusCode).toBe(302);
    expect(again.headers['set-cookie']).toBeUndefined();

    await app.engine.flush();
    const rows = await app.store.db
      .selectFrom('tracker_clicks')
      .select(['click_id', 'visitor_id', 'is_unique', 'is_bot', 'browser', 'country', 'path_group_id'])
      .where('click_id', 'in', [
        location.searchParams.get('c')!,
        new URL(String(again.headers.location)).searchParams.get('c')!,
      ])
      .orderBy('id')
      .execute();
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => row.is_unique)).toEqual([1, 0]);
    expect(rows[0]!.visitor_id).toBe(rows[1]!.visitor_id);
    expect(rows[0]).toMatchObject({ is_bot: 1, browser: 'cURL', country: 'US', path_group_id: 'g-rest' });
  });

  it('follows a flow change at once', async () => {
    const { app, adminToken } = ctx;
    const [gb, rest] = flow.path_groups as { enabled: boolean }[];
    flow = await update(app, adminToken, 'tracker/flows', flow, { path_groups: [{ ...gb, enabled: false }, rest] });
    const click = await app.inject({ method: 'GET', url: `/c/${campaign.external_id}`, remoteAddress: GB_IP });
    expect(click.statusCode).toBe(302);
    expect(String(click.headers.location)).toMatch(/^https:\/\/offer-other\.example\//);
  });

  it('answers 404 for an unknown or archived campaign and an unknown click', async () => {
    const { app, adminToken } = ctx;
    expectError(await app.inject({ method: 'GET', url: '/c/noSuchCampaign1' }), 404);
    expectError(await app.inject({ method: 'GET', url: `/c/${campaign.external_id}/offer?clickid=nope` }), 404);
    expectError(await app.inject({ method: 'GET', url: `/c/${campaign.external_id}/offer` }), 404);
    const archived = await app.inject({
      method: 'PUT',
      url: `/api/tracker/campaigns/${campaign.external_id}/archive`,
      headers: bearer(adminToken),
    });
    expect(archived.statusCode).toBe(200);
    expectError(await app.inject({ method: 'GET', url: `/c/${campaign.external_id}` }), 404);
  });

  it('writes waiting clicks when the app closes', async () => {
    const { app, adminToken } = ctx;
    const restored = await app.inject({
      method: 'PUT',
      url: `/api/tracker/campaigns/${campaign.external_id}/restore`,
      headers: bearer(adminToken),
    });
    expect(restored.statusCode).toBe(200);
    const before = await app.store.db.selectFrom('tracker_clicks').select('click_id').execute();
    const click = await app.inject({ method: 'GET', url: `/c/${campaign.external_id}`, remoteAddress: US_IP });
    expect(click.statusCode).toBe(302);
    const clickId = new URL(String(click.headers.location)).searchParams.get('c')!;
    const second = await db.buildAppOnSameDatabase(app);
    await app.close();
    const rows = await second.store.db.selectFrom('tracker_clicks').select('click_id').execute();
    expect(rows.map((row) => row.click_id)).toEqual(
      expect.arrayContaining([...before.map((row) => row.click_id), clickId]),
    );
    // The lander's offer link still works for a click the new process never saw.
    const offer = await second.inject({ method: 'GET', url: `/c/${campaign.external_id}/offer?clickid=${clickId}` });
    expect(offer.statusCode, offer.body).toBe(302);
    expect(String(offer.headers.location)).toContain(`c=${clickId}`);
  });
});

forEachDatabase('tracker leads', (db) => {
  const ctx = useSeededApp(db);
  let campaign: StoredRecord;
  let adultOffer: StoredRecord;
  let fallbackOffer: StoredRecord;
  const url = () => `/v1/campaigns/${campaign.external_id}/leads`;
  const key = () => ({ 'x-api-key': String(campaign.ingest_token) });

  beforeAll(async () => {
    const { app, adminToken: token } = ctx;
    adultOffer = await createRecord(app, token, 'offers', {
      url: 'https://adult.example/?lead={lead_id}&c={clickid}&sa={subaff}&u={utm_source}&cc={country}',
    });
    fallbackOffer = await createRecord(app, token, 'offers', { url: 'https://fallback.example/?lead={lead_id}' });
    const flow = await createRecord(app, token, 'flows', {
      path_groups: [
        {
          id: 'adults',
          name: 'Adults',
          condition: condition({
            type: 'CompareIntCondition',
            data: { Var: 'age', Values: { Value: 18, Comparator: '>=' } },
          }),
          paths: [{ id: 'pa', offer_external_id: adultOffer.external_id, subaff: 'path-sub' }],
        },
        { id: 'rest', name: 'Rest', paths: [{ id: 'pr', offer_external_id: fallbackOffer.external_id }] },
      ],
    });
    campaign = await createRecord(app, token, 'campaigns', { flow_external_id: flow.external_id });
  });

  it('gives an API campaign a read-only ingest token', async () => {
    const { app, adminToken } = ctx;
    expect(campaign.ingest_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const updated = await update(app, adminToken, 'campaigns', campaign, { ingest_token: 'chosen-by-client' });
    expect(updated.ingest_token).toBe(campaign.ingest_token);
  });

  it('routes a lead by its age and records it', async () => {
    const { app } = ctx;
    const response = await app.inject({
      method: 'POST',
      url: url(),
      headers: key(),
      payload: {
        email: 'Someone@Gmail.com',
        age: 30,
        ip: GB_IP,
        user_agent: IPHONE,
        vars: { utm_source: 'news letter', var3: 7 },
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ lead_id: string; offer: { url: string }; path_group: unknown; reason: string }>();
    expect(body).toEqual({
      lead_id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      offer: {
        external_id: adultOffer.external_id,
        name: adultOffer.name,
        url: `https://adult.example/?lead=${body.lead_id}&c=${body.lead_id}&sa=path-sub&u=news%20letter&cc=GB`,
      },
      path_group: { id: 'adults', name: 'Adults' },
      reason: 'matched',
    });

    const young = await app.inject({
      method: 'POST',
      url: url(),
      headers: key(),
      payload: { email: 'kid@example.org', age: '15' },
    });
    expect(young.statusCode, young.body).toBe(200);
    expect(young.json()).toMatchObject({
      offer: { external_id: fallbackOffer.external_id },
      path_group: { id: 'rest' },
    });

    await app.engine.flush();
    const row = await app.store.db
      .selectFrom('tracker_leads')
      .selectAll()
      .where('lead_id', '=', body.lead_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      campaign_external_id: campaign.external_id,
      path_group_id: 'adults',
      path_id: 'pa',
      offer_external_id: adultOffer.external_id,
      email_domain: 'gmail.com',
      age: 30,
      country: 'GB',
      device: 'mobile',
      platform: 'ios',
      subaff: 'path-sub',
      var3: '7',
      decision: 'routed',
      reason: 'matched',
      backup_used: 0,
    });
    expect(row.email_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain('Someone');
    const leads = await app.store.db.selectFrom('tracker_leads').select('lead_id').execute();
    expect(leads).toHaveLength(2);
  });

  it('refuses a wrong or missing key with 401, before reading the body', async () => {
    const { app } = ctx;
    expectError(
      await app.inject({ method: 'POST', url: url(), headers: { 'x-api-key': 'wrong' }, payload: { email: 'a@b.co' } }),
      401,
    );
    expectError(await app.inject({ method: 'POST', url: url(), payload: { email: 'a@b.co' } }), 401);
    expectError(
      await app.inject({ method: 'POST', url: url(), headers: { 'x-api-key': 'wrong' }, payload: { nope: 1 } }),
      401,
    );
    expectError(
      await app.inject({ method: 'POST', url: '/v1/campaigns/noSuchCampaign1/leads', headers: key(), payload: {} }),
      404,
    );
  });

  it('refuses a bad body with 400 and names the fields', async () => {
    const { app } = ctx;
    const missing = expectError(await app.inject({ method: 'POST', url: url(), headers: key(), payload: {} }), 400);
    expect(Object.keys(missing.errors ?? {})).toEqual(['email']);
    const bad = expectError(
      await app.inject({
        method: 'POST',
        url: url(),
        headers: key(),
        payload: { email: 'not-an-email', age: -1, ip: '999.1.1.1', country: 'Britain', vars: { password: 'x' } },
      }),
      400,
    );
    expect(Object.keys(bad.errors ?? {}).sort()).toEqual(['age', 'country', 'email', 'ip', 'vars.password']);
    expectError(
      await app.inject({
        method: 'POST',
        url: url(),
        headers: { ...key(), 'content-type': 'application/json' },
        payload: '{"email":',
      }),
      400,
    );
  });
});
