import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { campaignOnFlow, createRecord, type StoredRecord } from './fixtures/config-records.js';
import { countryIn, DATACENTER_IP, GB_IP, HOME_IP, IPHONE } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// Tracking without a redirect: a direct campaign's tracking script (/{campaign}/t.js and the click it
// posts from an allowed origin) and a lander server's POST /v1/clicks with the campaign's click token.
// Both record the click as a redirect click is recorded: routing, caps, bot verdict, cookie. On SQLite
// and PostgreSQL.

const LANDER = 'https://lander.example';

forEachDatabase('direct clicks', (db) => {
  let app: FastifyInstance;
  let token: string;
  let direct: StoredRecord;
  let redirect: StoredRecord;
  let gbOffer: StoredRecord;
  let cappedOffer: StoredRecord;
  let backupOffer: StoredRecord;
  let lander: StoredRecord;

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
      trustProxy: true,
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const source = await createRecord(app, token, 'traffic-sources', {
      parameters: [{ name: 'Zone', ts_parameter: 'zone', ts_token: '{zone}', internal_token: 'var1', enabled: true }],
    });
    gbOffer = await createRecord(app, token, 'tracker-offers', { url: 'https://gb.example/?c={clickid}&z={var1}' });
    backupOffer = await createRecord(app, token, 'tracker-offers', { url: 'https://backup.example/?c={clickid}' });
    cappedOffer = await createRecord(app, token, 'tracker-offers', {
      url: 'https://capped.example/?c={clickid}',
      daily_cap: 1,
      backup_offer_external_id: backupOffer.external_id,
    });
    lander = await createRecord(app, token, 'tracker-landers', { url: 'https://flow-lander.example/' });
    const flowGroups = [
      {
        id: 'g-gb',
        name: 'Great Britain',
        condition: countryIn('GB'),
        paths: [
          {
            id: 'p-gb',
            offers: [{ id: 'o1', offer_external_id: gbOffer.external_id }],
            landers: [{ id: 'l1', lander_external_id: lander.external_id }],
          },
        ],
      },
      {
        id: 'g-rest',
        name: 'Everyone else',
        paths: [{ id: 'p-rest', offers: [{ id: 'o2', offer_external_id: cappedOffer.external_id }] }],
      },
    ];
    const made = await campaignOnFlow(app, token, source, flowGroups);
    const saved = await app.inject({
      method: 'PUT',
      url: `/api/tracker/campaigns/${String(made.external_id)}`,
      headers: bearer(token),
      payload: { ...made, type: 'direct', allowed_origins: [LANDER] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    direct = saved.json();
    redirect = await campaignOnFlow(app, token, source, flowGroups);
  });

  afterAll(async () => {
    await app?.close();
  });

  const clicks = async (campaign: StoredRecord) => {
    await app.engine.flush();
    return app.store.db
      .selectFrom('tracker_clicks')
      .select(['click_id', 'path_group_id', 'offer_external_id', 'lander_external_id', 'referrer', 'var1', 'ip'])
      .select(['is_bot', 'bot_reason', 'country', 'user_agent', 'visitor_id', 'is_unique'])
      .where('campaign_external_id', '=', String(campaign.external_id))
      .orderBy('click_id')
      .execute();
  };

  const visit = (campaign: StoredRecord, origin: string | undefined, url = `${LANDER}/page?zone=7`, cookie?: string) =>
    app.inject({
      method: 'POST',
      url: `/c/${String(campaign.external_id)}/visit`,
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        'x-forwarded-for': GB_IP,
        'user-agent': IPHONE,
        ...(origin ? { origin } : {}),
        ...(cookie ? { cookie } : {}),
      },
      payload: JSON.stringify({ url }),
    });

  it('serves one tracking script, under 3 KB gzipped, with no eval and nothing inline', async () => {
    const script = await app.inject({ method: 'GET', url: `/${String(direct.external_id)}/t.js` });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(gzipSync(script.body).length).toBeLessThan(3 * 1024);
    expect(script.body).not.toMatch(/\beval\(|new Function|innerHTML|setAttribute\('on/);
    expect(script.body).toContain('a[data-switchyard="offer"]');
    expect((await app.inject({ method: 'GET', url: '/unknown0000/t.js' })).statusCode).toBe(404);
  });

  it("records the script's click from an allowed origin: routing, the page as referrer, its query, the cookie", async () => {
    const answer = await visit(direct, LANDER);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(LANDER);
    expect(answer.headers['access-control-allow-credentials']).toBe('true');
    const body = answer.json<{ click_id: string; offer_url: string; offer_link: string }>();
    expect(body.offer_url).toBe(`https://gb.example/?c=${body.click_id}&z=7`);
    expect(body.offer_link).toBe(`http://localhost:80/c/${String(direct.external_id)}/offer?clickid=${body.click_id}`);
    const cookies = ([] as string[]).concat(answer.headers['set-cookie'] ?? []);
    expect(cookies.map((cookie) => cookie.split('=')[0])).toEqual(['sy_vid', 'sy_seen']);
    const [row] = await clicks(direct);
    expect(row).toMatchObject({
      click_id: body.click_id,
      path_group_id: 'g-gb',
      offer_external_id: gbOffer.external_id,
      // The visitor is on the operator's page, not on a lander of the flow.
      lander_external_id: null,
      referrer: `${LANDER}/page?zone=7`,
      var1: '7',
      ip: GB_IP,
      country: 'GB',
      is_unique: 1,
    });
    // The offer link sends the visitor on to the offer of that click.
    const offerLink = await app.inject({
      method: 'GET',
      url: new URL(body.offer_link).pathname + new URL(body.offer_link).search,
    });
    expect(offerLink.statusCode).toBe(302);
    expect(offerLink.headers.location).toBe(body.offer_url);
    // With the cookie it set, the visitor's next click is the same visitor, and not unique.
    const again = await visit(
      direct,
      LANDER,
      `${LANDER}/page?zone=8`,
      cookies.map((cookie) => cookie.split(';')[0]).join('; '),
    );
    expect(again.statusCode).toBe(200);
    const rows = await clicks(direct);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.visitor_id).toBe(rows[0]!.visitor_id);
    expect(rows[1]!.is_unique).toBe(0);
  });

  it('records nothing from an origin the campaign does not allow, and says why', async () => {
    const before = (await clicks(direct)).length;
    const foreign = await visit(direct, 'https://evil.example', 'https://evil.example/page');
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toContain('https://evil.example');
    expect(foreign.json().message).toContain('not allowed');
    // Readable by the page, so that its console can say it.
    expect(foreign.headers['access-control-allow-origin']).toBe('https://evil.example');
    const none = await visit(direct, undefined);
    expect(none.statusCode).toBe(403);
    // An allowed Origin with a page of another origin is refused too.
    const mismatch = await visit(direct, LANDER, 'https://evil.example/page');
    expect(mismatch.statusCode).toBe(400);
    const notDirect = await visit(redirect, LANDER);
    expect(notDirect.statusCode).toBe(403);
    expect(notDirect.json().message).toContain('not a direct campaign');
    expect((await clicks(direct)).length).toBe(before);
    expect(await clicks(redirect)).toEqual([]);
  });

  it('takes POST /v1/clicks only with the campaign click token, kept as its hash', async () => {
    const body = { campaign: direct.external_id, ip: HOME_IP, user_agent: IPHONE, query: { zone: '3' } };
    const without = await app.inject({ method: 'POST', url: '/v1/clicks', payload: body });
    expect(without.statusCode).toBe(401);
    const made = await app.inject({
      method: 'POST',
      url: `/api/tracker/campaigns/${String(direct.external_id)}/click-token`,
      headers: bearer(token),
    });
    expect(made.statusCode, made.body).toBe(201);
    const clickToken = made.json<{ token: string }>().token;
    expect(clickToken).toMatch(/^syc_[\w-]{43}$/);
    const stored = await app.store.db.selectFrom('campaign_click_tokens').selectAll().execute();
    expect(stored.map((row) => row.token_hash)).toEqual([createHash('sha256').update(clickToken).digest('hex')]);
    const wrong = await app.inject({
      method: 'POST',
      url: '/v1/clicks',
      headers: { authorization: `Bearer ${clickToken}x` },
      payload: body,
    });
    expect(wrong.statusCode).toBe(401);
    // A redirect campaign has no click token.
    const refused = await app.inject({
      method: 'POST',
      url: `/api/tracker/campaigns/${String(redirect.external_id)}/click-token`,
      headers: bearer(token),
    });
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(refused.json().errors)).toEqual(['type']);
    // Another token replaces the first.
    const next = await app.inject({
      method: 'POST',
      url: `/api/tracker/campaigns/${String(direct.external_id)}/click-token`,
      headers: bearer(token),
    });
    const nextToken = next.json<{ token: string }>().token;
    const old = await app.inject({
      method: 'POST',
      url: '/v1/clicks',
      headers: { authorization: `Bearer ${clickToken}` },
      payload: body,
    });
    expect(old.statusCode).toBe(401);
    const bad = await app.inject({
      method: 'POST',
      url: '/v1/clicks',
      headers: { authorization: `Bearer ${nextToken}` },
      payload: { ...body, ip: 'not-an-ip' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(['ip']);
  });

  it("records a lander server's click with the visitor's address, routing, caps and bot verdict", async () => {
    const made = await app.inject({
      method: 'POST',
      url: `/api/tracker/campaigns/${String(direct.external_id)}/click-token`,
      headers: bearer(token),
    });
    const auth = { authorization: `Bearer ${made.json<{ token: string }>().token}` };
    const post = (ip: string, zone: string) =>
      app.inject({
        method: 'POST',
        url: '/v1/clicks',
        headers: { ...auth, 'x-forwarded-for': GB_IP },
        payload: {
          campaign: direct.external_id,
          ip,
          user_agent: IPHONE,
          referrer: 'https://source.example/',
          query: { zone },
        },
      });
    const first = await post(HOME_IP, '1');
    expect(first.statusCode, first.body).toBe(200);
    const firstBody = first.json<{ click_id: string; offer_url: string; cookies: string[] }>();
    // Not in Great Britain: the other group, whose offer takes one click a day.
    expect(firstBody.offer_url).toBe(`https://capped.example/?c=${firstBody.click_id}`);
    expect(firstBody.cookies.every((cookie) => cookie.includes('Path=/;'))).toBe(true);
    const second = await post(HOME_IP, '2');
    const secondBody = second.json<{ click_id: string; offer_url: string }>();
    expect(secondBody.offer_url).toBe(`https://backup.example/?c=${secondBody.click_id}`);
    const bot = await post(DATACENTER_IP, '3');
    expect(bot.statusCode).toBe(200);
    const rows = await clicks(direct);
    const byId = new Map(rows.map((row) => [row.click_id, row]));
    // The visitor's address as the lander sent it, not the caller's.
    expect(byId.get(firstBody.click_id)).toMatchObject({
      ip: HOME_IP,
      referrer: 'https://source.example/',
      var1: '1',
      is_bot: 0,
    });
    expect(byId.get(secondBody.click_id)).toMatchObject({ offer_external_id: backupOffer.external_id });
    const botRow = byId.get(bot.json<{ click_id: string }>().click_id);
    expect(botRow).toMatchObject({ ip: DATACENTER_IP, is_bot: 1, bot_reason: 'datacenter_asn' });
  });
});
