import type { NotificationList } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Monitors } from '../src/alerts/monitors.js';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { DE_IP, Receiver } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// The two monitors about delivery: postbacks owed to traffic sources failing above 10 % of the last
// hour's (at least ten of them), and the event writer falling behind the traffic. Each tells once while
// it lasts, and again after it was well.

const POSTBACKS = 12;

forEachDatabase('delivery monitors', (db) => {
  let app: FastifyInstance;
  let token: string;
  let clock = Date.parse('2025-06-02T09:00:00.000Z');
  const receiver = new Receiver();
  let campaign: StoredRecord;
  let monitors: Monitors;
  /** What the writer has waiting, as the engine would say; the real engine's own count is near zero. */
  let waiting = 0;

  const notifications = async () =>
    (await app.inject({ url: '/api/notifications', headers: bearer(token) })).json<NotificationList>();

  beforeAll(async () => {
    const port = await receiver.listen();
    app = await db.buildApp({
      env: {
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        // The receiver listens on 127.0.0.1, a private target.
        SWITCHYARD_ALLOW_PRIVATE_TARGETS: 'true',
      },
      // The delivery loop is off: the test runs it with the clock where it wants it.
      engine: { now: () => new Date(clock), outbound: { intervalMs: 0, baseDelayMs: 60_000, timeoutMs: 5000 } },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const engine = app.engine;
    monitors = new Monitors(
      app.store.db,
      {
        capTaken: engine.capTaken.bind(engine),
        get eventsWaiting() {
          return waiting;
        },
      },
      app.notifier,
      app.reports,
      { allowPrivateTargets: true, now: () => new Date(clock) },
    );
    const sale = await createRecord(app, token, 'postback-events', { status_values: ['approved'] });
    const source = await createRecord(app, token, 'traffic-sources', {
      postback_events: [
        { postback_event_external_id: sale.external_id, postback_url: `http://127.0.0.1:${port}/pb?c={clickid}` },
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
      payout_rule_sets: [{ id: 'rs', postback_event_external_id: sale.external_id, default_payout: 2, rules: [] }],
    });
  });

  afterAll(() => receiver.close());

  /** A click and its approved postback, which owes the traffic source a postback. */
  async function conversion(n: number): Promise<void> {
    clock += 1000;
    const clicked = await app.inject({ url: `/c/${campaign.external_id}`, remoteAddress: DE_IP });
    expect(clicked.statusCode, clicked.body).toBe(302);
    const clickId = new URL(String(clicked.headers.location)).searchParams.get('c');
    const answered = await app.inject({
      url: `${await postbackPath(app)}?clickid=${clickId}&status=approved&txid=delivery-${n}`,
      remoteAddress: '203.0.113.7',
    });
    expect(answered.statusCode, answered.body).toBe(200);
  }

  const of = (findings: Awaited<ReturnType<Monitors['runOnce']>>, monitor: string) =>
    findings.filter((finding) => finding.monitor === monitor);

  it('tells when postbacks to traffic sources fail above 10 % of the last hour, once, and again later', async () => {
    for (let n = 0; n < POSTBACKS; n += 1) await conversion(n);
    // One of twelve fails (8 %): under the bar.
    receiver.statuses.push(500);
    expect(await app.engine.outbound.processDue()).toBe(POSTBACKS);
    expect(of(await monitors.runOnce(), 'postback_failures')).toEqual([]);

    // Two more fail (3 of 12, 25 %): it tells, with the figures.
    for (let n = POSTBACKS; n < POSTBACKS + 2; n += 1) await conversion(n);
    receiver.statuses.push(500, 500);
    expect(await app.engine.outbound.processDue()).toBe(2);
    const before = (await notifications()).total;
    const found = of(await monitors.runOnce(), 'postback_failures');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      title: 'Postbacks to traffic sources failing: 21 %',
      link: '/admin/postback-log',
      values: { failing: 3, total: 14 },
    });
    // Once while it lasts.
    expect(of(await monitors.runOnce(), 'postback_failures')).toEqual([]);
    const bell = await notifications();
    expect(bell.total - before).toBe(1);
    expect(bell.list[0]).toMatchObject({ kind: 'postback_failures', read: false });
    expect(bell.list[0]?.body).toBe(
      '3 of the 14 postbacks owed to traffic sources in the last hour failed or are being retried.',
    );

    // Two hours on, the failures are out of the last hour: well again, and a new wave tells anew.
    clock += 2 * 3_600_000;
    expect(of(await monitors.runOnce(), 'postback_failures')).toEqual([]);
    const retried = await app.engine.outbound.processDue();
    expect(retried).toBe(3);
    for (let n = 100; n < 100 + POSTBACKS; n += 1) await conversion(n);
    receiver.statuses.push(...Array(POSTBACKS).fill(500));
    expect(await app.engine.outbound.processDue()).toBe(POSTBACKS);
    const again = of(await monitors.runOnce(), 'postback_failures');
    expect(again.map((finding) => finding.title)).toEqual(['Postbacks to traffic sources failing: 100 %']);
  });

  it('tells when the event writer falls behind the traffic, once, and again after it caught up', async () => {
    waiting = 50_000;
    expect(of(await monitors.runOnce(), 'writer_behind')).toEqual([]);
    waiting = 50_001;
    const behind = of(await monitors.runOnce(), 'writer_behind');
    expect(behind.map((finding) => finding.title)).toEqual(['Events are waiting to be stored']);
    expect(behind[0]?.body).toContain('50001 answered events wait in the journal');
    expect(of(await monitors.runOnce(), 'writer_behind')).toEqual([]);
    const bell = await notifications();
    expect(bell.list[0]).toMatchObject({ kind: 'writer_behind', title: 'Events are waiting to be stored' });

    waiting = 0;
    expect(of(await monitors.runOnce(), 'writer_behind')).toEqual([]);
    waiting = 80_000;
    expect(of(await monitors.runOnce(), 'writer_behind')).toHaveLength(1);
    waiting = 0;
  });
});
