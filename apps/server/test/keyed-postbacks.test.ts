import type { ReportFigures } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRUNE_STEP } from '../src/store/traffic/engine-store.js';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { postbackKey } from './fixtures/postbacks.js';
import { DE_IP } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createUserWithPermissions, forEachDatabase, login } from './harness.js';

// Postbacks only with the workspace's key (and from a network's listed addresses),
// every alias family and both paths, a sane payout in a known currency, conversion states that later
// postbacks move, rebills, duplicates, imports, the log's pruning. On SQLite and PostgreSQL.

const NETWORK_IP = '198.51.100.7';
const NETWORK_IP6 = '2001:db8::15';
const STRANGER_IP = '203.0.113.9';

forEachDatabase('keyed postbacks', (db) => {
  let app: FastifyInstance;
  let token: string;
  let key: string;
  let campaign: StoredRecord;
  let listedCampaign: StoredRecord;
  let network: StoredRecord;
  let clickCount = 0;

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    key = await postbackKey(app);
    const sale = await createRecord(app, token, 'postback-events', { name: 'Sale' });
    network = await createRecord(app, token, 'affiliate-networks', {
      postback_ips: ['198.51.100.0/24', '2001:db8::/32'],
    });
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    const listedOffer = await createRecord(app, token, 'tracker-offers', {
      url: 'https://listed.example/?c={clickid}',
      affiliate_network_external_id: network.external_id,
      currency: 'EUR',
    });
    const flowOf = async (offerId: unknown) =>
      (
        await createRecord(app, token, 'tracker-flows', {
          path_groups: [
            { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offerId }] }] },
          ],
        })
      ).external_id;
    const events = [{ postback_event_external_id: sale.external_id, is_conversion: true }];
    campaign = await createRecord(app, token, 'tracker-campaigns', {
      flow_external_id: await flowOf(offer.external_id),
      postback_events: events,
      cost_model: 'CPC',
      cost: 0.5,
    });
    listedCampaign = await createRecord(app, token, 'tracker-campaigns', {
      flow_external_id: await flowOf(listedOffer.external_id),
      postback_events: events,
    });
  });

  async function click(on: StoredRecord = campaign): Promise<string> {
    clickCount += 1;
    const response = await app.inject({ method: 'GET', url: `/c/${on.external_id}`, remoteAddress: DE_IP });
    expect(response.statusCode, response.body).toBe(302);
    return new URL(String(response.headers.location)).searchParams.get('c')!;
  }

  const send = (path: string, remoteAddress = NETWORK_IP) => app.inject({ method: 'GET', url: path, remoteAddress });
  const postback = (query: string, remoteAddress = NETWORK_IP) => send(`/${key}/postback?${query}`, remoteAddress);

  const conversionsOf = (clickId: string) =>
    app.store.db.selectFrom('conversions').selectAll().where('click_id', '=', clickId).orderBy('id').execute();
  const logOf = (clickId: string) =>
    app.store.db.selectFrom('postback_log').selectAll().where('click_id', '=', clickId).orderBy('id').execute();

  async function figures(campaignId: string) {
    const response = await app.inject({
      method: 'GET',
      url: '/api/reports?group_by=campaign&limit=0',
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    const row = response
      .json<{ list: { campaign: string; [name: string]: unknown }[] }>()
      .list.find((one) => one.campaign === campaignId);
    expect(row).toBeDefined();
    return row as unknown as ReportFigures;
  }

  describe('who may send a postback', () => {
    it('gives every workspace a key of 22 or more URL-safe characters, shown on its networks', async () => {
      expect(key).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      const response = await app.inject({
        method: 'GET',
        url: `/api/affiliate-networks/${network.external_id}`,
        headers: { ...bearer(token), host: 'track.example:3000' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json<{ postback_url: string }>().postback_url).toBe(`http://track.example:3000/${key}/postback`);
      const list = await app.inject({ method: 'GET', url: '/api/affiliate-networks', headers: bearer(token) });
      for (const record of list.json<{ list: { postback_url: string }[] }>().list) {
        expect(new URL(record.postback_url).pathname).toBe(`/${key}/postback`);
      }
    });

    it('refuses postbacks without a key or with a wrong one with 403, counts nothing and logs why', async () => {
      const clickId = await click();
      for (const path of [
        `/postback?clickid=${clickId}&payout=5`,
        `/click.php?cnv_id=${clickId}&payout=5`,
        `/${'x'.repeat(24)}/postback?clickid=${clickId}&payout=5`,
        `/${key.slice(1)}/click.php?cnv_id=${clickId}&payout=5`,
        `/short/postback?clickid=${clickId}&payout=5`,
      ]) {
        const response = await send(path);
        expect(response.statusCode, path).toBe(403);
      }
      expect(await conversionsOf(clickId)).toEqual([]);
      const log = await logOf(clickId);
      expect(log.map((row) => row.outcome)).toEqual(Array(5).fill('refused_key'));
      expect(log[0]!.reason).toMatch(/no key/);
      // A key of any shape that is not the workspace's is a wrong key, never "no key".
      for (const row of log.slice(2)) expect(row.reason).toMatch(/^Wrong postback key/);
    });

    it('logs refusals from one address at most 20 times a minute, so they cannot fill the disk', async () => {
      const flood = '192.0.2.77';
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, index) => send(`/postback?clickid=flood-${index}`, flood)),
      );
      expect(answers.every((answer) => answer.statusCode === 403)).toBe(true);
      const rows = await app.store.db.selectFrom('postback_log').select('id').where('ip', '=', flood).execute();
      expect(rows).toHaveLength(20);
    });

    it("holds a network's postbacks to its address list, v4 and v6", async () => {
      const clickId = await click(listedCampaign);
      const refused = await postback(`clickid=${clickId}&payout=1&txid=a`, STRANGER_IP);
      expect(refused.statusCode).toBe(403);
      expect((await logOf(clickId)).map((row) => [row.outcome, row.ip])).toEqual([['refused_address', STRANGER_IP]]);
      expect((await postback(`clickid=${clickId}&payout=1&txid=a`, NETWORK_IP)).statusCode).toBe(200);
      expect((await postback(`clickid=${clickId}&payout=1&txid=b`, NETWORK_IP6)).statusCode).toBe(200);
      expect(await conversionsOf(clickId)).toHaveLength(2);
      // Offers of no listed network take postbacks from anywhere the key is known.
      expect((await postback(`clickid=${await click()}&payout=1`, STRANGER_IP)).statusCode).toBe(200);
    });

    it('refuses a network address list entry that is not an IP or CIDR, on the field', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/affiliate-networks',
        headers: bearer(token),
        payload: { name: 'Bad list', postback_ips: ['10.0.0.0/8', 'not-an-ip'] },
      });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json<{ errors: Record<string, string[]> }>().errors)).toEqual(['postback_ips.1']);
    });

    it('rotates the key for administrators only: the old key is refused from then on', async () => {
      const clerk = await createUserWithPermissions(app, token, ['/general/workspace/get']);
      const workspaces = await app.inject({ method: 'GET', url: '/api/workspaces', headers: bearer(token) });
      const [workspace] = workspaces.json<{ list: { id: number; postback_key: string; currency: string }[] }>().list;
      expect(workspace).toMatchObject({ postback_key: key, currency: 'USD' });
      const denied = await app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspace!.id}/postback-key`,
        headers: bearer(clerk.token),
      });
      expect(denied.statusCode).toBe(403);
      const rotated = await app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspace!.id}/postback-key`,
        headers: bearer(token),
      });
      expect(rotated.statusCode).toBe(200);
      const fresh = rotated.json<{ postback_key: string }>().postback_key;
      expect(fresh).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      expect(fresh).not.toBe(key);
      const clickId = await click();
      expect((await postback(`clickid=${clickId}&txid=old`)).statusCode).toBe(403);
      const old = key;
      key = fresh;
      expect((await postback(`clickid=${clickId}&txid=new`)).statusCode).toBe(200);
      expect((await send(`/${old}/postback?clickid=${clickId}&txid=again`)).statusCode).toBe(403);
    });
  });

  describe('the networks’ own formats', () => {
    it.each([
      ['Keitaro', (id: string) => `postback?subid=${id}&status=sale&payout=3.5&tid=k1`],
      ['Binom', (id: string) => `click.php?cnv_id=${id}&payout=3.5&cnv_status=approved`],
      ['Voluum', (id: string) => `postback?cid=${id}&payout=3.5&txid=v1&et=sale`],
      ['RedTrack', (id: string) => `postback?clickid=${id}&sum=3.5&type=confirmed`],
      ['click_id and transaction_id', (id: string) => `postback?click_id=${id}&revenue=3.5&transaction_id=x`],
    ])('%s: the URL a network already calls is taken as it is', async (_name, path) => {
      const clickId = await click();
      const response = await send(`/${key}/${path(clickId)}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body).toBe('OK');
      const [conversion, ...more] = await conversionsOf(clickId);
      expect(more).toEqual([]);
      expect(conversion).toMatchObject({ payout: 3.5, state: 'approved', is_conversion: 1 });
    });

    it('takes POST with a form or JSON body at /{key}/postback, and lead_id for API leads', async () => {
      const clickId = await click();
      const form = await app.inject({
        method: 'POST',
        url: `/${key}/postback`,
        payload: `clickid=${clickId}&payout=2&status=lead&txid=f`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        remoteAddress: NETWORK_IP,
      });
      expect(form.statusCode, form.body).toBe(200);
      const json = await app.inject({
        method: 'POST',
        url: `/${key}/postback`,
        payload: { clickid: clickId, payout: 2, status: 'sale', txid: 'f' },
        remoteAddress: NETWORK_IP,
      });
      expect(json.statusCode, json.body).toBe(200);
      expect((await conversionsOf(clickId)).map((row) => row.state)).toEqual(['approved']);
    });

    it("reads Keitaro's in-URL status mapping", async () => {
      const clickId = await click();
      await postback(`subid=${clickId}&status=ok&sale_status=ok,paid&tid=m1`);
      await postback(`subid=${clickId}&status=wait&lead_status=wait&tid=m2`);
      await postback(`subid=${clickId}&status=sale&rejected_status=sale&tid=m3`);
      expect((await conversionsOf(clickId)).map((row) => [row.txid, row.state])).toEqual([
        ['m1', 'approved'],
        ['m2', 'pending'],
        ['m3', 'rejected'],
      ]);
    });
  });

  describe('conversion states', () => {
    it('moves pending → approved → rejected, keeps the history, and reports each state', async () => {
      const clickId = await click();
      const before = await figures(String(campaign.external_id));

      expect((await postback(`clickid=${clickId}&status=lead&payout=10&txid=T1`)).statusCode).toBe(200);
      const [pending] = await conversionsOf(clickId);
      expect(pending).toMatchObject({ state: 'pending', payout: 10 });
      let now = await figures(String(campaign.external_id));
      expect(now.pending - before.pending).toBe(1);
      expect(now.conversions - before.conversions).toBe(1);
      expect(now.revenue - before.revenue).toBeCloseTo(10);
      expect(now.revenue_confirmed - before.revenue_confirmed).toBeCloseTo(0);

      expect((await postback(`clickid=${clickId}&status=sale&payout=12&txid=T1`)).statusCode).toBe(200);
      now = await figures(String(campaign.external_id));
      expect(now.pending - before.pending).toBe(0);
      expect(now.approved - before.approved).toBe(1);
      expect(now.conversions - before.conversions).toBe(1);
      expect(now.revenue - before.revenue).toBeCloseTo(12);
      expect(now.revenue_confirmed - before.revenue_confirmed).toBeCloseTo(12);

      expect((await postback(`clickid=${clickId}&status=chargeback&txid=T1`)).statusCode).toBe(200);
      now = await figures(String(campaign.external_id));
      expect(now.approved - before.approved).toBe(0);
      expect(now.rejected - before.rejected).toBe(1);
      expect(now.conversions - before.conversions).toBe(0);
      expect(now.revenue - before.revenue).toBeCloseTo(0);
      expect(now.revenue_confirmed - before.revenue_confirmed).toBeCloseTo(0);
      expect(now.roi_confirmed).toBeCloseTo(((now.revenue_confirmed - now.cost) / now.cost) * 100, 4);

      // A rejected conversion stays rejected.
      expect((await postback(`clickid=${clickId}&status=approved&txid=T1`)).statusCode).toBe(200);
      const [conversion, ...more] = await conversionsOf(clickId);
      expect(more).toEqual([]);
      expect(conversion).toMatchObject({ state: 'rejected', payout: 12 });
      const history = (await logOf(clickId)).map((row) => [row.outcome, row.previous_state, row.state]);
      expect(history).toEqual([
        ['converted', null, 'pending'],
        ['status_changed', 'pending', 'approved'],
        ['status_changed', 'approved', 'rejected'],
        ['unchanged', null, 'rejected'],
      ]);
      const log = await app.inject({
        method: 'GET',
        url: `/api/postback-log?search=${conversion!.conversion_id}`,
        headers: bearer(token),
      });
      expect(log.json<{ total: number }>().total).toBe(4);
    });

    it('counts a new txid on an approved conversion as a rebill, and a repeat as a duplicate', async () => {
      const clickId = await click();
      await postback(`clickid=${clickId}&status=sale&payout=5&txid=R1`);
      await postback(`clickid=${clickId}&status=sale&payout=5&txid=R1`);
      await postback(`clickid=${clickId}&status=sale&payout=7&txid=R2`);
      const rows = await conversionsOf(clickId);
      expect(rows.map((row) => [row.txid, row.state, row.payout])).toEqual([
        ['R1', 'approved', 5],
        ['R2', 'approved', 7],
      ]);
      expect((await logOf(clickId)).map((row) => row.outcome)).toEqual(['converted', 'duplicate', 'converted']);
    });

    it('counts repeated postbacks without a txid once', async () => {
      const clickId = await click();
      for (let index = 0; index < 5; index += 1) {
        const response = await postback(`clickid=${clickId}&payout=2`);
        expect(response.body).toBe('OK');
      }
      expect(await conversionsOf(clickId)).toHaveLength(1);
    });

    it('makes one conversion of 50 parallel identical postbacks', async () => {
      const clickId = await click();
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => postback(`clickid=${clickId}&payout=3&status=sale&txid=P`)),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(50).fill(200));
      expect(await conversionsOf(clickId)).toHaveLength(1);
      const outcomes = (await logOf(clickId)).map((row) => row.outcome);
      expect(outcomes.filter((outcome) => outcome === 'converted')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(49);
    });

    it('ends 50 parallel status changes of one conversion in one consistent state', async () => {
      const clickId = await click();
      await postback(`clickid=${clickId}&payout=3&status=lead&txid=S`);
      const statuses = Array.from({ length: 50 }, (_, index) => (index % 2 ? 'approved' : 'rejected'));
      const answers = await Promise.all(
        statuses.map((status) => postback(`clickid=${clickId}&payout=3&status=${status}&txid=S`)),
      );
      expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
      const [conversion, ...more] = await conversionsOf(clickId);
      expect(more).toEqual([]);
      // Rejected is the only state no move leaves, and at least one rejection came.
      expect(conversion!.state).toBe('rejected');
      const moves = (await logOf(clickId)).filter((row) => row.outcome === 'status_changed');
      // Each move starts where the one before it ended.
      let state = 'pending';
      for (const move of moves) {
        expect(move.previous_state).toBe(state);
        state = move.state!;
      }
      expect(state).toBe('rejected');
      expect(moves.length).toBeGreaterThanOrEqual(1);
      expect(moves.length).toBeLessThanOrEqual(2);
    });

    it("maps statuses by the event's own mapping, which operators change", async () => {
      const custom = await createRecord(app, token, 'postback-events', {
        name: 'Deposit',
        status_map: { pending: ['wait'], approved: ['paid'], rejected: ['void'] },
      });
      const clickId = await click();
      await postback(`clickid=${clickId}&event=Deposit&status=wait&payout=9&txid=D`);
      await postback(`clickid=${clickId}&event=${custom.external_id}&status=paid&txid=D`);
      const [conversion] = await conversionsOf(clickId);
      expect(conversion).toMatchObject({ state: 'approved', postback_event_external_id: custom.external_id });
      const refused = await app.inject({
        method: 'POST',
        url: '/api/postback-events',
        headers: bearer(token),
        payload: { name: 'Twice', event_id: 1, status_map: { pending: ['x'], approved: ['X'], rejected: [] } },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ errors: Record<string, string[]> }>().errors['status_map.approved']).toBeDefined();
    });
  });

  describe('payout and currency', () => {
    it.each(['-500', '1e308', '1000000.01', 'abc', 'Infinity', 'NaN'])(
      'refuses a payout of %s with 400, counts nothing and logs it',
      async (payout) => {
        const clickId = await click();
        const response = await postback(`clickid=${clickId}&payout=${encodeURIComponent(payout)}`);
        expect(response.statusCode).toBe(400);
        expect(Object.keys(response.json<{ errors: Record<string, string[]> }>().errors)).toEqual(['payout']);
        expect(await conversionsOf(clickId)).toEqual([]);
        expect((await logOf(clickId)).map((row) => row.outcome)).toEqual(['invalid_payout']);
      },
    );

    it('takes a payout of 1,000,000 and of 0', async () => {
      const clickId = await click();
      expect((await postback(`clickid=${clickId}&payout=1000000&txid=max`)).statusCode).toBe(200);
      expect((await postback(`clickid=${clickId}&payout=0&txid=zero`)).statusCode).toBe(200);
      expect((await conversionsOf(clickId)).map((row) => row.payout)).toEqual([1_000_000, 0]);
    });

    it("converts to the workspace's currency and keeps the amount as sent", async () => {
      const clickId = await click();
      await postback(`clickid=${clickId}&payout=10&currency=eur&txid=C1`);
      await postback(`clickid=${clickId}&payout=10&cnv_currency=USD&txid=C2`);
      const [eur, usd] = await conversionsOf(clickId);
      expect(eur).toMatchObject({ revenue: 10, original_currency: 'EUR', currency: 'USD' });
      expect(eur!.payout).toBeCloseTo(10 / 0.8532, 4);
      expect(usd).toMatchObject({ payout: 10, currency: 'USD', original_currency: 'USD' });
      // The offer's currency when the network names none.
      const listedClick = await click(listedCampaign);
      await postback(`clickid=${listedClick}&payout=10`);
      expect((await conversionsOf(listedClick))[0]!.payout).toBeCloseTo(10 / 0.8532, 4);
    });

    it('reads a macro the network left unfilled as a parameter it did not send', async () => {
      const clickId = await click();
      const response = await postback(
        `clickid=${clickId}&payout=4&currency={currency}&status=%25status%25&txid=[txid]`,
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(await conversionsOf(clickId)).toMatchObject([
        { payout: 4, state: 'approved', txid: null, currency: 'USD' },
      ]);
    });

    it('refuses an unknown currency with 400 and logs it', async () => {
      const clickId = await click();
      const response = await postback(`clickid=${clickId}&payout=10&currency=XYZ`);
      expect(response.statusCode).toBe(400);
      expect(await conversionsOf(clickId)).toEqual([]);
      expect((await logOf(clickId)).map((row) => [row.outcome, row.reason])).toEqual([
        ['unknown_currency', 'The currency XYZ has no rate.'],
      ]);
    });

    it('uses the rates administrators edit, and refuses bad ones on the field', async () => {
      const rates = await app.inject({ method: 'GET', url: '/api/currency-rates', headers: bearer(token) });
      expect(rates.statusCode).toBe(200);
      const body = rates.json<{ snapshot_date: string; list: { code: string; rate: number; source: string }[] }>();
      expect(body.snapshot_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(body.list.find((rate) => rate.code === 'EUR')).toMatchObject({ rate: 0.8532, source: 'snapshot' });
      const bad = await app.inject({
        method: 'PUT',
        url: '/api/currency-rates',
        headers: bearer(token),
        payload: {
          rates: [
            { code: 'GBP', rate: 0.5 },
            { code: 'EUR', rate: -1 },
          ],
        },
      });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json<{ errors: Record<string, string[]> }>().errors)).toEqual(['rates.1.rate']);
      const notMoney = await app.inject({
        method: 'PUT',
        url: '/api/currency-rates',
        headers: bearer(token),
        payload: {
          rates: [
            { code: 'XXX', rate: 2 },
            { code: 'QQQ', rate: 2 },
          ],
        },
      });
      expect(Object.keys(notMoney.json<{ errors: Record<string, string[]> }>().errors)).toEqual([
        'rates.0.code',
        'rates.1.code',
      ]);
      const saved = await app.inject({
        method: 'PUT',
        url: '/api/currency-rates',
        headers: bearer(token),
        payload: { rates: [{ code: 'GBP', rate: 0.5 }] },
      });
      expect(saved.statusCode).toBe(200);
      const clickId = await click();
      await postback(`clickid=${clickId}&payout=10&currency=GBP`);
      expect((await conversionsOf(clickId))[0]!.payout).toBeCloseTo(20, 6);
    });
  });

  describe('import', () => {
    it('takes lines through the same code as postbacks and answers each', async () => {
      const [a, b] = [await click(), await click()];
      const text = [
        'clickid,status,payout,txid,currency',
        `${a},lead,4,I1,`,
        `${a},sale,4,I1,`,
        `${b},approved,5,,EUR`,
        'nobody,sale,1,,',
        `${b},sale,-3,,`,
        '',
      ].join('\n');
      const response = await app.inject({
        method: 'POST',
        url: '/api/conversions/import',
        headers: bearer(token),
        payload: { text },
      });
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json<{ lines: { line: number; outcome: string; status: number }[]; counted: number }>();
      expect(answer.lines.map((line) => [line.line, line.outcome, line.status])).toEqual([
        [2, 'converted', 200],
        [3, 'status_changed', 200],
        [4, 'converted', 200],
        [5, 'unknown_click', 404],
        [6, 'invalid_payout', 400],
      ]);
      expect(answer.counted).toBe(3);
      expect((await conversionsOf(a))[0]).toMatchObject({ state: 'approved', payout: 4 });
      expect((await conversionsOf(b))[0]!.payout).toBeCloseTo(5 / 0.8532, 4);
    });

    it('is refused without the permission, and an empty import on the field', async () => {
      const clerk = await createUserWithPermissions(app, token, ['/tracker/reports/get']);
      const denied = await app.inject({
        method: 'POST',
        url: '/api/conversions/import',
        headers: bearer(clerk.token),
        payload: { text: 'x,sale,1,,' },
      });
      expect(denied.statusCode).toBe(403);
      const csv = await app.inject({
        method: 'POST',
        url: '/api/conversions/import',
        headers: { ...bearer(token), 'content-type': 'text/csv' },
        payload: `${await click()},sale,2,,\n`,
      });
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.json<{ counted: number }>().counted).toBe(1);
      const listed = await app.inject({
        method: 'POST',
        url: '/api/conversions/import',
        headers: bearer(token),
        payload: { lines: [`${await click()},lead,2,,`] },
      });
      expect(listed.json<{ lines: { state: string }[] }>().lines.map((line) => line.state)).toEqual(['pending']);
      const empty = await app.inject({
        method: 'POST',
        url: '/api/conversions/import',
        headers: bearer(token),
        payload: { text: '\n\n' },
      });
      expect(empty.statusCode).toBe(400);
      expect(Object.keys(empty.json<{ errors: Record<string, string[]> }>().errors)).toEqual(['text']);
    });
  });

  /** A postback log row of an unknown click, at `at`. */
  const logRow = (at: string, clickId: string) => ({
    created_at: at,
    outcome: 'unknown_click',
    click_id: clickId,
    txid: null,
    conversion_id: null,
    ip: null,
    raw: '{}',
  });

  it('prunes a backlog of the postback log a step at a time, and keeps what is recent', async () => {
    const old = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000).toISOString();
    const recent = new Date(Date.now() - 1 * 24 * 60 * 60 * 1000).toISOString();
    // Two and a half steps of old rows.
    const backlog = PRUNE_STEP * 2 + PRUNE_STEP / 2;
    for (let start = 0; start < backlog; start += 500) {
      const rows = Array.from({ length: Math.min(500, backlog - start) }, (_, index) =>
        logRow(old, `backlog-${start + index}`),
      );
      await app.store.db.insertInto('postback_log').values(rows).execute();
    }
    await app.store.db.insertInto('postback_log').values(logRow(recent, 'backlog-recent')).execute();
    expect(await app.engine.prunePostbackLog()).toBeGreaterThanOrEqual(backlog);
    const left = await app.store.db
      .selectFrom('postback_log')
      .select('click_id')
      .where('click_id', 'like', 'backlog-%')
      .execute();
    expect(left.map((one) => one.click_id)).toEqual(['backlog-recent']);
  });

  it('prunes the postback log past the days it keeps', async () => {
    const old = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000).toISOString();
    const recent = new Date(Date.now() - 29 * 24 * 60 * 60 * 1000).toISOString();
    for (const [at, clickId] of [
      [old, 'pruned-old'],
      [recent, 'pruned-recent'],
    ] as const) {
      await app.store.db.insertInto('postback_log').values(logRow(at, clickId)).execute();
    }
    expect(await app.engine.prunePostbackLog()).toBeGreaterThanOrEqual(1);
    expect((await logOf('pruned-old')).length).toBe(0);
    expect((await logOf('pruned-recent')).length).toBe(1);
    void clickCount;
  });
});

describe('postback log days', () => {
  it('reads SWITCHYARD_POSTBACK_LOG_DAYS, 30 unless set', async () => {
    const { loadConfig } = await import('../src/config.js');
    expect(loadConfig({}).postbackLogDays).toBe(30);
    expect(loadConfig({ SWITCHYARD_POSTBACK_LOG_DAYS: '7' }).postbackLogDays).toBe(7);
    expect(() => loadConfig({ SWITCHYARD_POSTBACK_LOG_DAYS: '0' })).toThrow(/SWITCHYARD_POSTBACK_LOG_DAYS/);
  });
});
