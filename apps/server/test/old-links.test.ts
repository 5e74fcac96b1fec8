import http from 'node:http';
import { type ImportAnswer, ZDomainForm } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Actor } from '../src/auth/actor.js';
import { readOldLinks, saveOldLinks } from '../src/store/old-link-rows.js';
import type { Database } from '../src/store/schema.js';
import { ScopeGuard, workspaceTables } from '../src/store/scope.js';
import { createRecord } from './fixtures/config-records.js';
import { keitaroExport } from './fixtures/keitaro-export.js';
import { postbackKey } from './fixtures/postbacks.js';
import { DESKTOP } from './fixtures/traffic.js';
import { makeZip } from './fixtures/zip.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// Moving in from Keitaro and Binom: after an import, the old campaign links answer as the imported
// campaign's own URL on the imported domain and the workspace's other domains (Keitaro's `/{alias}` and
// `?_dmn={alias}`, Binom's `/click.php?key=`), an unknown one as an unknown campaign; a postback for a click
// the old tracker issued before the move converts once on the campaign its URL names, logged "pre-move",
// and only from a caller allowed to send it. On SQLite and PostgreSQL.

const NETWORK_IP = '198.51.100.7';
const STRANGER_IP = '203.0.113.9';
const OLD_DOMAIN = 'go.old-tracker.example';
const OTHER_DOMAIN = 'track.moved.example';

/** A GET over real HTTP with a domain's Host header (the domains' routing sits ahead of Fastify). */
function get(port: number, host: string, url: string): Promise<{ status: number; location: string; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path: url, headers: { host, 'user-agent': DESKTOP } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, location: String(response.headers.location ?? ''), body }),
        );
      },
    );
    request.once('error', reject);
    request.end();
  });
}

/** A redirect's target with its click id taken out, so two clicks' answers compare. */
const place = (location: string) => location.replace(/click=[A-Za-z0-9_-]+/, 'click=*');

