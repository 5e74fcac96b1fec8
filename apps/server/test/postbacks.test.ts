import { ALL_CONDITION, parseConditionText } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryDelay } from '../src/traffic/outbound.js';
import { readPostbackParams, rulePayout } from '../src/traffic/rules/postback-rules.js';
import { conditionContext } from '../src/traffic/rules/routing.js';
import type { CompiledCampaign } from '../src/traffic/rules/snapshot.js';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { countryIn, DE_IP, Receiver, US_IP } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, forEachDatabase, login } from './harness.js';

// A postback creates a conversion with the rule payout, a
// duplicate txid is not counted twice, an unknown click id is 404 and logged, the outbound postback
// reaches the traffic source with the macros filled and is retried when it fails. On SQLite and PostgreSQL.

const RETRY_MS = 1000;

describe('postback parameters', () => {
  it('reads every alias, the query winning over the body', () => {
    expect(readPostbackParams({ subid: 'c1', revenue: '2,5', cnv_status: 'sale', tid: 't' }, undefined)).toMatchObject({
      clickId: 'c1',
      revenue: 2.5,
      status: 'sale',
      txid: 't',
    });
    expect(readPostbackParams({ cnv_id: 'q' }, { cid: 'b', sum: 3, et: 'x', transaction_id: 'y' })).toMatchObject({
      clickId: 'b',
      revenue: 3,
      status: 'x',
      txid: 'y',
    });
    expect(readPostbackParams({ clickid: 'q' }, { clickid: 'b' }).clickId).toBe('q');
    expect(readPostbackParams({ lead_id: 'l', payout: 'abc' }, null)).toMatchObject({
      clickId: 'l',
      revenue: undefined,
    });
  });

  it('payout rules: the first matching rule by priority, else the default; no rule set keeps the revenue', () => {
    const tree = (text: string) => parseConditionText(text).tree ?? ALL_CONDITION;
    const campaign = {
      payoutRuleSets: new Map([
        [
          'ev',
          {
            eventExternalId: 'ev',
            defaultPayout: 0.5,
            // Sorted by priority as compiled: the DE-only rule before the catch-all for DE and GB.
            rules: [
              { id: 'de', payout: 3, priority: 1, condition: tree(countryIn('DE')) },
              { id: 'de-gb', payout: 2, priority: 2, condition: tree(countryIn('DE', 'GB')) },
            ],
          },
        ],
      ]),
    } as unknown as CompiledCampaign;
    const context = (country: string) =>
      conditionContext(new Map(), { fields: { countryCode: country }, vars: {}, now: new Date() });
    expect(rulePayout(campaign, 'ev', context('DE'), 9)).toEqual({ payout: 3, ruleId: 'de', source: 'rule' });
    expect(rulePayout(campaign, 'ev', context('GB'), 9)).toEqual({ payout: 2, ruleId: 'de-gb', source: 'rule' });
    expect(rulePayout(campaign, 'ev', context('US'), 9)).toEqual({ payout: 0.5, ruleId: null, source: 'default' });
    expect(rulePayout(campaign, 'other', context('DE'), 9)).toEqual({ payout: 9, ruleId: null, source: 'network' });
    expect(rulePayout(campaign, null, context('DE'), undefined)).toEqual({ payout: 0, ruleId: null, source: 'none' });
    // Without rules for the event nor an amount sent, the offer's payout.
    expect(rulePayout(campaign, null, context('DE'), undefined, 1.5)).toEqual({
      payout: 1.5,
      ruleId: null,
      source: 'offer',
    });
    expect(rulePayout(campaign, 'other', context('DE'), 9, 1.5)).toEqual({
      payout: 9,
      ruleId: null,
      source: 'network',
    });
    expect(rulePayout(campaign, 'ev', context('US'), undefined, 1.5)).toEqual({
      payout: 0.5,
      ruleId: null,
      source: 'default',
    });
  });

  it('backs off exponentially, up to the cap', () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelay(attempts, 1000, 5000))).toEqual([1000, 2000, 4000, 5000]);
  });
});

