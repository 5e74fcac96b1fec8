import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ImportAnswer, type SimulationAnswer, ZBinomExport } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binomPlan } from '../src/imports/binom.js';
import { BINOM_API_KEY, binomExport } from './fixtures/binom-export.js';
import { DE_IP, DESKTOP, GB_IP, HOME_IP, IPHONE } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// A Binom export (fixtures/binom-export.ts, shaped after its v2 API) imported through POST /api/imports
// by the same plan and service as Keitaro's: a dry run writes nothing, a real run creates the records, a
// second one changes nothing, what has no equivalent is reported with its campaign, and the imported
// flow routes as the rules say. Also read from a live tracker (a local stand-in over HTTP): a wrong key
// or an unreachable tracker is a 400 naming which, with nothing created. On SQLite and PostgreSQL.

/** 7 shared (network, source, 3 offers, lander, the stand-in for 102's missing source), 7 of campaigns, 1 domain. */
const RECORDS = 15;

forEachDatabase('importing from Binom', (db) => {
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    app = await db.buildApp({
      env: {
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        // The stand-in tracker listens on loopback, which the checked sender refuses otherwise.
        SWITCHYARD_ALLOW_PRIVATE_TARGETS: 'true',
        // Imported domains are looked up; nothing answers there, so the look fails at once.
        SWITCHYARD_DNS_SERVERS: '127.0.0.1:9',
      },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
  });

  afterAll(async () => {
    await app?.close();
  });

  const post = (payload: unknown, query = '') =>
    app.inject({ method: 'POST', url: `/api/imports${query}`, headers: bearer(token), payload: payload as object });
  const list = async (resource: string) => {
    const response = await app.inject({ method: 'GET', url: `/api/${resource}?limit=0`, headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ list: Record<string, unknown>[] }>().list;
  };
  const counts = async () =>
    Object.fromEntries(
      await Promise.all(
        [
          'tracker/campaigns',
          'tracker/flows',
          'tracker/offers',
          'tracker/landers',
          'traffic-sources',
          'affiliate-networks',
          'domains',
        ].map(async (resource) => [resource, (await list(resource)).length] as const),
      ),
    );

  let first: ImportAnswer;
  const byOld = (kind: string, id: string) =>
    first.records.find((record) => record.old_kind === kind && record.old_id === id)!;

  it('a dry run answers what would be created and left out, and writes nothing', async () => {
    const before = await counts();
    const response = await post({ from: 'binom', file: binomExport() }, '?dry_run=true');
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<ImportAnswer>();
    expect(answer).toMatchObject({ id: null, from: 'binom', dry_run: true });
    expect(answer.summary).toMatchObject({ created: RECORDS, updated: 0, unchanged: 0 });
    expect(answer.records.every((record) => record.new_id === null && record.action === 'created')).toBe(true);
    expect(answer.left_out.length).toBeGreaterThan(0);
    expect(await counts()).toEqual(before);
  });

  it('a real run creates the records, with old → new ids', async () => {
    const response = await post({ from: 'binom', file: binomExport() });
    expect(response.statusCode, response.body).toBe(200);
    first = response.json<ImportAnswer>();
    expect(first).toMatchObject({ from: 'binom', dry_run: false, status: 'done' });
    expect(first.id).toEqual(expect.any(Number));
    expect(first.summary).toMatchObject({ created: RECORDS, updated: 0, unchanged: 0 });

    const campaigns = await list('tracker/campaigns');
    const campaign = campaigns.find((row) => row.external_id === byOld('campaign', '101').new_id)!;
    expect(campaign).toMatchObject({
      name: 'US mobile and EU split',
      cost_model: 'CPC',
      cost: 0.02,
      flow_external_id: byOld('campaign_flow', '101').new_id,
      traffic_source_external_id: byOld('traffic_source', '4').new_id,
    });
    const rotated = campaigns.find((row) => row.external_id === byOld('campaign', '103').new_id)!;
    expect(rotated).toMatchObject({ cost_model: 'Auto' });
    expect(campaigns.find((row) => row.external_id === byOld('campaign', '102').new_id)).toMatchObject({
      cost_model: 'CPM',
      cost: 1.5,
      traffic_source_external_id: byOld('traffic_source', 'none').new_id,
    });

    const flows = await list('tracker/flows');
    const flow = flows.find((row) => row.external_id === campaign.flow_external_id)!;
    type Group = {
      id: string;
      condition: string;
      paths: { id: string; weight: number; offers: { weight: number }[] }[];
    };
    const groups = flow.path_groups as Group[];
    expect(groups.map((group) => group.id)).toEqual(['bc-101-r1', 'bc-101-r2', 'bc-101-default']);
    expect(JSON.parse(groups[0]!.condition)).toEqual({
      type: 'AndCondition',
      data: {
        Conditions: [
          { type: 'InCondition', data: { Var: 'countryCode', Operation: 'IN', Values: ['US'] } },
          { type: 'InCondition', data: { Var: 'device', Operation: 'IN', Values: ['mobile'] } },
        ],
      },
    });
    expect(groups[0]!.paths[0]!.offers.map((offer) => offer.weight)).toEqual([70, 30]);
    expect(groups[2]!.paths.map((path) => path.weight)).toEqual([60, 40]);
    expect(JSON.parse(groups[2]!.condition)).toEqual({ type: 'AllCondition' });

    const flow102 = flows.find((row) => row.external_id === byOld('campaign_flow', '102').new_id)!;
    const groups102 = flow102.path_groups as (Group & { enabled: boolean })[];
    expect(groups102.map((group) => [group.id, group.enabled])).toEqual([
      ['bc-102-r1', true],
      ['bc-102-r2', false],
      ['bc-102-default', true],
    ]);
    const condition102 = JSON.parse(groups102[0]!.condition);
    expect(condition102.data.Conditions).toEqual([
      {
        type: 'VarsCondition',
        data: { Var: 'vars', Value: { Var: 'var1', Operation: 'IN', Value: ['zone-7'] } },
      },
      { type: 'InCondition', data: { Var: 'platform', Operation: 'IN', Values: ['ios'] } },
      {
        type: 'InCondition',
        data: { Var: 'weekday', Operation: 'IN', Values: ['mon', 'tue'], Timezone: 'Europe/Berlin' },
      },
    ]);

    const offers = await list('tracker/offers');
    expect(offers.find((row) => row.external_id === byOld('offer', '21').new_id)).toMatchObject({
      url: 'https://offers.example/mobile?click={clickid}&zone={var1}',
      payout: 2.5,
      countries: ['US'],
      affiliate_network_external_id: byOld('affiliate_network', '2').new_id,
    });
    expect(offers.find((row) => row.external_id === byOld('path_url', '101:r2-p1:1').new_id)).toMatchObject({
      url: 'https://safe.example/?c={clickid}',
    });
    const network = (await list('affiliate-networks')).find(
      (row) => row.external_id === byOld('affiliate_network', '2').new_id,
    )!;
    expect(network).toMatchObject({
      offer_url_params: 's2={var2}',
      postback_ips: ['203.0.113.0/24'],
      postback_params: { click_id: 'cnv_id', payout: 'payout', status: 'cnv_status' },
    });
    const source = (await list('traffic-sources')).find(
      (row) => row.external_id === byOld('traffic_source', '4').new_id,
    )!;
    expect(source).toMatchObject({ cost_parameter: 'cost' });
    expect(source.parameters).toMatchObject([
      { name: 'Zone', ts_parameter: 'zone', ts_token: '{zoneid}', internal_token: 'var1' },
      { name: 'Campaign', ts_parameter: 'campaign', ts_token: '{campaignid}', internal_token: 'var2' },
    ]);

    const domains = await list('domains');
    expect(domains).toEqual([
      expect.objectContaining({
        name: 'go.binom-tracker.example',
        index_campaign: campaign.external_id,
        https_only: true,
      }),
    ]);

    const stored = await app.inject({ method: 'GET', url: `/api/imports/${first.id}`, headers: bearer(token) });
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json<ImportAnswer>()).toMatchObject({ id: first.id, from: 'binom', summary: first.summary });
  });

  it('reports what has no equivalent by name, with the campaign it sat in', async () => {
    const lines = (id: string | null) =>
      first.left_out
        .filter((entry) => (entry.campaign?.old_id ?? null) === id)
        .map((entry) => `${entry.kind} ${entry.name}: ${entry.reason}`);
    expect(lines('102')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^rule_criterion Zone 7 on iOS: proxy_vpn: no equivalent condition/),
        expect.stringMatching(/^rule_criterion Zone 7 on iOS: os_and_version: operating systems .*Symbian/),
        expect.stringMatching(/^rule_criterion Zone 7 on iOS: os_and_version: versions are not read/),
        expect.stringMatching(/^path_offer To campaign: sends visitors to campaign 101/),
        expect.stringMatching(/^path_landing To campaign: landing page 32 is not imported/),
        expect.stringMatching(/^campaign_setting cost currency EUR/),
        expect.stringMatching(/^rule VPN only: none of its criteria has an equivalent: imported switched off/),
      ]),
    );
    expect(lines('103')).toEqual([expect.stringMatching(/^campaign_setting rotation 5: .*rotation template/)]);
    expect(lines(null)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^offer Archived offer: it is deleted in Binom/),
        expect.stringMatching(/^offer No URL: it has no URL/),
        expect.stringMatching(/^offer EU B: tokens with no equivalent, kept as written: \{event1\}/),
        expect.stringMatching(/^landing Hosted quiz: a landing page hosted in Binom/),
        expect.stringMatching(/^traffic_source_token PropellerAds: t12 \(bid\)/),
        expect.stringMatching(/^traffic_source_token PropellerAds: external ID \(visitor_id\)/),
        expect.stringMatching(/^traffic_source_postback PropellerAds/),
        expect.stringMatching(/^affiliate_network_setting MaxBounty: status-payout relation/),
        expect.stringMatching(/^offer_setting EU A: auto payout/),
      ]),
    );
  });

  it('a second identical run changes nothing; a changed one updates in place', async () => {
    const before = await counts();
    const again = await post({ from: 'binom', file: binomExport() });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<ImportAnswer>().summary).toMatchObject({ created: 0, updated: 0, unchanged: RECORDS });
    expect(await counts()).toEqual(before);

    const changed = binomExport();
    changed.offers[0]!.payout = 3;
    const third = (await post({ from: 'binom', file: changed })).json<ImportAnswer>();
    expect(third.summary).toMatchObject({ created: 0, updated: 1, unchanged: RECORDS - 1 });
    expect(third.records.find((record) => record.action === 'updated')).toMatchObject({
      old_kind: 'offer',
      old_id: '21',
      new_id: byOld('offer', '21').new_id,
    });
    expect(await counts()).toEqual(before);
  });

  it('routes visitors as the rules say, top rule first, the default paths by weight', async () => {
    const campaignId = byOld('campaign', '101').new_id;
    const simulate = async (ip: string, ua: string) => {
      const response = await app.inject({
        method: 'POST',
        url: `/api/tracker/campaigns/${campaignId}/simulate`,
        headers: bearer(token),
        payload: { ip, user_agent: ua },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<SimulationAnswer>();
    };
    expect((await simulate(HOME_IP, IPHONE)).path_group?.id).toBe('bc-101-r1');
    const desktop = await simulate(DE_IP, DESKTOP);
    expect(desktop.path_group?.id).toBe('bc-101-default');
    expect(desktop.probabilities.paths.map((path) => [path.id, path.chance])).toEqual([
      ['bc-101-d-p1', expect.closeTo(0.6, 6)],
      ['bc-101-d-p2', expect.closeTo(0.4, 6)],
    ]);
    expect((await simulate(GB_IP, IPHONE)).path_group?.id).toBe('bc-101-default');
  });

  it('keeps each campaign key as an old link form', () => {
    const plan = binomPlan(ZBinomExport.parse(binomExport()));
    expect(plan.campaigns.map((campaign) => [campaign.oldId, campaign.oldLinks])).toEqual([
      ['101', [{ tracker: 'binom', key: 'k8x2mq4zt1' }]],
      ['102', [{ tracker: 'binom', key: 'p3n7w9qa2c' }]],
      ['103', [{ tracker: 'binom', key: 'r5t8y2u4i6' }]],
    ]);
  });

  it('refuses a malformed file with field errors, and writes nothing', async () => {
    const before = await counts();
    const file = binomExport() as Record<string, unknown>;
    (file.campaigns as Record<string, unknown>[])[0]!.name = 'x'.repeat(300);
    (file.offers as Record<string, unknown>[])[0]!.payout = 1e308;
    (
      (file.campaigns as { customRotation: { rules: { criteria: unknown[] }[] } }[])[0]!.customRotation.rules[0]!
        .criteria[0] as Record<string, unknown>
    ).operator = 'maybe';
    const response = await post({ from: 'binom', file });
    expect(response.statusCode, response.body).toBe(400);
    expect(Object.keys(response.json<{ errors: Record<string, string[]> }>().errors)).toEqual(
      expect.arrayContaining([
        'file.campaigns.0.name',
        'file.offers.0.payout',
        'file.campaigns.0.customRotation.rules.0.criteria.0.operator',
      ]),
    );
    expect(await counts()).toEqual(before);
  });

  describe('from a live tracker', () => {
    let server: Server;
    let base: string;
    const asked: string[] = [];

    beforeAll(async () => {
      const data = binomExport();
      const lists: Record<string, { id: number | string; name: string; isDeleted?: boolean }[]> = {
        campaign: data.campaigns,
        offer: data.offers,
        landing: data.landings,
        affiliate_network: data.affiliate_networks,
        traffic_source: data.traffic_sources,
      };
      // A stand-in for Binom's v2 API: the `/info` lists (id, name, is_deleted), each record by id, the
      // domains, and the `api-key` header checked.
      server = createServer((request, response) => {
        asked.push(request.url ?? '');
        const send = (status: number, body: unknown) =>
          response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        if (request.headers['api-key'] !== BINOM_API_KEY) return send(401, { message: 'Unauthorized' });
        const url = new URL(request.url ?? '/', 'http://x');
        const path = url.pathname.replace('/public/api/v1', '');
        const info = /^\/info\/(\w+)$/.exec(path);
        const one = /^\/(\w+)\/(\d+)$/.exec(path);
        if (path === '/domains') return send(200, data.domains);
        if (info && lists[info[1]!]) {
          const offset = Number(url.searchParams.get('offset') ?? 0);
          const rows = lists[info[1]!]!.map((row) => ({ id: row.id, name: row.name, is_deleted: !!row.isDeleted }));
          return send(200, rows.slice(offset, offset + Number(url.searchParams.get('limit') ?? 100)));
        }
        const record = one ? lists[one[1]!]?.find((row) => String(row.id) === one[2]) : undefined;
        return record ? send(200, record) : send(404, { message: 'Not found' });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await new Promise((resolve) => server?.close(resolve));
    });

    it('reads the lists and records with the api-key header; the same records stay unchanged', async () => {
      const response = await post({ from: 'binom', url: base, api_key: BINOM_API_KEY }, '?dry_run=true');
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json<ImportAnswer>();
      // The offer changed in the test above is read back as the tracker has it; the deleted offer is
      // not asked for.
      expect(answer.summary).toMatchObject({ created: 0, updated: 1, unchanged: RECORDS - 1 });
      expect(asked).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^\/public\/api\/v1\/info\/campaign\?datePreset=all_time/),
          '/public/api/v1/campaign/101',
          '/public/api/v1/domains',
        ]),
      );
      expect(asked).not.toContain('/public/api/v1/offer/24');
    });

    it('a wrong key or an unreachable tracker is a 400 naming which, and nothing is created', async () => {
      const before = await counts();
      const wrong = await post({ from: 'binom', url: base, api_key: 'nope' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json<{ errors: Record<string, string[]> }>().errors.api_key?.[0]).toMatch(/refused this API key/);
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const unreachable = await post({ from: 'binom', url: `http://127.0.0.1:${port}`, api_key: BINOM_API_KEY });
      expect(unreachable.statusCode).toBe(400);
      expect(unreachable.json<{ errors: Record<string, string[]> }>().errors.url?.[0]).toMatch(/did not answer/);
      expect(await counts()).toEqual(before);
    });
  });
});
