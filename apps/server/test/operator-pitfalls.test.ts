import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { countryIn, DESKTOP, GB_IP } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// What a new operator tripped over on the server side, each failing silently before.
// - Archiving an offer, lander or flow that a live flow or campaign uses is refused with 409
//   naming them (and listed for the confirmation); archived anyway, routing falls through the backup chain.
// - An affiliate network's offer URL parameters reach the redirect of each of its offers.
// - Each conversion says what set its payout: a payout rule, the event's default, the amount
//   the network sent, or the offer's payout (tried in that order).
// On SQLite and PostgreSQL.

forEachDatabase('operator pitfalls', (db) => {
  let app: FastifyInstance;
  let token: string;
  let source: StoredRecord;

  async function click(campaign: StoredRecord, query = '') {
    return app.inject({
      method: 'GET',
      url: `/c/${campaign.external_id}${query}`,
      remoteAddress: GB_IP,
      headers: { 'user-agent': DESKTOP },
    });
  }

  const flowTo = (offer: StoredRecord, lander?: StoredRecord) =>
    createRecord(app, token, 'tracker-flows', {
      path_groups: [
        {
          id: 'g',
          name: 'All',
          paths: [
            {
              id: 'p',
              offers: [{ id: 'o', offer_external_id: offer.external_id }],
              ...(lander ? { landers: [{ id: 'l', lander_external_id: lander.external_id }] } : {}),
            },
          ],
        },
      ],
    });

  const campaignOn = (flow: StoredRecord) =>
    createRecord(app, token, 'tracker-campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
    });

  const archive = (apiPath: string, id: unknown, query = '') =>
    app.inject({ method: 'PUT', url: `/api/${apiPath}/${id}/archive${query}`, headers: bearer(token) });

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    source = await createRecord(app, token, 'traffic-sources', {
      parameters: [{ name: 'Zone', ts_parameter: 'zone', ts_token: '{zone}', internal_token: 'var1', enabled: true }],
    });
  });

  it("appends the network's offer URL parameters to each of its offers, macros filled", async () => {
    const network = await createRecord(app, token, 'affiliate-networks', {
      offer_url_params: 'aff_sub={clickid}&aff_sub2={var1}',
    });
    const offer = await createRecord(app, token, 'tracker-offers', {
      url: 'https://offer.example/land?o=1#top',
      affiliate_network_external_id: network.external_id,
    });
    const mine = await createRecord(app, token, 'tracker-offers', {
      url: 'https://offer.example/own?aff_sub=fixed',
      affiliate_network_external_id: network.external_id,
    });
    const campaign = await campaignOn(await flowTo(offer));
    const response = await click(campaign, '?zone=z-9');
    expect(response.statusCode, response.body).toBe(302);
    const location = new URL(String(response.headers.location));
    expect(location.pathname).toBe('/land');
    expect(location.hash).toBe('#top');
    expect(location.searchParams.get('o')).toBe('1');
    expect(location.searchParams.get('aff_sub')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(location.searchParams.get('aff_sub2')).toBe('z-9');

    // The offer's own value of a parameter wins.
    const own = new URL(String((await click(await campaignOn(await flowTo(mine)))).headers.location));
    expect(own.searchParams.getAll('aff_sub')).toEqual(['fixed']);

    // A change to the network reaches the redirect (routing recompiles).
    const changed = await app.inject({
      method: 'PUT',
      url: `/api/affiliate-networks/${network.external_id}`,
      headers: bearer(token),
      payload: { name: network.name, offer_url_params: 'sub1={clickid}' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = new URL(String((await click(campaign)).headers.location));
    expect(after.searchParams.get('sub1')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(after.searchParams.has('aff_sub')).toBe(false);
  });

  it('refuses to archive an offer a live flow routes to, naming the flow and its campaign', async () => {
    const backup = await createRecord(app, token, 'tracker-offers', { url: 'https://backup.example/' });
    const offer = await createRecord(app, token, 'tracker-offers', {
      url: 'https://main.example/',
      backup_offer_external_id: backup.external_id,
    });
    const flow = await flowTo(offer);
    const campaign = await campaignOn(flow);

    const usage = await app.inject({
      method: 'GET',
      url: `/api/tracker/offers/${offer.external_id}/usage`,
      headers: bearer(token),
    });
    expect(usage.statusCode, usage.body).toBe(200);
    expect(usage.json()).toEqual({
      used_by: [
        { kind: 'tracker-flows', external_id: flow.external_id, name: flow.name },
        { kind: 'tracker-campaigns', external_id: campaign.external_id, name: campaign.name },
      ],
    });

    const refused = await archive('tracker/offers', offer.external_id);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toEqual({
      message: `Still used by flow "${flow.name}" and campaign "${campaign.name}". Remove it from them first, or archive it anyway.`,
      used_by: usage.json().used_by,
    });
    // Nothing changed: the offer is active, and clicks still reach it.
    expect(new URL(String((await click(campaign)).headers.location)).host).toBe('main.example');

    // The backup is used by the offer naming it.
    const backupRefused = await archive('tracker/offers', backup.external_id);
    expect(backupRefused.statusCode).toBe(409);
    expect(backupRefused.json().used_by).toEqual([
      { kind: 'tracker-offers', external_id: offer.external_id, name: offer.name },
    ]);

    // Archived anyway (an API client's choice): routing skips it like a disabled offer, to its backup.
    const forced = await archive('tracker/offers', offer.external_id, '?force=true');
    expect(forced.statusCode, forced.body).toBe(200);
    expect(forced.json()).toMatchObject({ status: 'archived' });
    const rerouted = await click(campaign);
    expect(rerouted.statusCode).toBe(302);
    expect(new URL(String(rerouted.headers.location)).host).toBe('backup.example');
  });

  it('refuses to archive a lander or a flow in use, and archives one nothing uses', async () => {
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://o.example/' });
    const lander = await createRecord(app, token, 'tracker-landers', { url: 'https://lander.example/' });
    const flow = await flowTo(offer, lander);
    const campaign = await campaignOn(flow);
    const landerRefused = await archive('tracker/landers', lander.external_id);
    expect(landerRefused.statusCode).toBe(409);
    expect(landerRefused.json().used_by.map((user: { kind: string }) => user.kind)).toEqual([
      'tracker-flows',
      'tracker-campaigns',
    ]);
    const flowRefused = await archive('tracker/flows', flow.external_id);
    expect(flowRefused.statusCode).toBe(409);
    expect(flowRefused.json().used_by).toEqual([
      { kind: 'tracker-campaigns', external_id: campaign.external_id, name: campaign.name },
    ]);

    // Once the campaign is archived, nothing active uses the flow, nor (through it) the lander's campaign.
    expect((await archive('tracker/campaigns', campaign.external_id)).statusCode).toBe(200);
    expect((await archive('tracker/flows', flow.external_id)).statusCode).toBe(200);
    expect((await archive('tracker/landers', lander.external_id)).statusCode).toBe(200);
    const unused = await createRecord(app, token, 'tracker-offers', { url: 'https://unused.example/' });
    expect((await archive('tracker/offers', unused.external_id)).statusCode).toBe(200);
  });

  it('says what set each payout: a rule, the default, the network, the offer, or nothing', async () => {
    const sale = await createRecord(app, token, 'postback-events', { status_values: ['sale'] });
    const lead = await createRecord(app, token, 'postback-events', { status_values: ['lead'] });
    const paid = await createRecord(app, token, 'tracker-offers', {
      url: 'https://paid.example/?c={clickid}',
      payout: 1.5,
    });
    const free = await createRecord(app, token, 'tracker-offers', { url: 'https://free.example/?c={clickid}' });
    const campaignFor = async (offer: StoredRecord) =>
      createRecord(app, token, 'tracker-campaigns', {
        traffic_source_external_id: source.external_id,
        flow_external_id: (await flowTo(offer)).external_id,
        postback_events: [
          { postback_event_external_id: sale.external_id, is_conversion: true },
          { postback_event_external_id: lead.external_id, is_conversion: true },
        ],
        payout_rule_sets: [
          {
            id: 'rs-sale',
            postback_event_external_id: sale.external_id,
            default_payout: 3.25,
            rules: [{ id: 'rule-gb', payout: 9, priority: 1, condition: countryIn('GB') }],
          },
          {
            id: 'rs-sale-us',
            postback_event_external_id: lead.external_id,
            default_payout: 0.5,
            rules: [{ id: 'rule-us', payout: 4, priority: 1, condition: countryIn('US') }],
          },
        ],
      });
    const paidCampaign = await campaignFor(paid);
    const freeCampaign = await createRecord(app, token, 'tracker-campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: (await flowTo(free)).external_id,
    });
    const clickId = async (campaign: StoredRecord) =>
      new URL(String((await click(campaign)).headers.location)).searchParams.get('c') ?? '';
    const path = await postbackPath(app);
    const send = async (query: string) => {
      const response = await app.inject({ method: 'GET', url: `${path}?${query}` });
      expect(response.statusCode, response.body).toBe(200);
    };
    const [ruled, defaulted, offered, networked, nothing] = [
      await clickId(paidCampaign),
      await clickId(paidCampaign),
      await clickId(
        await createRecord(app, token, 'tracker-campaigns', {
          traffic_source_external_id: source.external_id,
          flow_external_id: (await flowTo(paid)).external_id,
        }),
      ),
      await clickId(freeCampaign),
      await clickId(freeCampaign),
    ];
    await app.engine.flush();
    await send(`clickid=${ruled}&status=sale&payout=1.5&txid=a`); // GB visitor: the GB rule
    await send(`clickid=${defaulted}&status=lead&payout=1.5&txid=b`); // not US: the event's default
    await send(`clickid=${offered}&status=sale&txid=c`); // no rules, no amount: the offer's 1.50
    await send(`clickid=${networked}&payout=2.75&txid=d`); // no rules: the network's amount
    await send(`clickid=${nothing}&txid=e`); // nothing at all: 0

    const log = await app.inject({ method: 'GET', url: '/api/postback-log?limit=50', headers: bearer(token) });
    expect(log.statusCode, log.body).toBe(200);
    const byClick = new Map(
      log
        .json<{
          list: {
            click_id: string;
            conversion: { payout: number; payout_source: string; payout_rule_id: string | null };
          }[];
        }>()
        .list.map((entry) => [entry.click_id, entry.conversion]),
    );
    expect(byClick.get(ruled)).toMatchObject({ payout: 9, payout_source: 'rule', payout_rule_id: 'rule-gb' });
    expect(byClick.get(defaulted)).toMatchObject({ payout: 0.5, payout_source: 'default', payout_rule_id: null });
    expect(byClick.get(offered)).toMatchObject({ payout: 1.5, payout_source: 'offer' });
    expect(byClick.get(networked)).toMatchObject({ payout: 2.75, payout_source: 'network' });
    expect(byClick.get(nothing)).toMatchObject({ payout: 0, payout_source: 'none' });
  });
});