forEachDatabase('old links and pre-move postbacks', (db) => {
  let app: FastifyInstance;
  let token: string;
  let port: number;
  let key: string;
  let campaignId: string;
  let workspaceId: number;

  beforeAll(async () => {
    app = await db.buildApp({
      env: {
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        // Imported domains are looked up; nothing answers here, so the look fails at once.
        SWITCHYARD_DNS_SERVERS: '127.0.0.1:9',
        SWITCHYARD_PUBLIC_IP: '127.0.0.1',
      },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    key = await postbackKey(app);
    const file = keitaroExport();
    // Served over plain HTTP here.
    file.domains[0]!.is_ssl = false;
    const response = await app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: bearer(token),
      payload: { from: 'keitaro', file },
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<ImportAnswer>();
    campaignId = answer.records.find((record) => record.old_kind === 'campaign' && record.old_id === '101')!.new_id!;
    const other = await app.inject({
      method: 'POST',
      url: '/api/domains',
      headers: bearer(token),
      payload: { name: OTHER_DOMAIN },
    });
    expect(other.statusCode, other.body).toBe(201);
    const workspace = await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow();
    workspaceId = workspace.id;
    port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
  });

  afterAll(async () => {
    await app?.close();
  });

  it("records each campaign's Keitaro alias, and a second run changes nothing", async () => {
    const links = await readOldLinks(app.store.db, { workspaceId });
    expect(links.map((link) => [link.tracker, link.key, link.campaignExternalId])).toEqual(
      expect.arrayContaining([['keitaro', 'xK9aP2', campaignId]]),
    );
    // The network keeps the macros its Keitaro postback URL sent (`subid={subid}`).
    const networks = await app.inject({
      method: 'GET',
      url: '/api/affiliate-networks?limit=0',
      headers: bearer(token),
    });
    expect(networks.json<{ list: Record<string, unknown>[] }>().list).toEqual([
      expect.objectContaining({
        name: 'AdCombo',
        postback_params: { click_id: 'subid', payout: 'payout', status: 'status', txid: 'txid' },
      }),
    ]);
    // Campaign 103 was not imported, so neither is its alias.
    expect(links.map((link) => link.key)).not.toContain('zz0bad');
    const again = await app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: bearer(token),
      payload: { from: 'keitaro', file: { ...keitaroExport(), domains: [] } },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(await readOldLinks(app.store.db, { workspaceId })).toEqual(links);
  });

  it("Keitaro's /{alias} and ?_dmn= answer as the campaign's own URL, on every domain of the workspace", async () => {
    const own = await get(port, OLD_DOMAIN, `/c/${campaignId}`);
    expect(own.status, own.body).toBe(302);
    expect(own.location).toMatch(/^https:\/\/offers\.example\/all\?click=/);
    for (const host of [OLD_DOMAIN, OTHER_DOMAIN]) {
      for (const url of ['/xK9aP2', '/xK9aP2?var1=a', '/?_dmn=xK9aP2', '/any/path?_dmn=xK9aP2&x=1']) {
        const old = await get(port, host, url);
        expect(old.status, `${host}${url}: ${old.body}`).toBe(302);
        expect(place(old.location), `${host}${url}`).toBe(place(own.location));
        expect(old.location).not.toBe(own.location);
      }
    }
    // The click is the campaign's, as a click on its own URL is.
    const clickId = /click=([A-Za-z0-9_-]+)/.exec((await get(port, OTHER_DOMAIN, '/xK9aP2')).location)![1]!;
    await app.engine.flush();
    const row = await app.store.db
      .selectFrom('tracker_clicks')
      .select('campaign_external_id')
      .where('click_id', '=', clickId)
      .executeTakeFirst();
    expect(row?.campaign_external_id).toBe(campaignId);
  });

  it('an unknown alias or key answers as an unknown campaign does', async () => {
    const unknown = await get(port, OTHER_DOMAIN, '/NoSuchCampaign');
    expect(unknown.status).toBe(404);
    for (const url of ['/nosuch', '/?_dmn=nosuch', '/click.php?key=nosuch', '/bR7qLmX', '/?_dmn=']) {
      const answer = await get(port, OTHER_DOMAIN, url);
      expect([answer.status, answer.body], url).toEqual([unknown.status, unknown.body]);
    }
    // A Binom key is no Keitaro alias, nor the other way round.
    expect((await get(port, OTHER_DOMAIN, '/click.php?key=xK9aP2')).status).toBe(404);
    // Another workspace's domain does not reach this workspace's campaign by its old alias.
    const made = await app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: bearer(token),
      payload: { name: 'Elsewhere' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const elsewhere: Actor = {
      userId: 0,
      sessionId: 0,
      permissions: ['/'],
      workspaceId: made.json<{ id: number }>().id,
    };
    await app.domains.service.create(ZDomainForm.parse({ name: 'elsewhere.example' }), elsewhere);
    // Served as a domain (one without the dashboard: no /api there), not as the admin host.
    expect((await get(port, 'elsewhere.example', '/api/domains')).status).toBe(404);
    expect((await get(port, 'localhost', '/api/domains')).status).toBe(401);
    for (const url of ['/xK9aP2', '/?_dmn=xK9aP2']) {
      expect((await get(port, 'elsewhere.example', url)).status, url).toBe(404);
    }
    expect((await get(port, OTHER_DOMAIN, '/xK9aP2')).status).toBe(302);
  });

  it("Binom's /click.php?key= answers as the campaign's own URL once its key is stored", async () => {
    // As the Binom importer stores them; under ScopeGuard, so every query names its workspace.
    const guarded = app.store.db.withPlugin(
      new ScopeGuard(await workspaceTables(app.store.db as Kysely<unknown>, db.kind)),
    ) as Kysely<Database>;
    expect(await saveOldLinks(guarded, { workspaceId }, campaignId, [{ tracker: 'binom', key: 'b1nomKey42' }])).toBe(
      true,
    );
    expect(await saveOldLinks(guarded, { workspaceId }, campaignId, [{ tracker: 'binom', key: 'b1nomKey42' }])).toBe(
      false,
    );
    await app.engine.configChanged('tracker-campaigns');
    const own = await get(port, OLD_DOMAIN, `/c/${campaignId}`);
    for (const host of [OLD_DOMAIN, OTHER_DOMAIN]) {
      const old = await get(port, host, '/click.php?key=b1nomKey42&sub1=x');
      expect(old.status, old.body).toBe(302);
      expect(place(old.location)).toBe(place(own.location));
    }
    // Binom's postbacks come to the same file with cnv_id: still a postback (here one without a key).
    const postback = await get(port, OTHER_DOMAIN, '/click.php?key=b1nomKey42&cnv_id=abc');
    expect(postback.status).toBe(403);
    // The Keitaro alias stays: saving Binom's keys leaves other trackers' alone.
    expect((await get(port, OTHER_DOMAIN, '/xK9aP2')).status).toBe(302);
  });

  const postback = (path: string, remoteAddress = NETWORK_IP) =>
    app.inject({ method: 'GET', url: path, remoteAddress });
  const conversions = (clickKey: string) =>
    app.store.db
      .selectFrom('conversions')
      .select(['conversion_id', 'campaign_external_id', 'payout', 'state', 'workspace_id'])
      .where('click_id', '=', clickKey)
      .execute();
  const logOf = async (clickId: string) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/postback-log?search=${clickId}`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ list: { outcome: string; reason: string | null; state: string | null }[] }>().list;
  };

  it("a pre-move Keitaro subid converts once on the campaign its postback names, logged 'pre-move'", async () => {
    const first = await postback(`/${key}/postback?subid=kt0ld5ub1d&campaign=xK9aP2&status=lead&payout=4.5`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.body).toBe('OK');
    const again = await postback(`/${key}/postback?subid=kt0ld5ub1d&campaign=xK9aP2&status=lead&payout=4.5`);
    expect(again.statusCode).toBe(200);
    const stored = await conversions(`keitaro:${campaignId}:kt0ld5ub1d`);
    expect(stored).toEqual([
      expect.objectContaining({ campaign_external_id: campaignId, state: 'pending', workspace_id: workspaceId }),
    ]);
    expect(Number(stored[0]!.payout)).toBe(4.5);
    // The sale moves the same conversion; the campaign may be named by its id here too.
    const sale = await postback(`/${key}/postback?subid=kt0ld5ub1d&campaign=${campaignId}&status=sale`);
    expect(sale.statusCode, sale.body).toBe(200);
    expect(await conversions(`keitaro:${campaignId}:kt0ld5ub1d`)).toEqual([
      expect.objectContaining({ conversion_id: stored[0]!.conversion_id, state: 'approved' }),
    ]);
    // A late lead does not move the sale back, and says so.
    const late = await postback(`/${key}/postback?subid=kt0ld5ub1d&campaign=xK9aP2&status=lead`);
    expect(late.statusCode).toBe(200);
    const log = await logOf('kt0ld5ub1d');
    expect(log.map((row) => [row.outcome, row.reason])).toEqual(
      expect.arrayContaining([
        ['converted', 'pre-move'],
        ['duplicate', 'pre-move'],
        ['status_changed', 'pre-move'],
        ['unchanged', expect.stringMatching(/^pre-move: A conversion that is approved/)],
      ]),
    );
    expect(log).toHaveLength(4);
    expect(await conversions(`keitaro:${campaignId}:kt0ld5ub1d`)).toHaveLength(1);
  });

  it("a pre-move Binom cnv_id converts at Binom's click.php with its key", async () => {
    const response = await postback(`/${key}/click.php?cnv_id=bn0ldCl1ck&campaign=b1nomKey42&payout=2`);
    expect(response.statusCode, response.body).toBe(200);
    expect(await conversions(`binom:${campaignId}:bn0ldCl1ck`)).toHaveLength(1);
    expect((await logOf('bn0ldCl1ck')).map((row) => row.reason)).toEqual(['pre-move']);
  });

  it('a forged pre-move postback is refused, and counts nothing', async () => {
    // The wrong key.
    const wrongKey = await postback(`/${'x'.repeat(24)}/postback?subid=f0rged1&campaign=xK9aP2&payout=9`);
    expect(wrongKey.statusCode).toBe(403);
    // Switchyard's own click id parameter: not the old tracker's, so the id is simply unknown.
    const ownToken = await postback(`/${key}/postback?clickid=f0rged2&campaign=xK9aP2&payout=9`);
    expect(ownToken.statusCode).toBe(404);
    // No campaign named, or one not imported from that tracker.
    const noCampaign = await postback(`/${key}/postback?subid=f0rged3&payout=9`);
    expect(noCampaign.statusCode).toBe(404);
    // The log tells the operator what such a postback lacks.
    expect((await logOf('f0rged3')).map((row) => [row.outcome, row.reason])).toEqual([
      ['unknown_click', expect.stringMatching(/campaign=/)],
    ]);
    expect((await postback(`/${key}/postback?subid=f0rged4&campaign=b1nomKey42&payout=9`)).statusCode).toBe(404);
    expect((await postback(`/${key}/click.php?cnv_id=f0rged5&campaign=xK9aP2&payout=9`)).statusCode).toBe(404);
    // An address not on the list of the networks the campaign sends to.
    const network = await app.inject({ method: 'GET', url: '/api/affiliate-networks?limit=0', headers: bearer(token) });
    const adcombo = network
      .json<{ list: { external_id: string; name: string }[] }>()
      .list.find((row) => row.name === 'AdCombo')!;
    const read = await app.inject({
      method: 'GET',
      url: `/api/affiliate-networks/${adcombo.external_id}`,
      headers: bearer(token),
    });
    const { id: _id, external_id: _externalId, ...form } = read.json<Record<string, unknown>>();
    const update = await app.inject({
      method: 'PUT',
      url: `/api/affiliate-networks/${adcombo.external_id}`,
      headers: bearer(token),
      payload: { ...form, postback_ips: ['198.51.100.0/24'] },
    });
    expect(update.statusCode, update.body).toBe(200);
    const stranger = await postback(`/${key}/postback?subid=f0rged6&campaign=xK9aP2&payout=9`, STRANGER_IP);
    expect(stranger.statusCode).toBe(403);
    // An absurd payout.
    const absurd = await postback(`/${key}/postback?subid=f0rged7&campaign=xK9aP2&payout=1e15`);
    expect(absurd.statusCode).toBe(400);
    for (const id of ['f0rged1', 'f0rged2', 'f0rged3', 'f0rged4', 'f0rged5', 'f0rged6', 'f0rged7']) {
      const rows = await app.store.db
        .selectFrom('conversions')
        .select('id')
        .where('click_id', 'like', `%:${id}`)
        .execute();
      expect(rows, id).toEqual([]);
    }
    // From the listed address it converts.
    const listed = await postback(`/${key}/postback?subid=l1sted&campaign=xK9aP2&payout=1`, NETWORK_IP);
    expect(listed.statusCode, listed.body).toBe(200);
  });

  it('a pre-move click id converts only within 90 days of the import, so a leaked key cannot book made-up ids for ever', async () => {
    const imported = async (at: string) => {
      await app.store.db.updateTable('old_links').set({ updated_at: at }).where('tracker', '=', 'keitaro').execute();
      await app.engine.configChanged('tracker-campaigns');
    };
    const stored = await app.store.db
      .selectFrom('old_links')
      .select('updated_at')
      .where('tracker', '=', 'keitaro')
      .executeTakeFirstOrThrow();
    try {
      await imported(new Date(Date.now() - 91 * 86_400_000).toISOString());
      const late = await postback(`/${key}/postback?subid=l4teOld1d&campaign=xK9aP2&payout=3`);
      expect(late.statusCode).toBe(404);
      expect((await logOf('l4teOld1d')).map((row) => [row.outcome, row.reason])).toEqual([
        ['unknown_click', expect.stringMatching(/convert for 90 days after the campaign's import/)],
      ]);
      await imported(new Date(Date.now() - 89 * 86_400_000).toISOString());
      const inTime = await postback(`/${key}/postback?subid=l4teOld1d&campaign=xK9aP2&payout=3`);
      expect(inTime.statusCode, inTime.body).toBe(200);
      expect(await conversions(`keitaro:${campaignId}:l4teOld1d`)).toHaveLength(1);
    } finally {
      await imported(stored.updated_at);
    }
  });

  it('{offer:2} in a hosted lander becomes the link to the second offer of the path', async () => {
    const source = await createRecord(app, token, 'traffic-sources');
    const first = await createRecord(app, token, 'tracker-offers', { url: 'https://first.example/?c={clickid}' });
    const second = await createRecord(app, token, 'tracker-offers', { url: 'https://second.example/?c={clickid}' });
    const lander = await createRecord(app, token, 'tracker-landers', { url: 'https://lp.example/' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        {
          id: 'g',
          name: 'All',
          paths: [
            {
              id: 'p',
              offers: [
                { id: 'o1', offer_external_id: first.external_id },
                { id: 'o2', offer_external_id: second.external_id },
              ],
              landers: [{ id: 'l1', lander_external_id: lander.external_id }],
            },
          ],
        },
      ],
    });
    const campaign = await createRecord(app, token, 'tracker-campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
    });
    const html =
      '<a id="one" href="{offer}">1</a><a id="two" href="{offer:2}">2</a><a id="nine" href="{offer:9}">9</a>';
    const upload = await app.inject({
      method: 'POST',
      url: `/api/tracker/landers/${String(lander.external_id)}/files`,
      headers: { ...bearer(token), 'content-type': 'application/zip' },
      payload: makeZip([{ name: 'index.html', data: html }]),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const click = await app.inject({
      method: 'GET',
      url: `/c/${String(campaign.external_id)}`,
      headers: { 'user-agent': DESKTOP },
    });
    expect(click.statusCode, click.body).toBe(302);
    const location = String(click.headers.location);
    const clickId = /clickid=([A-Za-z0-9_-]+)/.exec(location)![1]!;
    const page = await app.inject({ method: 'GET', url: location });
    expect(page.statusCode, page.body).toBe(200);
    const link = `/c/${String(campaign.external_id)}/offer?clickid=${clickId}`;
    expect(page.body).toContain(`<a id="one" href="${link}">`);
    expect(page.body).toContain(`<a id="two" href="${link}&offer=2">`);
    const go = (url: string) => app.inject({ method: 'GET', url, headers: { 'user-agent': DESKTOP } });
    const secondHop = await go(`${link}&offer=2`);
    expect(secondHop.statusCode, secondHop.body).toBe(302);
    expect(secondHop.headers.location).toBe(`https://second.example/?c=${clickId}`);
    // The first offer's link goes to the offer chosen at the click; a path with no ninth offer sends there too.
    const chosen = String((await go(link)).headers.location);
    expect(chosen).toMatch(/^https:\/\/(first|second)\.example\/\?c=/);
    expect((await go(`${link}&offer=9`)).headers.location).toBe(chosen);
    expect((await go(`${link}&offer=0`)).statusCode).toBe(404);
    expect((await go(`${link}&offer=x`)).statusCode).toBe(404);
  });
});
