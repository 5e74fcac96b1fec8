import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ImportAnswer, SimulationAnswer } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEITARO_API_KEY, keitaroExport, keitaroStreams } from './fixtures/keitaro-export.js';
import { DE_IP, DESKTOP, GB_IP, HOME_IP, IPHONE } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createUserWithPermissions, forEachDatabase, login } from './harness.js';

// A Keitaro export (fixtures/keitaro-export.ts, shaped after its Admin API v1) imported
// through POST /api/imports: a dry run writes nothing, a real run creates the records, a second one
// changes nothing, what has no equivalent is reported with its campaign, a campaign that cannot be saved
// whole is not saved at all, and the imported flow routes 200 generated visitors as the streams' rules
// say. Also read from a live tracker (a local stand-in over HTTP). On SQLite and PostgreSQL.

const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** A small seeded generator (mulberry32), so the 200 visitors are the same on every run. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PLACES = [
  { country: 'US', ip: HOME_IP },
  { country: 'GB', ip: GB_IP },
  { country: 'DE', ip: DE_IP },
];
const DEVICES = [
  { device: 'mobile', ua: IPHONE },
  { device: 'desktop', ua: DESKTOP },
  { device: 'tablet', ua: IPAD },
];

interface Stream {
  id: number;
  campaign_id: number;
  type: string;
  position: number;
  filters: { name: string; mode: string; payload: unknown }[];
  offers: { offer_id: number; share: number }[];
}

/** Keitaro's own reading of campaign 101 (a `position` campaign): the first stream whose filters all pass. */
function keitaroStreamFor(visitor: { country: string; device: string }): Stream {
  const streams = (keitaroStreams as unknown as Stream[])
    .filter((stream) => stream.campaign_id === 101)
    .sort((a, b) => {
      const rank = (type: string) => (type === 'forced' ? 0 : type === 'regular' ? 1 : 2);
      return rank(a.type) - rank(b.type) || a.position - b.position;
    });
  const passes = (filter: Stream['filters'][number]) => {
    const value = filter.name === 'country' ? visitor.country : filter.name === 'device_type' ? visitor.device : null;
    const listed = (filter.payload as string[]).includes(value ?? '');
    return filter.mode === 'accept' ? listed : !listed;
  };
  return streams.find((stream) => stream.type === 'default' || stream.filters.every(passes))!;
}

