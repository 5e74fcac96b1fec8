import type { OutboundPostbackEntry, PostbackLogEntry } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { DE_IP, Receiver } from './fixtures/traffic.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  bearer,
  createUserWithPermissions,
  expectError,
  forEachDatabase,
  login,
} from './harness.js';

// The postback log lists every incoming postback with its outcome, the conversion it made and
// its campaign; the outbound list shows each postback owed to a traffic source with its attempts.
// Each test works on its own day of the tracker's clock, so date ranges keep the tests apart.

const RETRY_MS = 1000;

forEachDatabase('postback log', (db) => {
  let app: FastifyInstance;
  let token: string;
  let clock = Date.parse('2025-04-01T09:00:00.000Z');
  const receiver = new Receiver();
  let port = 0;
  let sale: StoredRecord;
  let campaign: StoredRecord;

  beforeAll(async () => {
    port = await receiver.listen();
    app = await db.buildApp({
      // The receiver listens on 127.0.0.1, a private target.
      env: {
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        SWITCHYARD_ALLOW_PRIVATE_TARGETS: 'true',
      },
      // The worker loop is off: tests run it with the clock where they want it.
      engine: { now: () => new Date(clock), outbound: { intervalMs: 0, baseDelayMs: RETRY_MS, timeoutMs: 5000 } },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    sale = await createRecord(app, token, 'postback-events', { status_values: ['approved'] });
    const source = await createRecord(app, token, 'traffic-sources', {
      postback_events: [
        {
          postback_event_external_id: sale.external_id,
          postback_url: `http://127.0.0.1:${port}/pb?c={clickid}&p={payout}&t={txid}`,
        },
      ],
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
      postback_events: [
        { postback_event_external_id: sale.external_id, is_conversion: true, send_to_traffic_source: true },
      ],
      payout_rule_sets: [{ id: 'rs', postback_event_external_id: sale.external_id, default_payout: 4.5, rules: [] }],
    });
  });

  afterAll(() => receiver.close());

  /** Moves the clock to 09:00 UTC of a day; each test takes its own. */
  function startDay(day: string): void {
    clock = Date.parse(`${day}T09:00:00.000Z`);
  }

  async function click(): Promise<string> {
    clock += 1000;
    const response = await app.inject({ method: 'GET', url: `/c/${campaign.external_id}`, remoteAddress: DE_IP });
    expect(response.statusCode, response.body).toBe(302);
    return new URL(String(response.headers.location)).searchParams.get('c')!;
  }

  async function postback(query: string, status: number) {
    clock += 1000;
    const response = await app.inject({
      method: 'GET',
      url: `${await postbackPath(app)}?${query}`,
      remoteAddress: '203.0.113.7',
    });
    expect(response.statusCode, response.body).toBe(status);
  }

  async function incoming(query: string, as = token) {
    const response = await app.inject({ method: 'GET', url: `/api/postback-log?${query}`, headers: bearer(as) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ list: PostbackLogEntry[]; total: number }>();
  }

  async function outbound(query: string) {
    const response = await app.inject({
      method: 'GET',
      url: `/api/outbound-postbacks?${query}`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ list: OutboundPostbackEntry[]; total: number }>();
  }

  it('lists matched, duplicate, unknown and id-less postbacks, newest first, with what each became', async () => {
    startDay('2025-04-01');
    const clickId = await click();
    await postback(`clickid=${clickId}&payout=10&status=approved&txid=t-1&sub=zone%207`, 200);
    await postback(`clickid=${clickId}&payout=10&status=approved&txid=t-1`, 200);
    await postback('clickid=nobody-here&txid=t-2', 404);
    await postback('payout=3', 400);

    const { list, total } = await incoming('date_from=2025-04-01&date_to=2025-04-01');
    expect(total).toBe(4);
    expect(list.map((entry) => entry.outcome)).toEqual(['missing_click_id', 'unknown_click', 'duplicate', 'converted']);
    expect(list.map((entry) => entry.response_status)).toEqual([400, 404, 200, 200]);
    const [missing, unknown, duplicate, converted] = list as [
      PostbackLogEntry,
      PostbackLogEntry,
      PostbackLogEntry,
      PostbackLogEntry,
    ];

    expect(converted).toMatchObject({
      click_id: clickId,
      txid: 't-1',
      ip: '203.0.113.7',
      created_at: '2025-04-01T09:00:02.000Z',
      raw: { clickid: clickId, payout: '10', status: 'approved', txid: 't-1', sub: 'zone 7' },
      campaign: { kind: 'tracker-campaigns', external_id: campaign.external_id, name: campaign.name },
      conversion: {
        payout: 4.5,
        revenue: 10,
        currency: 'USD',
        status: 'approved',
        is_conversion: true,
        event: { kind: 'postback-events', external_id: sale.external_id, name: sale.name },
      },
    });
    expect(converted.conversion?.conversion_id).toMatch(/\S/);
    // A duplicate names the conversion it repeats (its history), and created nothing.
    expect(duplicate).toMatchObject({
      click_id: clickId,
      outcome: 'duplicate',
      state: 'approved',
      previous_state: null,
      conversion: { conversion_id: converted.conversion?.conversion_id, state: 'approved' },
      campaign: { name: campaign.name },
    });
    expect(converted).toMatchObject({ state: 'approved', previous_state: null, reason: null });
    expect(unknown).toMatchObject({ click_id: 'nobody-here', txid: 't-2', conversion: null, campaign: null });
    expect(missing).toMatchObject({ click_id: null, raw: { payout: '3' }, conversion: null, campaign: null });
  });

  it('pages newest first and filters by outcome, click id or txid and days', async () => {
    startDay('2025-04-02');
    const clicks = [await click(), await click(), await click()];
    for (const [index, clickId] of clicks.entries()) {
      await postback(`clickid=${clickId}&status=approved&txid=page-${index}`, 200);
    }
    await postback('clickid=stranger&txid=page-x', 404);
    await postback(`clickid=${clicks[0]}&status=approved&txid=page-0`, 200);
    const day = 'date_from=2025-04-02&date_to=2025-04-02';

    const first = await incoming(`${day}&limit=2`);
    expect(first.total).toBe(5);
    expect(first.list.map((entry) => [entry.outcome, entry.txid])).toEqual([
      ['duplicate', 'page-0'],
      ['unknown_click', 'page-x'],
    ]);
    const third = await incoming(`${day}&limit=2&page=3`);
    expect(third.list.map((entry) => entry.txid)).toEqual(['page-0']);
    expect(third.list[0]?.outcome).toBe('converted');
    expect((await incoming(`${day}&limit=2&page=4`)).list).toEqual([]);

    const converted = await incoming(`${day}&outcome=converted`);
    expect(converted.total).toBe(3);
    expect(converted.list.every((entry) => entry.outcome === 'converted')).toBe(true);
    expect((await incoming(`${day}&outcome=unknown_click`)).list.map((entry) => entry.click_id)).toEqual(['stranger']);
    // `outcome=` sent empty is no filter.
    expect((await incoming(`${day}&outcome=`)).total).toBe(5);

    const byClick = await incoming(`search=${clicks[0]}`);
    expect(byClick.list.map((entry) => entry.outcome)).toEqual(['duplicate', 'converted']);
    expect((await incoming('search=page-1')).list.map((entry) => entry.click_id)).toEqual([clicks[1]]);
    // Exact ids only: a part of one finds nothing.
    expect((await incoming('search=page-')).total).toBe(0);

    // Days are read in the asked timezone: 09:00 UTC on the 2nd is still the 1st in Honolulu (−10).
    expect((await incoming('date_from=2025-04-01&date_to=2025-04-01&timezone=Pacific/Honolulu')).total).toBe(5);
    expect((await incoming('date_from=2025-03-31&date_to=2025-03-31&timezone=Pacific/Honolulu')).total).toBe(4);
    expect((await incoming('date_from=2025-04-02')).total).toBeGreaterThanOrEqual(5);
    expect((await incoming('date_to=2025-04-01')).list.every((entry) => entry.created_at < '2025-04-02')).toBe(true);
  });

  it('shows an outbound postback failing, waiting for its retry, then sent', async () => {
    startDay('2025-04-03');
    await app.engine.outbound.processDue();
    receiver.requests.length = 0;
    receiver.statuses.push(500);
    const clickId = await click();
    await postback(`clickid=${clickId}&status=approved&txid=out-1`, 200);

    const [queued] = (await outbound(`search=${clickId}`)).list;
    expect(queued).toMatchObject({
      state: 'pending',
      attempts: 0,
      last_status: null,
      click_id: clickId,
      txid: 'out-1',
      url: `http://127.0.0.1:${port}/pb?c=${clickId}&p=4.5&t=out-1`,
      campaign: { external_id: campaign.external_id, name: campaign.name },
    });
    expect(queued?.next_attempt_at).toBe(new Date(clock).toISOString());

    expect(await app.engine.outbound.processDue()).toBe(1);
    const [retrying] = (await outbound(`search=${clickId}`)).list;
    expect(retrying).toMatchObject({ state: 'retrying', attempts: 1, last_status: 500, last_error: 'HTTP 500' });
    expect(Date.parse(retrying?.next_attempt_at ?? '') - clock).toBe(RETRY_MS);
    expect((await outbound('state=retrying')).list.map((entry) => entry.click_id)).toContain(clickId);
    expect((await outbound('state=pending')).list.map((entry) => entry.click_id)).not.toContain(clickId);

    clock += RETRY_MS;
    expect(await app.engine.outbound.processDue()).toBe(1);
    const [sent] = (await outbound(`search=${clickId}`)).list;
    expect(sent).toMatchObject({
      state: 'sent',
      attempts: 2,
      last_status: 200,
      last_error: null,
      next_attempt_at: null,
      last_attempt_at: new Date(clock).toISOString(),
    });
    expect(receiver.requests).toHaveLength(2);
    // Searching by the conversion id finds it too; the state filters split the queue.
    expect((await outbound(`search=${sent?.conversion_id}`)).list.map((entry) => entry.id)).toEqual([sent?.id]);
    const sentOnly = await outbound('state=sent');
    expect(sentOnly.list.map((entry) => entry.id)).toContain(sent?.id);
    expect(sentOnly.list.every((entry) => entry.state === 'sent')).toBe(true);
    expect((await outbound('state=retrying')).list.map((entry) => entry.id)).not.toContain(sent?.id);
    expect((await outbound('state=failed')).total).toBe(0);
    const page = await outbound('limit=1');
    expect(page.list).toHaveLength(1);
    expect(page.total).toBeGreaterThanOrEqual(2);
  });

  it('needs the reports permission', async () => {
    const campaigns = await createUserWithPermissions(app, token, ['/tracker/campaign/get']);
    for (const url of ['/api/postback-log', '/api/outbound-postbacks']) {
      expectError(await app.inject({ method: 'GET', url, headers: bearer(campaigns.token) }), 403);
      expectError(await app.inject({ method: 'GET', url }), 401);
    }
    const analyst = await createUserWithPermissions(app, token, ['/tracker/reports/get']);
    expect((await incoming('limit=1', analyst.token)).list).toHaveLength(1);
  });

  describe('refuses a bad query with the field at fault', () => {
    it.each([
      ['postback-log', 'outcome=matched', 'outcome'],
      ['postback-log', 'page=0', 'page'],
      ['postback-log', 'limit=0', 'limit'],
      ['postback-log', 'limit=5000', 'limit'],
      ['postback-log', 'date_from=2025-02-30', 'date_from'],
      ['postback-log', 'date_from=2025-04-02&date_to=2025-04-01', 'date_to'],
      ['postback-log', 'timezone=Mars/Olympus', 'timezone'],
      ['outbound-postbacks', 'state=gave_up', 'state'],
      ['outbound-postbacks', 'page=x', 'page'],
    ])('%s?%s', async (path, query, field) => {
      const response = await app.inject({ method: 'GET', url: `/api/${path}?${query}`, headers: bearer(token) });
      const body = expectError(response, 400);
      expect(Object.keys(body.errors ?? {})).toEqual([field]);
    });
  });
});