forEachDatabase('postbacks', (db) => {
  let app: FastifyInstance;
  let token: string;
  let clock = Date.parse('2025-03-10T12:00:00.000Z');
  const receiver = new Receiver();
  let sale: StoredRecord;
  let campaign: StoredRecord;
  let apiCampaign: StoredRecord;

  beforeAll(async () => {
    const port = await receiver.listen();
    app = await db.buildApp({
      // The receiver listens on 127.0.0.1, a private target.
      env: {
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        SWITCHYARD_ALLOW_PRIVATE_TARGETS: 'true',
      },
      // The worker loop is off: each test runs it, with the clock where it wants it.
      engine: { now: () => new Date(clock), outbound: { intervalMs: 0, baseDelayMs: RETRY_MS, timeoutMs: 5000 } },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    sale = await createRecord(app, token, 'postback-events', { status_values: ['approved', 'sale'] });
    const registration = await createRecord(app, token, 'postback-events', { status_values: ['reg'] });
    const source = await createRecord(app, token, 'traffic-sources', {
      parameters: [
        { name: 'Zone', ts_parameter: 'zone', ts_token: '{zone}', internal_token: 'var1', enabled: true },
        { name: 'Click', ts_parameter: 'click_id', ts_token: '{click_id}', internal_token: 'var2', enabled: true },
      ],
      postback_events: [
        {
          postback_event_external_id: sale.external_id,
          postback_url: `http://127.0.0.1:${port}/pb?ext={external_id}&p={payout}&s={status}&t={txid}&z={var1}&c={clickid}&l={lead_id}`,
        },
      ],
    });
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    const payoutRules = [
      {
        id: 'rs-sale',
        postback_event_external_id: sale.external_id,
        default_payout: 2,
        rules: [
          { id: 'r-us', payout: 1, priority: 5, condition: countryIn('US') },
          { id: 'r-de', payout: 7.5, priority: 1, condition: countryIn('DE') },
        ],
      },
    ];
    const postbackEvents = [
      { postback_event_external_id: sale.external_id, is_conversion: true, send_to_traffic_source: true },
      { postback_event_external_id: registration.external_id, send_to_traffic_source: true },
    ];
    campaign = await createRecord(app, token, 'tracker-campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
      postback_events: postbackEvents,
      payout_rule_sets: payoutRules,
    });

    const apiOffer = await createRecord(app, token, 'offers', { url: 'https://api-offer.example/?lead={lead_id}' });
    const apiFlow = await createRecord(app, token, 'flows', {
      path_groups: [
        {
          id: 'first',
          name: 'First',
          priority: 1,
          paths: [{ id: 'capped', offer_external_id: apiOffer.external_id, postback_daily_cap: 1 }],
        },
        {
          id: 'second',
          name: 'Second',
          priority: 2,
          paths: [{ id: 'spare', offer_external_id: apiOffer.external_id }],
        },
      ],
    });
    apiCampaign = await createRecord(app, token, 'campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: apiFlow.external_id,
      postback_events: postbackEvents,
      payout_rule_sets: payoutRules,
    });
  });

  afterAll(() => receiver.close());

  async function click(ip: string, query = ''): Promise<string> {
    const response = await app.inject({ method: 'GET', url: `/c/${campaign.external_id}?${query}`, remoteAddress: ip });
    expect(response.statusCode, response.body).toBe(302);
    return new URL(String(response.headers.location)).searchParams.get('c')!;
  }

  async function postback(query: string, init: { method?: 'GET' | 'POST'; form?: string } = {}) {
    return app.inject({
      method: init.method ?? 'GET',
      url: `${await postbackPath(app)}?${query}`,
      ...(init.form !== undefined
        ? { payload: init.form, headers: { 'content-type': 'application/x-www-form-urlencoded' } }
        : {}),
    });
  }

  const conversionsOf = (column: 'click_id' | 'lead_id', id: string) =>
    app.store.db.selectFrom('conversions').selectAll().where(column, '=', id).execute();

  const outboundOf = async (conversionId: string) =>
    app.store.db
      .selectFrom('outbound_postbacks')
      .selectAll()
      .where('conversion_id', '=', conversionId)
      .executeTakeFirstOrThrow();

  it('a postback creates a conversion with the rule payout, before it is answered', async () => {
    const clickId = await click(DE_IP, 'zone=Z%201&click_id=src-1');
    // The click is still in the event buffer: the postback finds it anyway.
    const response = await postback(`clickid=${clickId}&payout=10&status=approved&txid=t-1`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toBe('OK');
    const [conversion, ...more] = await conversionsOf('click_id', clickId);
    expect(more).toEqual([]);
    expect(conversion).toMatchObject({
      campaign_external_id: campaign.external_id,
      postback_event_external_id: sale.external_id,
      status: 'approved',
      is_conversion: 1,
      txid: 't-1',
      country: 'DE',
      path_id: 'p',
      payout_rule_id: 'r-de',
    });
    expect(Number(conversion!.payout)).toBe(7.5);
    expect(Number(conversion!.revenue)).toBe(10);
    expect(JSON.parse(conversion!.raw)).toMatchObject({ clickid: clickId, payout: '10' });
  });

  it('no rule matching: the default payout; aliases and a POSTed form work too', async () => {
    const clickId = await click('81.2.69.160');
    const response = await postback('', { method: 'POST', form: `subid=${clickId}&revenue=4&cnv_status=sale&tid=t-2` });
    expect(response.statusCode, response.body).toBe(200);
    const [conversion] = await conversionsOf('click_id', clickId);
    expect(conversion).toMatchObject({ country: 'GB', txid: 't-2', payout_rule_id: null, is_conversion: 1 });
    expect(Number(conversion!.payout)).toBe(2);
    // A US click: the US rule (listed first, priority 5) is the one that matches; `event` by external id.
    const usClick = await click(US_IP);
    expect((await postback(`cid=${usClick}&sum=3&event=${sale.external_id}`)).statusCode).toBe(200);
    const [us] = await conversionsOf('click_id', usClick);
    expect(Number(us!.payout)).toBe(1);
  });

  it('a duplicate txid is acknowledged but counted once', async () => {
    const clickId = await click(DE_IP);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await postback(`clickid=${clickId}&payout=10&status=approved&txid=dup`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body).toBe('OK');
    }
    expect(await conversionsOf('click_id', clickId)).toHaveLength(1);
    const log = await app.store.db
      .selectFrom('postback_log')
      .select('outcome')
      .where('click_id', '=', clickId)
      .orderBy('id')
      .execute();
    expect(log.map((row) => row.outcome)).toEqual(['converted', 'duplicate', 'duplicate']);
    // A different txid for the same click is another conversion.
    expect((await postback(`clickid=${clickId}&status=approved&txid=other`)).statusCode).toBe(200);
    expect(await conversionsOf('click_id', clickId)).toHaveLength(2);
  });

  it('an unknown click id is 404 and a line in the postback log', async () => {
    const response = await postback('clickid=nope-nope&payout=1&txid=lost');
    expect(response.statusCode).toBe(404);
    const row = await app.store.db
      .selectFrom('postback_log')
      .selectAll()
      .where('click_id', '=', 'nope-nope')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ outcome: 'unknown_click', txid: 'lost', conversion_id: null });
    expect(JSON.parse(row.raw)).toEqual({ clickid: 'nope-nope', payout: '1', txid: 'lost' });
    expect((await postback('payout=1')).statusCode).toBe(400);
  });

  it('the outbound postback reaches the traffic source with the macros filled', async () => {
    await app.engine.outbound.processDue();
    receiver.requests.length = 0;
    const clickId = await click(DE_IP, 'zone=Z%201&click_id=src%2F9');
    expect((await postback(`clickid=${clickId}&payout=10&status=approved&txid=t%20o`)).statusCode).toBe(200);
    const [conversion] = await conversionsOf('click_id', clickId);
    expect(await outboundOf(conversion!.conversion_id)).toMatchObject({ state: 'pending', attempts: 0 });

    expect(await app.engine.outbound.processDue()).toBe(1);
    expect(receiver.requests).toHaveLength(1);
    const sent = receiver.requests[0]!;
    expect(sent.pathname).toBe('/pb');
    expect(Object.fromEntries(sent.searchParams)).toEqual({
      ext: 'src/9',
      p: '7.5',
      s: 'approved',
      t: 't o',
      z: 'Z 1',
      c: clickId,
      l: '',
    });
    expect(sent.search).toContain('ext=src%2F9');
    expect(await outboundOf(conversion!.conversion_id)).toMatchObject({ state: 'sent', attempts: 1, last_status: 200 });
    // Nothing left to send.
    expect(await app.engine.outbound.processDue()).toBe(0);
  });

  it('no outbound postback when the traffic source has no postback URL for the event', async () => {
    const clickId = await click(DE_IP);
    // The registration event has no payout rules, no payout sent and no URL at the traffic source.
    expect((await postback(`clickid=${clickId}&status=reg&txid=r-1`)).statusCode).toBe(200);
    const [conversion] = await conversionsOf('click_id', clickId);
    expect(conversion).toMatchObject({ is_conversion: 0, payout: 0 });
    const queued = await app.store.db
      .selectFrom('outbound_postbacks')
      .select('id')
      .where('conversion_id', '=', conversion!.conversion_id)
      .execute();
    expect(queued).toEqual([]);
  });

  it('retries with backoff when the traffic source fails, then succeeds', async () => {
    await app.engine.outbound.processDue();
    receiver.requests.length = 0;
    receiver.statuses.push(500, 503);
    const clickId = await click(US_IP, 'click_id=retry-me');
    expect((await postback(`clickid=${clickId}&status=sale&txid=r`)).statusCode).toBe(200);
    const [conversion] = await conversionsOf('click_id', clickId);
    const id = conversion!.conversion_id;

    expect(await app.engine.outbound.processDue()).toBe(1);
    let row = await outboundOf(id);
    expect(row).toMatchObject({ state: 'pending', attempts: 1, last_status: 500 });
    expect(Date.parse(row.next_attempt_at) - clock).toBe(RETRY_MS);
    // Not due yet.
    expect(await app.engine.outbound.processDue()).toBe(0);

    clock += RETRY_MS;
    expect(await app.engine.outbound.processDue()).toBe(1);
    row = await outboundOf(id);
    expect(row).toMatchObject({ state: 'pending', attempts: 2, last_status: 503 });
    expect(Date.parse(row.next_attempt_at) - clock).toBe(2 * RETRY_MS);

    clock += 2 * RETRY_MS;
    expect(await app.engine.outbound.processDue()).toBe(1);
    expect(await outboundOf(id)).toMatchObject({ state: 'sent', attempts: 3, last_status: 200 });
    expect(receiver.requests).toHaveLength(3);
    for (const request of receiver.requests) {
      expect(Object.fromEntries(request.searchParams)).toMatchObject({ ext: 'retry-me', p: '1', s: 'sale', t: 'r' });
    }
  });

  it('a lead_id postback converts an API campaign lead, and the Postbacks Daily Cap rests its path', async () => {
    const lead = async (country: string) => {
      const response = await app.inject({
        method: 'POST',
        url: `/v1/campaigns/${apiCampaign.external_id}/leads`,
        headers: { 'x-api-key': String(apiCampaign.ingest_token) },
        payload: { email: `someone-${Math.random()}@gmail.com`, country, vars: { var1: 'L1' } },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ lead_id: string; reason: string }>().lead_id;
    };
    const leadId = await lead('DE');
    await app.engine.outbound.processDue();
    receiver.requests.length = 0;
    const response = await postback(`lead_id=${leadId}&payout=9&event=${encodeURIComponent(String(sale.name))}&txid=L`);
    expect(response.statusCode, response.body).toBe(200);
    expect(await postback(`lead_id=${leadId}&payout=9&status=sale&txid=L`).then((r) => r.statusCode)).toBe(200);
    const conversions = await conversionsOf('lead_id', leadId);
    expect(conversions).toHaveLength(1);
    expect(conversions[0]).toMatchObject({
      click_id: null,
      campaign_external_id: apiCampaign.external_id,
      postback_event_external_id: sale.external_id,
      path_id: 'capped',
      payout_rule_id: 'r-de',
    });
    expect(Number(conversions[0]!.payout)).toBe(7.5);
    await app.engine.outbound.processDue();
    expect(Object.fromEntries(receiver.requests[0]!.searchParams)).toMatchObject({
      c: leadId,
      l: leadId,
      z: 'L1',
      p: '7.5',
    });

    // Path `capped` has had its one postback today: leads go to the spare path.
    await app.engine.flush();
    const next = await lead('DE');
    await app.engine.flush();
    const stored = await app.store.db
      .selectFrom('tracker_leads')
      .select('path_id')
      .where('lead_id', '=', next)
      .executeTakeFirstOrThrow();
    expect(stored.path_id).toBe('spare');
  });
});
