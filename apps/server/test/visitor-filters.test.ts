import type { ConditionNode } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignOnFlow, createRecord, type StoredRecord } from './fixtures/config-records.js';
import { DATACENTER_IP, DESKTOP, GB_IP, GOOGLEBOT, GOOGLEBOT_IP, HOME_IP, IPHONE } from './fixtures/traffic.js';
import { bearer, buildProxiedAdminApp, createUserWithPermissions, expectError, forEachDatabase } from './harness.js';

// Clicks are routed by each new field over real HTTP — the address from
// X-Forwarded-For, Accept-Language, Referer and user agents — each bot reason is recorded, and a
// safe-page group catches bots. On SQLite and PostgreSQL.

const ANDROID_10 =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.4844.88 Mobile Safari/537.36';
/** Friday 27 November 2026, 23:30 UTC: Saturday already in Tokyo. */
const NOW = new Date('2026-11-27T23:30:00Z');

const inRule = (Var: string, Values: string[], Operation = 'IN', extra: object = {}): ConditionNode =>
  ({ type: 'InCondition', data: { Var, Operation, Values, ...extra } }) as ConditionNode;
const compare = (Var: string, Comparator: string, Value: number): ConditionNode =>
  ({ type: 'CompareIntCondition', data: { Var, Values: { Value, Comparator } } }) as ConditionNode;
const equal = (Var: string, Value: string): ConditionNode => ({ type: 'EqualCondition', data: { Var, Value } });

interface Visit {
  ip?: string;
  userAgent?: string;
  language?: string;
  referrer?: string;
  cookie?: string;
}