forEachDatabase('importing from Keitaro', (db) => {
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

  const post = (payload: unknown, query = '', auth = token) =>
    app.inject({ method: 'POST', url: `/api/imports${query}`, headers: bearer(auth), payload: payload as object });
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
        ].map(async (resource) => [resource, (await list(resource)).length] as const),
      ),
    );

  let first: ImportAnswer;

  it('a dry run answers what would be created and left out, and writes nothing', async () => {
    const before = await counts();
    const response = await post({ from: 'keitaro', file: keitaroExport() }, '?dry_run=true');
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<ImportAnswer>();
    expect(answer.id).toBeNull();
    expect(answer.dry_run).toBe(true);
    // 1 network, 2 sources (PropellerAds and the stand-in for campaign 103's none), 4 offers, 1 lander;
    // campaigns 101 and 102 with their flows, 102's redirect stream as an offer, and the domain.
    expect(answer.summary).toMatchObject({ created: 14, updated: 0, unchanged: 0 });
    expect(answer.records.every((record) => record.new_id === null && record.action === 'created')).toBe(true);
    expect(answer.left_out.map((entry) => entry.kind)).toContain('campaign');
    expect(await counts()).toEqual(before);
  });

  it('a real run creates the records, with old → new ids', async () => {
    const response = await post({ from: 'keitaro', file: keitaroExport() });
    expect(response.statusCode, response.body).toBe(200);
    first = response.json<ImportAnswer>();
    expect(first.id).toEqual(expect.any(Number));
    expect(first.status).toBe('done');
    expect(first.summary).toMatchObject({ created: 14, updated: 0, unchanged: 0 });
    expect(first.progress.done).toBe(first.progress.total);
    const byOld = (kind: string, id: string) =>
      first.records.find((record) => record.old_kind === kind && record.old_id === id);
    const campaign = byOld('campaign', '101')!;
    expect(campaign.new_id).toMatch(/^[A-Za-z0-9]{12}$/);
    const campaigns = await list('tracker/campaigns');
    const stored = campaigns.find((row) => row.external_id === campaign.new_id)!;
    expect(stored).toMatchObject({
      name: 'US mobile and EU split',
      cost_model: 'CPC',
      cost: 0.02,
      flow_external_id: byOld('campaign_flow', '101')!.new_id,
      traffic_source_external_id: byOld('traffic_source', '5')!.new_id,
    });
    const flow = (await list('tracker/flows')).find((row) => row.external_id === stored.flow_external_id)!;
    const groups = flow.path_groups as { id: string; condition: string; paths: { offers: { weight: number }[] }[] }[];
    expect(groups.map((group) => group.id)).toEqual(['ks-201', 'ks-202', 'ks-203']);
    expect(JSON.parse(groups[2]!.condition)).toEqual({ type: 'AllCondition' });
    expect(groups[1]!.paths[0]!.offers.map((offer) => offer.weight)).toEqual([70, 30]);
    const offer = (await list('tracker/offers')).find((row) => row.external_id === byOld('offer', '11')!.new_id)!;
    expect(offer).toMatchObject({
      url: 'https://offers.example/mobile?click={clickid}&zone={var1}',
      payout: 2.5,
      affiliate_network_external_id: byOld('affiliate_network', '3')!.new_id,
    });
    const source = (await list('traffic-sources')).find(
      (row) => row.external_id === byOld('traffic_source', '5')!.new_id,
    )!;
    expect(source).toMatchObject({ cost_parameter: 'cost' });
    expect(source.parameters).toMatchObject([
      { ts_parameter: 'zone', internal_token: 'var1' },
      { ts_parameter: 'campaign', internal_token: 'var2' },
    ]);

    const domains = await list('domains');
    expect(domains).toEqual([
      expect.objectContaining({
        id: Number(byOld('domain', '31')!.new_id),
        name: 'go.old-tracker.example',
        index_campaign: campaign.new_id,
        https_only: true,
      }),
    ]);

    const stored101 = await app.inject({ method: 'GET', url: `/api/imports/${first.id}`, headers: bearer(token) });
    expect(stored101.statusCode, stored101.body).toBe(200);
    expect(stored101.json<ImportAnswer>()).toMatchObject({ id: first.id, status: 'done', summary: first.summary });
  });

  it('reports what has no equivalent by name, with the campaign it sat in', async () => {
    const inCampaign = (id: string) => first.left_out.filter((entry) => entry.campaign?.old_id === id);
    const names = inCampaign('102').map((entry) => `${entry.kind} ${entry.name}: ${entry.reason}`);
    expect(names).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^stream_filter iOS zone 7: connection_type: no equivalent/),
        expect.stringMatching(/^stream_filter iOS zone 7: os: operating systems with no equivalent: Symbian/),
        expect.stringMatching(/^stream Blank: its action \(show_text\) has no equivalent: left out of the flow/),
        expect.stringMatching(/^campaign_setting bind_visitors/),
      ]),
    );
    expect(first.left_out).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'offer', old_id: '15', name: 'Zipped offer' }),
        expect.objectContaining({ kind: 'offer', old_id: '13', reason: expect.stringContaining('{keyword}') }),
      ]),
    );
  });

  it('a campaign that cannot be saved whole is not saved at all', async () => {
    const refused = first.left_out.find((entry) => entry.kind === 'campaign' && entry.old_id === '103')!;
    expect(refused.reason).toMatch(/nothing of it imported/);
    expect(first.records.some((record) => record.campaign?.old_id === '103')).toBe(false);
    const names = [...(await list('tracker/campaigns')), ...(await list('tracker/flows'))].map((row) => row.name);
    expect(names).not.toContain('Broken address list');
  });

  it('a second identical run changes nothing; a changed one updates in place', async () => {
    const before = await counts();
    const again = await post({ from: 'keitaro', file: keitaroExport() });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<ImportAnswer>().summary).toMatchObject({ created: 0, updated: 0, unchanged: 14 });
    expect(await counts()).toEqual(before);

    const changed = keitaroExport();
    changed.offers[0]!.payout_value = 3;
    const third = (await post({ from: 'keitaro', file: changed })).json<ImportAnswer>();
    expect(third.summary).toMatchObject({ created: 0, updated: 1, unchanged: 13 });
    const updated = third.records.find((record) => record.action === 'updated')!;
    expect(updated).toMatchObject({ old_kind: 'offer', old_id: '11' });
    expect(updated.new_id).toBe(
      first.records.find((record) => record.old_kind === 'offer' && record.old_id === '11')!.new_id,
    );
    expect(await counts()).toEqual(before);
  });

  it('routes 200 generated visitors as the streams say (simulator against the fixture rules)', async () => {
    const campaignId = first.records.find(
      (record) => record.old_kind === 'campaign' && record.old_id === '101',
    )!.new_id;
    const offerIds = new Map(
      first.records
        .filter((record) => record.old_kind === 'offer')
        .map((record) => [record.new_id, Number(record.old_id)]),
    );
    const random = seeded(45);
    const seen = new Set<number>();
    for (let index = 0; index < 200; index += 1) {
      const place = PLACES[Math.floor(random() * PLACES.length)]!;
      const device = DEVICES[Math.floor(random() * DEVICES.length)]!;
      const response = await app.inject({
        method: 'POST',
        url: `/api/tracker/campaigns/${campaignId}/simulate`,
        headers: bearer(token),
        payload: { ip: place.ip, user_agent: device.ua },
      });
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json<SimulationAnswer>();
      expect([answer.context.country?.toUpperCase(), answer.context.device]).toEqual([place.country, device.device]);
      const stream = keitaroStreamFor({ country: place.country, device: device.device });
      seen.add(stream.id);
      expect(answer.path_group?.id, `visitor ${index}: ${place.country} ${device.device}`).toBe(`ks-${stream.id}`);
      // Each offer's chance is its share of the stream's offers.
      const shares = stream.offers.reduce((sum, offer) => sum + offer.share, 0);
      const chances = answer.probabilities.offers.map((offer) => [offerIds.get(offer.external_id), offer.chance]);
      expect(chances.sort()).toEqual(
        stream.offers.map((offer) => [offer.offer_id, expect.closeTo(offer.share / shares, 6)]).sort(),
      );
      expect(offerIds.get(answer.offer?.external_id ?? null)).toBeOneOf(stream.offers.map((offer) => offer.offer_id));
    }
    // Every stream was reached by some visitor.
    expect([...seen].sort()).toEqual([201, 202, 203]);
  });

  it("a split-tested campaign's filterless streams share by their weights", async () => {
    const campaignId = first.records.find(
      (record) => record.old_kind === 'campaign' && record.old_id === '102',
    )!.new_id;
    const names = new Map(first.records.map((record) => [record.new_id, `${record.old_kind} ${record.old_id}`]));
    // A desktop visitor is not on iOS, so the forced stream lets it by, to the split of 212 (60) and 213 (40).
    const response = await app.inject({
      method: 'POST',
      url: `/api/tracker/campaigns/${campaignId}/simulate`,
      headers: bearer(token),
      payload: { ip: GB_IP, user_agent: DESKTOP, params: { var1: 'zone-7' } },
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<SimulationAnswer>();
    expect(answer.groups.map((group) => [group.id, group.matched])).toEqual([
      ['ks-211', false],
      ['kc-102-split', true],
    ]);
    expect(answer.probabilities.paths.map((path) => [path.id, path.chance])).toEqual([
      ['ks-212', expect.closeTo(0.6, 6)],
      ['ks-213', expect.closeTo(0.4, 6)],
    ]);
    expect(answer.probabilities.offers.map((offer) => names.get(offer.external_id)).sort()).toEqual([
      'offer 12',
      'stream_url 213',
    ]);
  });

  it("takes an export larger than the API's usual 1 MiB", async () => {
    const big = keitaroExport() as Record<string, unknown>;
    // Keitaro sends more than the importer reads; 2 MB of it is read past.
    big.offers = (big.offers as Record<string, unknown>[]).map((offer) => ({ ...offer, notes: 'n'.repeat(400_000) }));
    const response = await post({ from: 'keitaro', file: big }, '?dry_run=true');
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.json<ImportAnswer>().summary.created).toBe(0);
  });

  it('refuses a malformed file with field errors, and writes nothing', async () => {
    const before = await counts();
    const file = keitaroExport() as Record<string, unknown>;
    (file.streams as Record<string, unknown>[])[1]!.filters = [{ mode: 'maybe', payload: [] }];
    (file.campaigns as Record<string, unknown>[])[0]!.name = 'x'.repeat(300);
    (file.offers as Record<string, unknown>[])[0]!.payout_value = 1e308;
    const response = await post({ from: 'keitaro', file });
    expect(response.statusCode, response.body).toBe(400);
    const { errors } = response.json<{ errors: Record<string, string[]> }>();
    expect(Object.keys(errors)).toEqual(
      expect.arrayContaining([
        'file.streams.1.filters.0.name',
        'file.streams.1.filters.0.mode',
        'file.campaigns.0.name',
        'file.offers.0.payout_value',
      ]),
    );
    const deep = await post({ from: 'keitaro', file: { campaigns: 'none' } });
    expect(deep.statusCode).toBe(400);
    expect(deep.json<{ errors: Record<string, string[]> }>().errors).toHaveProperty(['file.campaigns']);
    expect((await post({ from: 'keitaro' })).statusCode).toBe(400);
    // Hostile shapes: a filter payload nested deep, a huge text, a huge number.
    const nested = JSON.stringify({ from: 'keitaro', file: keitaroExport() }).replace(
      '"payload":["US","CA"]',
      `"payload":${'['.repeat(20_000)}"US"${']'.repeat(20_000)}`,
    );
    const hostile = await app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: nested,
    });
    expect(hostile.statusCode, hostile.body).toBe(400);
    const huge = keitaroExport();
    huge.offers[1]!.name = 'x'.repeat(200_000);
    (huge.campaigns[0] as Record<string, unknown>).cost_value = 1e308;
    const refusedHuge = await post({ from: 'keitaro', file: huge });
    expect(refusedHuge.statusCode).toBe(400);
    expect(Object.keys(refusedHuge.json<{ errors: object }>().errors)).toEqual(
      expect.arrayContaining(['file.offers.1.name', 'file.campaigns.0.cost_value']),
    );
    expect(await counts()).toEqual(before);
  });

  it('needs the import right and the rights to write what it imports', async () => {
    const reader = await createUserWithPermissions(app, token, ['/tracker/import']);
    const refused = await post({ from: 'keitaro', file: keitaroExport() }, '', reader.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toMatch(/right to create/);
    const none = await createUserWithPermissions(app, token, ['/tracker/campaign']);
    expect((await post({ from: 'keitaro', file: keitaroExport() }, '', none.token)).statusCode).toBe(403);
    const get = await app.inject({ method: 'GET', url: `/api/imports/${first.id}`, headers: bearer(none.token) });
    expect(get.statusCode).toBe(403);
    const missing = await app.inject({ method: 'GET', url: '/api/imports/999999', headers: bearer(token) });
    expect(missing.statusCode).toBe(404);
  });

  describe('from a live tracker', () => {
    let server: Server;
    let base: string;
    const asked: string[] = [];

    beforeAll(async () => {
      const data = keitaroExport();
      // A stand-in for Keitaro's Admin API: the lists, each campaign's streams, and the key checked.
      server = createServer((request, response) => {
        asked.push(request.url ?? '');
        if (request.headers['api-key'] !== KEITARO_API_KEY) {
          response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Unauthorized"}');
          return;
        }
        const path = new URL(request.url ?? '/', 'http://x').pathname;
        const streams = /^\/admin_api\/v1\/campaigns\/(\d+)\/streams$/.exec(path);
        const name = path.replace('/admin_api/v1/', '') as keyof typeof data;
        const body = streams
          ? data.streams.filter((stream) => stream.campaign_id === Number(streams[1]))
          : (data[name] ?? null);
        response.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? {}));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await new Promise((resolve) => server?.close(resolve));
    });

    it('reads the lists with the Api-Key header; the same records stay unchanged', async () => {
      const response = await post({ from: 'keitaro', url: base, api_key: KEITARO_API_KEY }, '?dry_run=true');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<ImportAnswer>().summary).toMatchObject({ created: 0, updated: 1, unchanged: 13 });
      expect(asked).toEqual(expect.arrayContaining(['/admin_api/v1/campaigns', '/admin_api/v1/campaigns/101/streams']));
    });

    it('a wrong key or an unreachable tracker is a 400 naming which, and nothing is created', async () => {
      const before = await counts();
      const wrong = await post({ from: 'keitaro', url: base, api_key: 'nope' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json<{ errors: Record<string, string[]> }>().errors.api_key?.[0]).toMatch(/refused this API key/);
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const unreachable = await post({ from: 'keitaro', url: `http://127.0.0.1:${port}`, api_key: KEITARO_API_KEY });
      expect(unreachable.statusCode).toBe(400);
      expect(unreachable.json<{ errors: Record<string, string[]> }>().errors.url?.[0]).toMatch(/did not answer/);
      expect(await counts()).toEqual(before);
    });
  });
});

forEachDatabase('importing from Keitaro, internal addresses', (db) => {
  it('never reads a tracker on an internal address', async () => {
    const app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    const token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const response = await app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: bearer(token),
      payload: { from: 'keitaro', url: 'http://127.0.0.1:9/', api_key: KEITARO_API_KEY },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: Record<string, string[]> }>().errors.url?.[0]).toMatch(/cannot be reached/);
    const binom = await app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: bearer(token),
      payload: { from: 'binom', url: 'http://127.0.0.1:9/', api_key: 'b-key' },
    });
    expect(binom.statusCode).toBe(400);
    expect(binom.json<{ errors: Record<string, string[]> }>().errors.url?.[0]).toMatch(/cannot be reached/);
  });
});
