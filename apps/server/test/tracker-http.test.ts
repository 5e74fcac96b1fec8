import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { campaignOnFlow, createRecord, type StoredRecord } from './fixtures/config-records.js';
import { countryIn, GB_IP, IPHONE } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, forEachDatabase, login } from './harness.js';

// Clicks over real HTTP are answered ahead of Fastify (src/traffic/http/fast-click.ts); app.inject, which
// every other tracker test uses, reaches the Fastify route. Both must answer and record a click the
// same way, and what the fast path declines must still be answered by Fastify. On SQLite and PostgreSQL.

/** A Set-Cookie or Location value with the click, visitor and event ids taken out. */
const withoutIds = (value: string) => value.replace(/[A-Za-z0-9_-]{22}/g, '<id>');

function setCookies(headers: Headers | Record<string, unknown>): string[] {
  if (headers instanceof Headers) return headers.getSetCookie();
  return ([] as string[]).concat((headers['set-cookie'] as string | string[] | undefined) ?? []);
}

forEachDatabase('tracker clicks over HTTP', (db) => {
  let app: FastifyInstance;
  let base: string;
  let campaign: StoredRecord;
  let nowhere: StoredRecord;
  let offer: StoredRecord;
  let lander: StoredRecord;

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
      trustProxy: true,
    });
    const token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const source = await createRecord(app, token, 'traffic-sources', {
      parameters: [{ name: 'Zone', ts_parameter: 'zone', ts_token: '{zone}', internal_token: 'var1', enabled: true }],
    });
    offer = await createRecord(app, token, 'tracker-offers', {
      url: 'https://offer.example/go?c={clickid}&z={var1}&cc={country}&u={utm_source}',
    });
    lander = await createRecord(app, token, 'tracker-landers', { url: 'https://lander.example/?c={clickid}' });
    campaign = await campaignOnFlow(app, token, source, [
      {
        id: 'g-gb',
        name: 'Great Britain',
        condition: countryIn('GB'),
        paths: [
          {
            id: 'p-gb',
            offers: [{ id: 'o1', offer_external_id: offer.external_id }],
            landers: [{ id: 'l1', lander_external_id: lander.external_id }],
          },
        ],
      },
      {
        id: 'g-rest',
        name: 'Everyone else',
        paths: [{ id: 'p-rest', offers: [{ id: 'o2', offer_external_id: offer.external_id }] }],
      },
    ]);
    nowhere = await campaignOnFlow(app, token, source, [
      {
        id: 'g-zz',
        name: 'Nobody',
        condition: countryIn('ZZ'),
        paths: [{ id: 'p-zz', offers: [{ id: 'o3', offer_external_id: offer.external_id }] }],
      },
    ]);
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app?.close();
  });

  const clickRows = (ids: string[]) =>
    app.store.db
      .selectFrom('tracker_clicks')
      .select(['click_id', 'campaign_external_id', 'path_group_id', 'lander_external_id', 'offer_external_id'])
      .select(['country', 'device', 'platform', 'browser', 'var1', 'vars', 'referrer', 'is_unique', 'reason', 'ip'])
      .where('click_id', 'in', ids)
      .execute();

  it('answers every one of many clicks arriving together (answers are written in batches)', async () => {
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        fetch(`${base}/c/${campaign.external_id}?zone=z${index}`, {
          headers: { 'x-forwarded-for': GB_IP },
          redirect: 'manual',
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 302));
    const locations = responses.map((response) => response.headers.get('location') ?? '');
    for (const location of locations) expect(location).toMatch(/^https:\/\/lander\.example\/\?c=[A-Za-z0-9_-]{22}$/);
    expect(new Set(locations).size).toBe(60);
  });

  it('sends a lander URL with characters a header cannot carry percent-encoded, on both paths', async () => {
    const token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const euro = await createRecord(app, token, 'tracker-landers', {
      url: 'https://lander.example/bonus €?c={clickid}',
    });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        {
          id: 'g-euro',
          name: 'Everyone',
          paths: [
            {
              id: 'p-euro',
              offers: [{ id: 'o-euro', offer_external_id: offer.external_id }],
              landers: [{ id: 'l-euro', lander_external_id: euro.external_id }],
            },
          ],
        },
      ],
    });
    const euroCampaign = await createRecord(app, token, 'tracker-campaigns', {
      traffic_source_external_id: campaign.traffic_source_external_id,
      flow_external_id: flow.external_id,
    });
    const url = `/c/${euroCampaign.external_id}`;
    const overHttp = await fetch(`${base}${url}`, { redirect: 'manual' });
    const injected = await app.inject({ method: 'GET', url });
    for (const location of [overHttp.headers.get('location'), String(injected.headers.location)]) {
      expect(location).toMatch(/^https:\/\/lander\.example\/bonus%20%E2%82%AC\?c=[A-Za-z0-9_-]{22}$/);
    }
    expect([overHttp.status, injected.statusCode]).toEqual([302, 302]);
  });

  it('answers and records a click exactly as the Fastify route does', async () => {
    const url = `/c/${campaign.external_id}?zone=Z%201&utm_source=fb&zone=second`;
    const headers = {
      'user-agent': IPHONE,
      referer: 'https://news.example/a',
      'x-forwarded-for': `${GB_IP}, 10.0.0.7`,
    };
    const overHttp = await fetch(`${base}${url}`, { headers, redirect: 'manual' });
    const injected = await app.inject({ method: 'GET', url, headers, remoteAddress: '127.0.0.1' });

    expect(overHttp.status).toBe(302);
    expect(injected.statusCode).toBe(302);
    const httpLocation = overHttp.headers.get('location') ?? '';
    expect(httpLocation).toMatch(/^https:\/\/lander\.example\/\?c=[A-Za-z0-9_-]{22}$/);
    expect(withoutIds(httpLocation)).toBe(withoutIds(String(injected.headers.location)));
    expect(setCookies(overHttp.headers).map(withoutIds)).toEqual(setCookies(injected.headers).map(withoutIds));
    expect(setCookies(overHttp.headers)).toHaveLength(2);
    expect(overHttp.headers.get('cache-control')).toBe('no-store');
    expect(injected.headers['cache-control']).toBe('no-store');
    // A redirect carries no content: neither path sends the content headers (http/security-headers.ts).
    expect(overHttp.headers.get('x-frame-options')).toBeNull();
    expect(injected.headers['x-frame-options']).toBeUndefined();
    expect(await overHttp.text()).toBe('');

    const clickId = (location: string) => new URL(location).searchParams.get('c')!;
    const ids = [clickId(httpLocation), clickId(String(injected.headers.location))];
    await app.engine.flush();
    const rows = await clickRows(ids);
    expect(rows).toHaveLength(2);
    const [a, b] = ids.map((id) => rows.find((row) => row.click_id === id)!);
    const { click_id: _a, is_unique: uniqueHttp, ...fromHttp } = a!;
    const { click_id: _b, is_unique: uniqueInject, ...fromInject } = b!;
    expect(fromHttp).toEqual(fromInject);
    // The same address and agent a moment later: the second click is not unique (unique_by ip_ua).
    expect([uniqueHttp, uniqueInject]).toEqual([1, 0]);
    expect(fromHttp).toMatchObject({
      campaign_external_id: campaign.external_id,
      path_group_id: 'g-gb',
      lander_external_id: lander.external_id,
      offer_external_id: offer.external_id,
      // The left-most X-Forwarded-For address: every proxy is trusted.
      ip: GB_IP,
      country: 'GB',
      device: 'mobile',
      platform: 'ios',
      var1: 'Z 1',
      referrer: 'https://news.example/a',
      reason: 'matched',
    });
    expect(JSON.parse(fromHttp.vars)).toEqual({ var1: 'Z 1', utm_source: 'fb' });

    // The lander's offer link (a Fastify route) knows the click answered over HTTP.
    const onward = await fetch(`${base}/c/${campaign.external_id}/offer?clickid=${ids[0]}`, { redirect: 'manual' });
    expect(onward.status).toBe(302);
    expect(onward.headers.get('location')).toBe(`https://offer.example/go?c=${ids[0]}&z=Z%201&cc=GB&u=fb`);
  });

  it('reads the visitor cookies: a returning visitor is not unique and gets no new cookies', async () => {
    const first = await fetch(`${base}/c/${campaign.external_id}`, { redirect: 'manual' });
    const cookies = setCookies(first.headers).map((cookie) => cookie.split(';')[0]);
    const again = await fetch(`${base}/c/${campaign.external_id}`, {
      redirect: 'manual',
      headers: { cookie: cookies.join('; ') },
    });
    expect(again.status).toBe(302);
    expect(setCookies(again.headers)).toEqual([]);
    const ids = [first, again].map((answer) => new URL(answer.headers.get('location')!).searchParams.get('c')!);
    await app.engine.flush();
    const rows = await clickRows(ids);
    expect(ids.map((id) => rows.find((row) => row.click_id === id)?.is_unique)).toEqual([1, 0]);
    // No X-Forwarded-For: the peer's address.
    expect(rows[0]!.ip).toBe('127.0.0.1');
  });

  it('records a click with nowhere to go and answers 404 with the visitor cookie', async () => {
    const answer = await fetch(`${base}/c/${nowhere.external_id}?zone=z9`, { redirect: 'manual' });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await answer.json()).toEqual({ message: 'Not found' });
    expect(setCookies(answer.headers).some((cookie) => cookie.startsWith('sy_vid='))).toBe(true);
    await app.engine.flush();
    const row = await app.store.db
      .selectFrom('tracker_clicks')
      .select(['reason', 'offer_external_id', 'var1'])
      .where('campaign_external_id', '=', String(nowhere.external_id))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ reason: 'no_matching_path_group', offer_external_id: null, var1: 'z9' });
  });

  it('leaves what it does not answer to Fastify', async () => {
    // Unknown campaign, malformed or encoded ids, a trailing slash: Fastify's 404, nothing recorded.
    for (const path of ['/c/noSuchCampaign1', '/c/bad$id', `/c/${campaign.external_id}/`, '/c/%41bc']) {
      const answer = await fetch(`${base}${path}`, { redirect: 'manual' });
      expect(answer.status, path).toBe(404);
      expect(await answer.json()).toEqual({ message: 'Not found' });
      expect(answer.headers.get('x-frame-options'), path).toBe('DENY');
    }
    // HEAD: Fastify's route answers it as it answers GET.
    const head = await fetch(`${base}/c/${campaign.external_id}`, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(302);
    // Another method on a click URL is not a click.
    const post = await fetch(`${base}/c/${campaign.external_id}`, { method: 'POST', redirect: 'manual' });
    expect(post.status).toBe(404);
  });
});
