import type { PostbackLogEntry } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { DESKTOP } from './fixtures/traffic.js';
import { bearer, buildProxiedAdminApp, type DatabaseUnderTest, forEachDatabase } from './harness.js';

// The postback log shows what the network sent (its status, payout and currency, as sent) beside the
// state the conversion moved to. On SQLite and PostgreSQL.

forEachDatabase('postback log: what the network sent', (db: DatabaseUnderTest) => {
  let app: FastifyInstance;
  let token: string;
  let campaign: string;

  beforeAll(async () => {
    ({ app, adminToken: token } = await buildProxiedAdminApp(db));
    const sale = await createRecord(app, token, 'postback-events', {
      status_values: ['lead', 'sale'],
      is_conversion: true,
    });
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    campaign = String(
      (
        await createRecord(app, token, 'tracker-campaigns', {
          flow_external_id: flow.external_id,
          postback_events: [{ postback_event_external_id: sale.external_id, is_conversion: true }],
        })
      ).external_id,
    );
  });

  it('answers the status, payout and currency as sent, beside the state', async () => {
    const click = await app.inject({ method: 'GET', url: `/c/${campaign}`, headers: { 'user-agent': DESKTOP } });
    const clickId = new URL(String(click.headers.location)).searchParams.get('c') ?? '';
    await app.engine.flush();
    const sent = await app.inject({
      method: 'GET',
      url: `${await postbackPath(app)}?clickid=${clickId}&status=lead&sum=3.50&cnv_currency=eur&txid=t1`,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const response = await app.inject({
      method: 'GET',
      url: `/api/postback-log?click_id=${clickId}`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    const [entry] = response.json<{ list: PostbackLogEntry[] }>().list;
    expect(entry?.sent).toEqual({ status: 'lead', payout: '3.50', currency: 'EUR' });
    expect(entry?.state).not.toBeNull();

    const bare = await app.inject({ method: 'GET', url: `${await postbackPath(app)}?clickid=${clickId}&txid=t2` });
    expect(bare.statusCode, bare.body).toBe(200);
    const list = (
      await app.inject({ method: 'GET', url: `/api/postback-log?click_id=${clickId}`, headers: bearer(token) })
    ).json<{
      list: PostbackLogEntry[];
    }>().list;
    expect(list.find((row) => row.txid === 't2')?.sent).toEqual({ status: null, payout: null, currency: null });
  });
});