forEachDatabase('routing on what is read off the visitor', (db) => {
  let app: FastifyInstance;
  let base: string;
  let token: string;
  let source: StoredRecord;
  let hit: StoredRecord;
  let miss: StoredRecord;

  beforeAll(async () => {
    ({ app, adminToken: token } = await buildProxiedAdminApp(db, { now: () => NOW }));
    source = await createRecord(app, token, 'traffic-sources');
    hit = await createRecord(app, token, 'tracker-offers', { url: 'https://hit.example/?c={clickid}' });
    miss = await createRecord(app, token, 'tracker-offers', { url: 'https://miss.example/?c={clickid}' });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app?.close();
  });

  /** A campaign whose first group (`hit`) tests `condition`; everyone else goes to `miss`. */
  async function campaignFor(condition: ConditionNode, extra: object = {}): Promise<StoredRecord> {
    const campaign = await campaignOnFlow(app, token, source, [
      {
        id: 'g-hit',
        name: 'Hit',
        condition: JSON.stringify(condition),
        paths: [{ id: 'p-hit', offers: [{ id: 'o-hit', offer_external_id: hit.external_id }] }],
      },
      {
        id: 'g-miss',
        name: 'Miss',
        paths: [{ id: 'p-miss', offers: [{ id: 'o-miss', offer_external_id: miss.external_id }] }],
      },
    ]);
    if (Object.keys(extra).length === 0) return campaign;
    const { external_id: id, status: _s, created_at: _c, updated_at: _u, workspace_id: _w, ...body } = campaign;
    const updated = await app.inject({
      method: 'PUT',
      url: `/api/tracker/campaigns/${String(id)}`,
      headers: bearer(token),
      payload: { ...body, ...extra },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    return updated.json<StoredRecord>();
  }

  /** A click over real HTTP (the fast click door), answered with the offer's host and the click id. */
  async function click(campaign: StoredRecord, visit: Visit): Promise<{ host: string; clickId: string }> {
    const headers: Record<string, string> = { 'x-forwarded-for': visit.ip ?? HOME_IP };
    if (visit.userAgent !== undefined) headers['user-agent'] = visit.userAgent;
    if (visit.language !== undefined) headers['accept-language'] = visit.language;
    if (visit.referrer !== undefined) headers.referer = visit.referrer;
    if (visit.cookie !== undefined) headers.cookie = visit.cookie;
    const response = await fetch(`${base}/c/${String(campaign.external_id)}`, { headers, redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') ?? '');
    return { host: location.hostname, clickId: location.searchParams.get('c') ?? '' };
  }

  async function storedClick(clickId: string) {
    await app.engine.flush();
    return app.store.db
      .selectFrom('tracker_clicks')
      .selectAll()
      .where('click_id', '=', clickId)
      .executeTakeFirstOrThrow();
  }

  const human = { userAgent: DESKTOP };
  const cases: [string, ConditionNode, Visit, Visit][] = [
    ['region', inRule('region', ['US-CA']), { ...human, ip: HOME_IP }, { ...human, ip: GB_IP }],
    ['city', inRule('city', ['monterey']), { ...human, ip: HOME_IP }, { ...human, ip: GB_IP }],
    ['asn', inRule('asn', ['AS7922']), { ...human, ip: HOME_IP }, { ...human, ip: GB_IP }],
    ['isp', inRule('isp', ['comcast'], 'contains'), { ...human, ip: HOME_IP }, { ...human, ip: GB_IP }],
    [
      'language',
      inRule('language', ['fr']),
      { ...human, language: 'fr-CH, fr;q=0.9, en;q=0.8' },
      { ...human, language: 'en-GB,fr;q=0.5' },
    ],
    [
      'referrer',
      inRule('referrer', ['news.example']),
      { ...human, referrer: 'https://www.news.example/story?id=1' },
      { ...human, referrer: 'https://other.example/' },
    ],
    ['referrer (none)', inRule('referrer', ['(none)']), human, { ...human, referrer: 'https://news.example/' }],
    ['ip (CIDR)', inRule('ip', ['203.0.113.0/24']), { ...human, ip: '203.0.113.77' }, { ...human, ip: '198.51.100.1' }],
    ['ip (IPv6)', inRule('ip', ['2001:db8::/32']), { ...human, ip: '2001:db8:1::5' }, { ...human, ip: '2001:db9::5' }],
    ['osVersion', compare('osVersion', '>=', 17), { userAgent: IPHONE }, { userAgent: ANDROID_10 }],
    ['browserVersion', compare('browserVersion', '<', 100), { userAgent: ANDROID_10 }, { userAgent: DESKTOP }],
    [
      'weekday',
      inRule('weekday', ['sat'], 'IN', { Timezone: 'Asia/Tokyo' }),
      human,
      // The same moment is still Friday in London.
      human,
    ],
    ['isBot', equal('isBot', 'true'), { userAgent: GOOGLEBOT }, human],
  ];

  for (const [field, condition, matching, other] of cases) {
    it(`routes by ${field}`, async () => {
      const campaign = await campaignFor(condition);
      expect((await click(campaign, matching)).host).toBe('hit.example');
      if (field === 'weekday') {
        const london = await campaignFor(inRule('weekday', ['sat'], 'IN', { Timezone: 'Europe/London' }));
        expect((await click(london, other)).host).toBe('miss.example');
      } else {
        expect((await click(campaign, other)).host).toBe('miss.example');
      }
    });
  }

  it('routes by isUnique: the first click of a visitor on the campaign, not the next in the day', async () => {
    const campaign = await campaignFor(equal('isUnique', 'true'));
    expect((await click(campaign, human)).host).toBe('hit.example');
    expect((await click(campaign, { ...human, cookie: 'sy_seen=1' })).host).toBe('miss.example');
  });

  it('stores what it read off the visitor with the click', async () => {
    const campaign = await campaignFor({ type: 'AllCondition' });
    const { clickId } = await click(campaign, {
      ip: HOME_IP,
      userAgent: IPHONE,
      language: 'pt-BR,pt;q=0.9',
      referrer: 'https://WWW.Example.COM:8443/a?b=c',
    });
    expect(await storedClick(clickId)).toMatchObject({
      ip: HOME_IP,
      country: 'US',
      region: 'US-CA',
      city: 'Monterey',
      isp: 'Comcast Cable Communications, LLC',
      language: 'pt',
      referrer_domain: 'example.com',
      os_version: 17,
      browser_version: 17,
      is_bot: 0,
      bot_reason: null,
    });
    // A bigint: PostgreSQL answers it as text.
    expect(Number((await storedClick(clickId)).asn)).toBe(7922);
  });

  it('gives a garbled header its empty value, never an error', async () => {
    const campaign = await campaignFor(inRule('referrer', ['(none)']));
    const { host, clickId } = await click(campaign, {
      ip: 'not-an-address',
      userAgent: DESKTOP,
      language: ';;;q=x,*',
      referrer: 'no host here',
    });
    expect(host).toBe('hit.example');
    expect(await storedClick(clickId)).toMatchObject({
      country: null,
      region: null,
      city: null,
      asn: null,
      language: null,
      referrer_domain: null,
    });
  });

  describe('bot verdicts', () => {
    let safe: StoredRecord;
    let campaign: StoredRecord;

    beforeAll(async () => {
      safe = await createRecord(app, token, 'tracker-landers', { url: 'https://safe.example/?c={clickid}' });
      campaign = await campaignOnFlow(app, token, source, [
        {
          id: 'g-bots',
          name: 'Bots to the safe page',
          condition: JSON.stringify(equal('isBot', 'true')),
          paths: [
            {
              id: 'p-safe',
              landers: [{ id: 'l-safe', lander_external_id: safe.external_id }],
              offers: [{ id: 'o-safe', offer_external_id: miss.external_id }],
            },
          ],
        },
        {
          id: 'g-people',
          name: 'People',
          paths: [{ id: 'p-people', offers: [{ id: 'o-people', offer_external_id: hit.external_id }] }],
        },
      ]);
    });

    const reasons: [string, Visit, string | null][] = [
      ['a browser', { ip: GB_IP, userAgent: DESKTOP }, null],
      ['an empty user agent', { ip: GB_IP, userAgent: '' }, 'empty_user_agent'],
      ['a known bot user agent', { ip: GB_IP, userAgent: GOOGLEBOT }, 'bot_user_agent'],
      ["a crawler's address", { ip: GOOGLEBOT_IP, userAgent: DESKTOP }, 'crawler_address'],
      ["a datacenter's network", { ip: DATACENTER_IP, userAgent: DESKTOP }, 'datacenter_asn'],
    ];
    for (const [title, visit, reason] of reasons) {
      it(`records ${reason ?? 'no reason'} for ${title}, and the safe page takes the bots`, async () => {
        const { host, clickId } = await click(campaign, visit);
        expect(host).toBe(reason ? 'safe.example' : 'hit.example');
        expect(await storedClick(clickId)).toMatchObject({ is_bot: reason ? 1 : 0, bot_reason: reason });
      });
    }

    it('makes the clicks past the campaign limit per minute from one address bots', async () => {
      const limited = await campaignFor(equal('isBot', 'true'), { bot_clicks_per_minute: 3 });
      const visit = { ip: '81.2.69.161', userAgent: DESKTOP };
      const hosts = [];
      for (let index = 0; index < 5; index += 1) hosts.push((await click(limited, visit)).host);
      expect(hosts).toEqual(['miss.example', 'miss.example', 'miss.example', 'hit.example', 'hit.example']);
      const last = await click(limited, visit);
      expect(await storedClick(last.clickId)).toMatchObject({ is_bot: 1, bot_reason: 'click_rate' });
      // Another address on the same campaign is counted apart.
      expect((await click(limited, { ...visit, ip: '81.2.69.162' })).host).toBe('miss.example');
    });

    it('groups and filters reports by bot and bot_reason', async () => {
      await app.engine.flush();
      const report = await app.inject({
        method: 'GET',
        url: `/api/reports?group_by=bot_reason&include_bots=true&filters=${encodeURIComponent(JSON.stringify({ campaign: campaign.external_id }))}&date_from=2026-11-27&date_to=2026-11-28`,
        headers: bearer(token),
      });
      expect(report.statusCode, report.body).toBe(200);
      const rows = report.json<{ list: { bot_reason: string | null; clicks: number }[] }>().list;
      expect(Object.fromEntries(rows.map((row) => [String(row.bot_reason), row.clicks]))).toEqual({
        null: 1,
        empty_user_agent: 1,
        bot_user_agent: 1,
        crawler_address: 1,
        datacenter_asn: 1,
      });
      const bots = await app.inject({
        method: 'GET',
        url: `/api/reports?group_by=campaign&filters=${encodeURIComponent(JSON.stringify({ campaign: campaign.external_id, bot: 'true' }))}&date_from=2026-11-27&date_to=2026-11-28`,
        headers: bearer(token),
      });
      expect(bots.statusCode, bots.body).toBe(200);
      // Bots stay out of clicks unless the report asks for them.
      expect(bots.json<{ totals: { clicks: number; bot_clicks: number } }>().totals).toMatchObject({
        clicks: 0,
        bot_clicks: 4,
      });
      const withBots = await app.inject({
        method: 'GET',
        url: `/api/reports?group_by=campaign&include_bots=true&filters=${encodeURIComponent(JSON.stringify({ campaign: campaign.external_id, bot: 'true' }))}&date_from=2026-11-27&date_to=2026-11-28`,
        headers: bearer(token),
      });
      expect(withBots.json<{ totals: { clicks: number } }>().totals.clicks).toBe(4);
    });
  });

  it('reports group by the new fields, weekday in the report timezone', async () => {
    const campaign = await campaignFor({ type: 'AllCondition' });
    await click(campaign, { ip: HOME_IP, userAgent: DESKTOP, language: 'de', referrer: 'https://ref.example/' });
    await app.engine.flush();
    const filters = encodeURIComponent(JSON.stringify({ campaign: campaign.external_id }));
    const ask = async (group: string, timezone = 'UTC') => {
      const response = await app.inject({
        method: 'GET',
        url: `/api/reports?group_by=${group}&filters=${filters}&date_from=2026-11-27&date_to=2026-11-28&timezone=${timezone}`,
        headers: bearer(token),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ list: Record<string, unknown>[] }>().list.map((row) => row[group]);
    };
    expect(await ask('language')).toEqual(['de']);
    expect(await ask('referrer_domain')).toEqual(['ref.example']);
    expect(await ask('asn')).toEqual(['7922']);
    expect(await ask('region')).toEqual(['US-CA']);
    expect(await ask('city')).toEqual(['Monterey']);
    expect(await ask('bot')).toEqual(['false']);
    expect(await ask('weekday')).toEqual(['fri']);
    expect(await ask('weekday', 'Asia/Tokyo')).toEqual(['sat']);
  });

  describe('bad rules', () => {
    const bad: [string, ConditionNode][] = [
      ['an invalid CIDR', inRule('ip', ['10.0.0.0/33'])],
      ['an invalid ASN', inRule('asn', ['AS-google'])],
      ['an unknown region code', inRule('region', ['US-ZZ'])],
      ['a negative version', compare('osVersion', '>=', -1)],
    ];
    for (const [title, condition] of bad) {
      it(`refuses ${title} with 400 on the condition's field`, async () => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/tracker/flows',
          headers: bearer(token),
          payload: {
            name: 'Bad rule',
            path_groups: [
              {
                id: 'g',
                name: 'G',
                condition: JSON.stringify(condition),
                paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: hit.external_id }] }],
              },
            ],
          },
        });
        const body = expectError(response, 400);
        expect(Object.keys(body.errors ?? {})).toEqual(['path_groups.0.condition']);
      });
    }
  });

  it('routes a lead by the same fields, and stores them', async () => {
    const offerFr = await createRecord(app, token, 'offers', { url: 'https://fr.example/?lead={lead_id}' });
    const offerRest = await createRecord(app, token, 'offers', { url: 'https://rest.example/?lead={lead_id}' });
    const flow = await createRecord(app, token, 'flows', {
      path_groups: [
        {
          id: 'fr-people',
          name: 'French speakers from the news',
          condition: JSON.stringify({
            type: 'AndCondition',
            data: {
              Conditions: [
                inRule('language', ['fr']),
                inRule('referrer', ['news.example']),
                equal('isUnique', 'true'),
                equal('isBot', 'false'),
              ],
            },
          }),
          paths: [{ id: 'p-fr', offer_external_id: offerFr.external_id }],
        },
        { id: 'rest', name: 'Rest', paths: [{ id: 'p-rest', offer_external_id: offerRest.external_id }] },
      ],
    });
    const campaign = await createRecord(app, token, 'campaigns', { flow_external_id: flow.external_id });
    const send = (payload: object) =>
      app.inject({
        method: 'POST',
        url: `/v1/campaigns/${String(campaign.external_id)}/leads`,
        headers: { 'x-api-key': String(campaign.ingest_token) },
        payload,
      });
    const lead = {
      email: 'marie@example.fr',
      ip: HOME_IP,
      user_agent: IPHONE,
      language: 'fr-FR,fr;q=0.9',
      referrer: 'https://news.example/a',
    };
    const first = await send(lead);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<{ path_group: { id: string } }>().path_group.id).toBe('fr-people');
    // The same email again within the day is not unique.
    const again = await send(lead);
    expect(again.json<{ path_group: { id: string } }>().path_group.id).toBe('rest');
    // Without a user agent (a partner's server sent it) a lead is not judged a bot.
    const bare = await send({ email: 'paul@example.fr', language: 'fr', referrer: 'https://news.example/' });
    expect(bare.json<{ path_group: { id: string } }>().path_group.id).toBe('fr-people');

    await app.engine.flush();
    const row = await app.store.db
      .selectFrom('tracker_leads')
      .selectAll()
      .where('lead_id', '=', first.json<{ lead_id: string }>().lead_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      language: 'fr',
      referrer_domain: 'news.example',
      os_version: 17,
      is_unique: 1,
      is_bot: 0,
      bot_reason: null,
    });
    expect(Number(row.asn)).toBe(7922);
  });

  describe('the datacenter list', () => {
    it('is the shipped list until an administrator edits it, and the engine follows the edit', async () => {
      const shipped = await app.inject({ method: 'GET', url: '/api/bot-protection', headers: bearer(token) });
      expect(shipped.statusCode, shipped.body).toBe(200);
      const settings = shipped.json<{ datacenter_asns: { asn: number }[]; is_default: boolean }>();
      expect(settings.is_default).toBe(true);
      expect(settings.datacenter_asns.map((entry) => entry.asn)).toContain(14061);
      expect(settings.datacenter_asns.map((entry) => entry.asn)).not.toContain(7922);

      const campaign = await campaignFor(equal('isBot', 'true'));
      expect((await click(campaign, { ip: HOME_IP, userAgent: DESKTOP })).host).toBe('miss.example');
      const saved = await app.inject({
        method: 'PUT',
        url: '/api/bot-protection',
        headers: bearer(token),
        payload: { datacenter_asns: [{ asn: 7922, name: 'Comcast' }] },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual({ datacenter_asns: [{ asn: 7922, name: 'Comcast' }], is_default: false });
      const now = await click(campaign, { ip: HOME_IP, userAgent: DESKTOP });
      expect(now.host).toBe('hit.example');
      expect(await storedClick(now.clickId)).toMatchObject({ bot_reason: 'datacenter_asn' });
      // No longer in the list: a browser from it is a person.
      expect((await click(campaign, { ip: DATACENTER_IP, userAgent: DESKTOP })).host).toBe('miss.example');

      const restored = await app.inject({ method: 'DELETE', url: '/api/bot-protection', headers: bearer(token) });
      expect(restored.statusCode, restored.body).toBe(200);
      expect(restored.json<{ is_default: boolean }>().is_default).toBe(true);
      expect((await click(campaign, { ip: HOME_IP, userAgent: DESKTOP })).host).toBe('miss.example');
    });

    it("is read and edited under the instance's settings permission, not the users'", async () => {
      const reader = await createUserWithPermissions(app, token, ['/instance/settings/get']);
      const stranger = await createUserWithPermissions(app, token, ['/general/user']);
      const read = await app.inject({ method: 'GET', url: '/api/bot-protection', headers: bearer(reader.token) });
      expect(read.statusCode).toBe(200);
      for (const method of ['PUT', 'DELETE'] as const) {
        const response = await app.inject({
          method,
          url: '/api/bot-protection',
          headers: bearer(reader.token),
          ...(method === 'PUT' ? { payload: { datacenter_asns: [] } } : {}),
        });
        expect(response.statusCode).toBe(403);
      }
      const hidden = await app.inject({ method: 'GET', url: '/api/bot-protection', headers: bearer(stranger.token) });
      expect(hidden.statusCode).toBe(403);
    });

    it('refuses an ASN out of range on its field, and keeps the list', async () => {
      const response = await app.inject({
        method: 'PUT',
        url: '/api/bot-protection',
        headers: bearer(token),
        payload: {
          datacenter_asns: [
            { asn: 1, name: 'ok' },
            { asn: 4_294_967_296, name: 'too big' },
          ],
        },
      });
      const body = expectError(response, 400);
      expect(Object.keys(body.errors ?? {})).toEqual(['datacenter_asns.1.asn']);
      const after = await app.inject({ method: 'GET', url: '/api/bot-protection', headers: bearer(token) });
      expect(after.json<{ is_default: boolean }>().is_default).toBe(true);
    });
  });
});
