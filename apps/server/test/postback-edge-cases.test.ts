import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { postbackKey } from './fixtures/postbacks.js';
import { DE_IP } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// Money never moves on an odd request. Unknown statuses are never approved,
// amounts are read by one rule that never misreads, the payout limit holds after conversion, HEAD
// counts nothing, and long texts are refused rather than cut. On SQLite and PostgreSQL.

const NETWORK_IP = '198.51.100.7';

forEachDatabase('postback edge cases', (db) => {
  let app: FastifyInstance;
  let token: string;
  let key: string;
  let campaign: StoredRecord;
  let lenientCampaign: StoredRecord;
  let cappedCampaign: StoredRecord;
  let autoCampaign: StoredRecord;
  let cappedOffer: StoredRecord;
  let backupOffer: StoredRecord;

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    key = await postbackKey(app);
    const sale = await createRecord(app, token, 'postback-events', { name: 'Sale' });
    const lenient = await createRecord(app, token, 'postback-events', {
      name: 'Lenient sale',
      unknown_statuses: 'pending',
    });
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    backupOffer = await createRecord(app, token, 'tracker-offers', { url: 'https://backup.example/?c={clickid}' });
    cappedOffer = await createRecord(app, token, 'tracker-offers', {
      url: 'https://capped.example/?c={clickid}',
      daily_cap: 1,
      backup_offer_external_id: backupOffer.external_id,
    });
    const flowOf = async (offerId: unknown) =>
      (
        await createRecord(app, token, 'tracker-flows', {
          path_groups: [
            { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offerId }] }] },
          ],
        })
      ).external_id;
    const flow = await flowOf(offer.external_id);
    campaign = await createRecord(app, token, 'tracker-campaigns', {
      flow_external_id: flow,
      postback_events: [{ postback_event_external_id: sale.external_id, is_conversion: true }],
    });
    lenientCampaign = await createRecord(app, token, 'tracker-campaigns', {
      flow_external_id: flow,
      postback_events: [{ postback_event_external_id: lenient.external_id, is_conversion: true }],
    });
    cappedCampaign = await createRecord(app, token, 'tracker-campaigns', {
      flow_external_id: await flowOf(cappedOffer.external_id),
    });
    const source = await createRecord(app, token, 'traffic-sources', { cost_model: 'Auto', cost_parameter: 'cost' });
    autoCampaign = await createRecord(app, token, 'tracker-campaigns', {
      flow_external_id: flow,
      traffic_source_external_id: source.external_id,
      cost_model: 'Auto',
    });
  });

  async function click(on: StoredRecord = campaign, query = ''): Promise<string> {
    const response = await app.inject({ method: 'GET', url: `/c/${on.external_id}${query}`, remoteAddress: DE_IP });
    expect(response.statusCode, response.body).toBe(302);
    return new URL(String(response.headers.location)).searchParams.get('c')!;
  }

  const postback = (query: string, method: 'GET' | 'HEAD' = 'GET') =>
    app.inject({ method, url: `/${key}/postback?${query}`, remoteAddress: NETWORK_IP });
  const conversionsOf = (clickId: string) =>
    app.store.db.selectFrom('conversions').selectAll().where('click_id', '=', clickId).orderBy('id').execute();
  const logOf = (clickId: string) =>
    app.store.db.selectFrom('postback_log').selectAll().where('click_id', '=', clickId).orderBy('id').execute();
  const errorFields = (response: { json: <T>() => T }) =>
    Object.keys(response.json<{ errors: Record<string, string[]> }>().errors);
  const importLines = (text: string) =>
    app.inject({ method: 'POST', url: '/api/conversions/import', headers: bearer(token), payload: { text } });

  describe('1. unknown statuses', () => {
    it.each(['cancelled', 'fraud', 'reversed', 'nonsense'])(
      'refuses the status %s with 400 on the field, stores nothing and logs it',
      async (status) => {
        const clickId = await click();
        const response = await postback(`clickid=${clickId}&payout=10&status=${status}&txid=U`);
        expect(response.statusCode, response.body).toBe(400);
        expect(errorFields(response)).toEqual(['status']);
        expect(await conversionsOf(clickId)).toEqual([]);
        const log = await logOf(clickId);
        expect(log.map((row) => row.outcome)).toEqual(['unknown_status']);
        expect(log[0]!.reason).toContain(status);
      },
    );

    it('keeps a lead pending when an unknown status follows it', async () => {
      const clickId = await click();
      expect((await postback(`clickid=${clickId}&payout=10&status=lead&txid=L`)).statusCode).toBe(200);
      expect((await postback(`clickid=${clickId}&payout=10&status=cancelled&txid=L`)).statusCode).toBe(400);
      const rows = await conversionsOf(clickId);
      expect(rows.map((row) => [row.state, row.status])).toEqual([['pending', 'lead']]);
    });

    it('makes an unknown status pending where the postback event says so, never approved', async () => {
      const clickId = await click(lenientCampaign);
      const response = await postback(`clickid=${clickId}&payout=10&status=weird&txid=W`);
      expect(response.statusCode, response.body).toBe(200);
      expect((await conversionsOf(clickId)).map((row) => [row.state, row.status])).toEqual([['pending', 'weird']]);
      // Listed statuses still move it.
      expect((await postback(`clickid=${clickId}&payout=10&status=sale&txid=W`)).statusCode).toBe(200);
      expect((await conversionsOf(clickId)).map((row) => row.state)).toEqual(['approved']);
    });

    it('stores the setting, refuse by default, and refuses a value it does not know on the field', async () => {
      const plain = await createRecord(app, token, 'postback-events', { name: 'Plain' });
      expect(plain.unknown_statuses).toBe('refuse');
      const refused = await app.inject({
        method: 'POST',
        url: '/api/postback-events',
        headers: bearer(token),
        payload: { name: 'Odd', event_id: 1, unknown_statuses: 'approve' },
      });
      expect(refused.statusCode).toBe(400);
      expect(errorFields(refused)).toEqual(['unknown_statuses']);
    });

    it('refuses an imported line with an unknown status', async () => {
      const clickId = await click();
      const response = await importLines(`${clickId},chargedback,5,I1,`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<{ lines: { outcome: string; status: number }[] }>().lines).toMatchObject([
        { outcome: 'unknown_status', status: 400 },
      ]);
      expect(await conversionsOf(clickId)).toEqual([]);
    });
  });

  describe('2. amounts', () => {
    it.each(['1,000', '1.000', '12.500', '1,000.50', '1.000,50', '1 000', '1e3'])(
      'refuses a payout of %s, which is not a plain decimal that reads one way',
      async (payout) => {
        const clickId = await click();
        const response = await postback(`clickid=${clickId}&payout=${encodeURIComponent(payout)}`);
        expect(response.statusCode, response.body).toBe(400);
        expect(errorFields(response)).toEqual(['payout']);
        expect(await conversionsOf(clickId)).toEqual([]);
        expect((await logOf(clickId)).map((row) => row.outcome)).toEqual(['invalid_payout']);
      },
    );

    it.each([
      ['revenue', '1000', 1000],
      ['sum', '2,5', 2.5],
      ['payout', '0.125', 0.125],
      ['payout', '1234.567', 1234.567],
    ])('reads %s=%s as %s', async (name, text, amount) => {
      const clickId = await click();
      const response = await postback(`clickid=${clickId}&${name}=${encodeURIComponent(text)}`);
      expect(response.statusCode, response.body).toBe(200);
      expect((await conversionsOf(clickId))[0]!.payout).toBeCloseTo(amount, 6);
    });

    it('reads an imported payout by the same rule', async () => {
      const [a, b] = [await click(), await click()];
      const response = await importLines(`${a}\tsale\t1.000\tA\n${b}\tsale\t1000\tB`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<{ lines: { outcome: string }[] }>().lines.map((line) => line.outcome)).toEqual([
        'invalid_payout',
        'converted',
      ]);
      expect(await conversionsOf(a)).toEqual([]);
      expect((await conversionsOf(b))[0]!.payout).toBe(1000);
    });

    it("reads a click's Auto cost by the same rule: 1,000 is flagged, not taken as 1", async () => {
      const ambiguous = await click(autoCampaign, '?cost=1%2C000');
      const plain = await click(autoCampaign, '?cost=0%2C25');
      await app.engine.flush();
      const rows = await app.store.db
        .selectFrom('tracker_clicks')
        .select(['click_id', 'cost', 'cost_flag'])
        .where('click_id', 'in', [ambiguous, plain])
        .execute();
      const byId = new Map(rows.map((row) => [row.click_id, [Number(row.cost), row.cost_flag]]));
      expect(byId.get(ambiguous)).toEqual([0, 'invalid']);
      expect(byId.get(plain)).toEqual([0.25, null]);
    });
  });

  describe('3. the payout limit', () => {
    it('holds on the amount as stored, after conversion to the workspace currency', async () => {
      const clickId = await click();
      const response = await postback(`clickid=${clickId}&payout=1000000&currency=EUR&txid=E1`);
      expect(response.statusCode, response.body).toBe(400);
      expect(errorFields(response)).toEqual(['payout']);
      expect(await conversionsOf(clickId)).toEqual([]);
      expect((await logOf(clickId)).map((row) => row.outcome)).toEqual(['invalid_payout']);
      // Below the limit once converted: taken.
      expect((await postback(`clickid=${clickId}&payout=800000&currency=EUR&txid=E2`)).statusCode).toBe(200);
      const [stored] = await conversionsOf(clickId);
      expect(stored!.payout).toBeLessThanOrEqual(1_000_000);
    });
  });

  describe('4. HEAD requests', () => {
    const clickCount = async () => {
      await app.engine.flush();
      const row = await app.store.db
        .selectFrom('tracker_clicks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };

    it('answers HEAD to a campaign URL as GET would, recording nothing and taking no cap', async () => {
      const before = await clickCount();
      for (let index = 0; index < 3; index += 1) {
        const head = await app.inject({
          method: 'HEAD',
          url: `/c/${cappedCampaign.external_id}`,
          remoteAddress: DE_IP,
        });
        expect(head.statusCode).toBe(302);
        expect(new URL(String(head.headers.location)).host).toBe('capped.example');
        expect(head.body).toBe('');
      }
      expect(await clickCount()).toBe(before);
      // The cap of 1 is still whole: the first GET gets the offer, the second its backup.
      const hosts = [];
      for (let index = 0; index < 2; index += 1) {
        const get = await app.inject({ method: 'GET', url: `/c/${cappedCampaign.external_id}`, remoteAddress: DE_IP });
        hosts.push(new URL(String(get.headers.location)).host);
      }
      expect(hosts).toEqual(['capped.example', 'backup.example']);
      expect(await clickCount()).toBe(before + 2);
      // The lander's offer link answers HEAD as GET too, from the stored click, and stores nothing.
      const clickId = await click(cappedCampaign);
      const offerLink = await app.inject({
        method: 'HEAD',
        url: `/c/${cappedCampaign.external_id}/offer?clickid=${clickId}`,
        remoteAddress: DE_IP,
      });
      expect(offerLink.statusCode).toBe(302);
      expect(new URL(String(offerLink.headers.location)).host).toBe('backup.example');
      expect(await clickCount()).toBe(before + 3);
      const unknown = await app.inject({ method: 'HEAD', url: '/c/no-such-campaign', remoteAddress: DE_IP });
      expect(unknown.statusCode).toBe(404);
    });

    it('records nothing for HEAD over HTTP, where GET clicks are answered ahead of Fastify', async () => {
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const before = await clickCount();
        const head = await fetch(`${base}/c/${campaign.external_id}`, { method: 'HEAD', redirect: 'manual' });
        expect(head.status).toBe(302);
        expect(new URL(String(head.headers.get('location'))).host).toBe('offer.example');
        expect(await clickCount()).toBe(before);
        const get = await fetch(`${base}/c/${campaign.external_id}`, { redirect: 'manual' });
        expect(get.status).toBe(302);
        expect(await clickCount()).toBe(before + 1);
      } finally {
        await app.server.close();
      }
    });

    it('counts nothing for HEAD to a postback URL: no conversion, no log line', async () => {
      const clickId = await click();
      for (const url of [
        `/${key}/postback?clickid=${clickId}&payout=5`,
        `/${key}/click.php?cnv_id=${clickId}&payout=5`,
        `/postback?clickid=${clickId}&payout=5`,
      ]) {
        const head = await app.inject({ method: 'HEAD', url, remoteAddress: NETWORK_IP });
        expect(head.statusCode, url).toBe(200);
      }
      expect(await conversionsOf(clickId)).toEqual([]);
      expect(await logOf(clickId)).toEqual([]);
      expect((await postback(`clickid=${clickId}&payout=5`)).statusCode).toBe(200);
      expect(await conversionsOf(clickId)).toHaveLength(1);
    });
  });

  describe('5. long texts', () => {
    it('stores two txids that differ after character 255 as two conversions, whole', async () => {
      const clickId = await click();
      const common = 't'.repeat(300);
      for (const txid of [`${common}A`, `${common}B`]) {
        const response = await postback(`clickid=${clickId}&payout=1&txid=${txid}`);
        expect(response.statusCode, response.body).toBe(200);
      }
      expect((await conversionsOf(clickId)).map((row) => row.txid)).toEqual([`${common}A`, `${common}B`]);
    });

    it('takes a txid of 500 characters and refuses one of 501 with 400 on the field, logged', async () => {
      const clickId = await click();
      // 1,500 bytes of UTF-8, the most 500 characters can be: PostgreSQL's unique index still takes them.
      const widest = encodeURIComponent('中'.repeat(500));
      expect((await postback(`clickid=${clickId}&payout=1&txid=${widest}`)).statusCode).toBe(200);
      const response = await postback(`clickid=${clickId}&payout=1&txid=${'x'.repeat(501)}`);
      expect(response.statusCode, response.body).toBe(400);
      expect(errorFields(response)).toEqual(['txid']);
      expect((await conversionsOf(clickId)).map((row) => row.txid)).toEqual(['中'.repeat(500)]);
      expect((await logOf(clickId)).map((row) => row.outcome)).toEqual(['converted', 'too_long']);
    });

    it('refuses any other value, name or parameter count past its limit rather than cutting it', async () => {
      const clickId = await click();
      const cases = [
        [`status=${'s'.repeat(501)}`, 'status'],
        [`note=${'n'.repeat(501)}`, 'note'],
        [`${'k'.repeat(65)}=1`, 'k'.repeat(64)],
        [Array.from({ length: 50 }, (_, index) => `p${index}=1`).join('&'), 'p48'],
      ] as const;
      for (const [extra, field] of cases) {
        const response = await postback(`clickid=${clickId}&payout=1&${extra}`);
        expect(response.statusCode, extra.slice(0, 20)).toBe(400);
        expect(errorFields(response)).toEqual([field]);
      }
      expect(await conversionsOf(clickId)).toEqual([]);
    });

    it('refuses an imported txid past the limit', async () => {
      const clickId = await click();
      const response = await importLines(`${clickId},sale,1,${'x'.repeat(501)},`);
      expect(response.json<{ lines: { outcome: string; status: number }[] }>().lines).toMatchObject([
        { outcome: 'too_long', status: 400 },
      ]);
      expect(await conversionsOf(clickId)).toEqual([]);
    });

    it('refuses a click whose var, user agent or referrer is past its limit, and keeps a long one whole', async () => {
      const long = 'v'.repeat(1024);
      const clickId = await click(campaign, `?var1=${long}`);
      await app.engine.flush();
      const row = await app.store.db
        .selectFrom('tracker_clicks')
        .select(['var1'])
        .where('click_id', '=', clickId)
        .executeTakeFirstOrThrow();
      expect(row.var1).toBe(long);
      for (const [query, headers, field] of [
        [`?var1=${long}v`, {}, 'var1'],
        ['', { 'user-agent': 'u'.repeat(2049) }, 'user-agent'],
        ['', { referer: `https://ref.example/${'r'.repeat(2048)}` }, 'referer'],
      ] as const) {
        const response = await app.inject({
          method: 'GET',
          url: `/c/${campaign.external_id}${query}`,
          headers,
          remoteAddress: DE_IP,
        });
        expect(response.statusCode, field).toBe(400);
        expect(errorFields(response)).toEqual([field]);
      }
    });
  });
});
