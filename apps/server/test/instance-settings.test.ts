import type { FastifyInstance, InjectOptions } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { largestConvertibleAmount } from '../src/api/currency-rates/limits.js';
import { ScopeGuard, workspaceTables } from '../src/store/scope.js';
import { createRecord, type StoredRecord, uniqueName } from './fixtures/config-records.js';
import { DE_IP } from './fixtures/traffic.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  bearer,
  createUserWithPermissions,
  expectError,
  forEachDatabase,
  login,
  type TestUser,
} from './harness.js';

// Currency rates, bot protection and the registration settings are the instance's.
// Two workspaces A and B, and B's administrator (every workspace section, a member of B only): each write
// of an instance setting is theirs to be refused (403) and the instance administrator's to make (200).
// Rate changes are kept in history; rates that are not positive and finite, or that would turn a payout
// into infinity, are refused (400); a postback converted by a rate stored before that check is refused
// rather than stored as Infinity, and reports show numbers whatever the tables hold.

/** Everything a workspace's administrator holds: the three workspace sections, not the root. */
const WORKSPACE_ADMIN = ['/api', '/tracker', '/general'];

type Response = Awaited<ReturnType<FastifyInstance['inject']>>;

forEachDatabase('instance settings', (db) => {
  let app: FastifyInstance;
  let rootToken: string;
  const workspace = { A: 0, B: 0 };
  let adminOfB: TestUser;

  const send = (
    token: string,
    method: InjectOptions['method'],
    url: string,
    payload?: unknown,
    acting?: number,
  ): Promise<Response> =>
    app.inject({
      method,
      url: `/api/${url}`,
      headers: { ...bearer(token), ...(acting ? { 'x-workspace': String(acting) } : {}) },
      ...(payload === undefined
        ? {}
        : typeof payload === 'string'
          ? { payload, headers: { ...bearer(token), 'content-type': 'application/json' } }
          : { payload: payload as InjectOptions['payload'] }),
    });

  const storedRate = async (code: string) =>
    Number(
      (
        await app.store.db
          .selectFrom('currency_rates')
          .select('rate')
          .where('code', '=', code)
          .executeTakeFirstOrThrow()
      ).rate,
    );

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    rootToken = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const listed = await send(rootToken, 'GET', 'workspaces?limit=0');
    workspace.A = Number(listed.json<{ list: { id: number }[] }>().list[0]!.id);
    const made = await send(rootToken, 'POST', 'workspaces', { name: uniqueName('Workspace B') });
    expect(made.statusCode, made.body).toBe(201);
    workspace.B = made.json<{ id: number }>().id;
    adminOfB = await createUserWithPermissions(app, rootToken, WORKSPACE_ADMIN, { workspaces: [workspace.B] });
  });

  /** Each write of an instance setting, with a body the instance administrator may send. */
  const WRITES: { method: InjectOptions['method']; url: string; body?: unknown }[] = [
    { method: 'PUT', url: 'currency-rates', body: { rates: [{ code: 'GBP', rate: 0.75 }] } },
    { method: 'PUT', url: 'bot-protection', body: { datacenter_asns: [{ asn: 64_512, name: 'Test hosting' }] } },
    { method: 'DELETE', url: 'bot-protection' },
    { method: 'PUT', url: 'account-settings', body: { registration_enabled: false, registration_role_id: null } },
  ];

  describe("who may change the instance's settings", () => {
    it.each(WRITES)("refuses $method $url to B's administrator, and lets the instance administrator", async (write) => {
      const refused = await send(adminOfB.token, write.method, write.url, write.body, workspace.B);
      expectError(refused, 403);
      const allowed = await send(rootToken, write.method, write.url, write.body, workspace.A);
      expect(allowed.statusCode, allowed.body).toBe(200);
    });

    it.each(WRITES)(
      '$method $url: an API token acts in its workspace only, so even one with the root permission is refused',
      async (write) => {
        const made = await send(rootToken, 'POST', 'tokens', {
          name: uniqueName('Root token'),
          expires_at: new Date(Date.now() + 86_400_000).toISOString(),
          permissions: ['/'],
        });
        expect(made.statusCode, made.body).toBe(201);
        const { token } = made.json<{ token: string }>();
        expectError(await send(token, write.method, write.url, write.body), 403);
      },
    );

    it('keeps the secret and server-wide settings from a workspace administrator, but not the rates a currency is chosen by', async () => {
      expectError(await send(adminOfB.token, 'GET', 'account-settings', undefined, workspace.B), 403);
      expectError(await send(adminOfB.token, 'GET', 'bot-protection', undefined, workspace.B), 403);
      const rates = await send(adminOfB.token, 'GET', 'currency-rates', undefined, workspace.B);
      expect(rates.statusCode, rates.body).toBe(200);
    });

    it('leaves the rates as they were after a refused change', async () => {
      const before = await storedRate('CHF');
      expectError(
        await send(adminOfB.token, 'PUT', 'currency-rates', { rates: [{ code: 'CHF', rate: before * 2 }] }),
        403,
      );
      expect(await storedRate('CHF')).toBe(before);
    });

    it('lets only an instance administrator make another, who may then change the rates', async () => {
      const tried = await send(
        adminOfB.token,
        'POST',
        'users',
        {
          name: 'Would-be instance admin',
          email: `would-be-${Date.now()}@test.local`,
          password: 'password-long-1',
          permissions: ['/instance'],
          workspaces: [workspace.B],
        },
        workspace.B,
      );
      expect(tried.statusCode, tried.body).toBe(403);
      const granted = await createUserWithPermissions(app, rootToken, ['/instance/settings'], {
        workspaces: [workspace.B],
      });
      const changed = await send(granted.token, 'PUT', 'currency-rates', { rates: [{ code: 'GBP', rate: 0.76 }] });
      expect(changed.statusCode, changed.body).toBe(200);
    });
  });

  describe('rates', () => {
    it('keeps every change in history, as of no workspace', async () => {
      const before = await storedRate('SEK');
      const saved = await send(rootToken, 'PUT', 'currency-rates', { rates: [{ code: 'SEK', rate: 9.5 }] });
      expect(saved.statusCode, saved.body).toBe(200);
      const listed = await send(rootToken, 'GET', 'history?resource=currency-rates&id=SEK');
      expect(listed.statusCode, listed.body).toBe(200);
      const entries = listed.json<{ list: { id: number; action: string; record_id: string }[] }>().list;
      expect(entries.map((entry) => [entry.action, entry.record_id])).toEqual([['update', 'SEK']]);
      const detail = await send(rootToken, 'GET', `history/${entries[0]!.id}`);
      expect(detail.json()).toMatchObject({
        before: { rate: before, source: 'snapshot' },
        after: { rate: 9.5, source: 'admin' },
      });
      const row = await app.store.db
        .selectFrom('history')
        .select('workspace_id')
        .where('id', '=', entries[0]!.id)
        .executeTakeFirstOrThrow();
      expect(row.workspace_id).toBeNull();
    });

    it.each([
      ['1e-300', 1e-300],
      ['0', 0],
      ['-1', -1],
      ['Infinity (as text)', 'Infinity'],
      ['Infinity (a JSON number too large)', '{"rates":[{"code":"EUR","rate":1e999}]}'],
      ['abc', 'abc'],
    ])('refuses a rate of %s with 400 on its field, and keeps the rate', async (_name, rate) => {
      const before = await storedRate('EUR');
      const body =
        typeof rate === 'string' && rate.startsWith('{') ? rate : { rates: [{ code: 'EUR', rate: rate as unknown }] };
      const error = expectError(await send(rootToken, 'PUT', 'currency-rates', body), 400);
      expect(Object.keys(error.errors ?? {})).toEqual(['rates.0.rate']);
      expect(await storedRate('EUR')).toBe(before);
    });

    it('refuses a rate that would turn a stored payout into infinity, and takes it once no such payout is stored', async () => {
      // 1e280 converted between CHF at 1e-12 to the dollar and VND at 26,100, with room left for sums,
      // is past the largest double; the largest payout a postback may send is not.
      const offer = await createRecord(app, rootToken, 'tracker-offers', { payout: 1e280 });
      const tooFar = { rates: [{ code: 'CHF', rate: 1e-12 }] };
      const error = expectError(await send(rootToken, 'PUT', 'currency-rates', tooFar), 400);
      expect(error.errors).toEqual({
        'rates.0.rate': ['This rate would turn a payout into an amount too large to keep'],
      });
      const { body } = await app.store.db
        .selectFrom('config_records')
        .select('body')
        .where('external_id', '=', String(offer.external_id))
        .executeTakeFirstOrThrow();
      await app.store.db
        .updateTable('config_records')
        .set({ body: JSON.stringify({ ...JSON.parse(body), payout: 1 }) })
        .where('external_id', '=', String(offer.external_id))
        .execute();
      const taken = await send(rootToken, 'PUT', 'currency-rates', tooFar);
      expect(taken.statusCode, taken.body).toBe(200);
      expect(await storedRate('CHF')).toBe(1e-12);
    });
  });

  it("weighs every workspace's amounts under the instance's scope, which the scoped store accepts", async () => {
    const guarded = app.store.db.withPlugin(
      new ScopeGuard(await workspaceTables(app.store.db as Kysely<unknown>, db.kind)),
    );
    expect(await largestConvertibleAmount(guarded)).toBeGreaterThanOrEqual(1_000_000);
  });

  describe('a rate stored before rates were checked', () => {
    let campaign: StoredRecord;
    /** Its offer pays 40 euros: what a postback without a payout is converted from. */
    let euroCampaign: StoredRecord;
    let key: string;

    beforeAll(async () => {
      // Converted into yen, 40 euros at 1e-300 euros to the dollar is past the largest double.
      const named = await send(rootToken, 'GET', `workspaces/${workspace.A}`, undefined, workspace.A);
      const { name, postback_key } = named.json<{ name: string; postback_key: string }>();
      key = postback_key;
      const moved = await send(rootToken, 'PUT', `workspaces/${workspace.A}`, { name, currency: 'JPY' }, workspace.A);
      expect(moved.statusCode, moved.body).toBe(200);
      const sale = await createRecord(app, rootToken, 'postback-events', { name: uniqueName('Sale') });
      const offer = await createRecord(app, rootToken, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
      const flow = await createRecord(app, rootToken, 'tracker-flows', {
        path_groups: [
          { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
        ],
      });
      const postbackEvents = [{ postback_event_external_id: sale.external_id, is_conversion: true }];
      campaign = await createRecord(app, rootToken, 'tracker-campaigns', {
        flow_external_id: flow.external_id,
        postback_events: postbackEvents,
      });
      const euroOffer = await createRecord(app, rootToken, 'tracker-offers', {
        url: 'https://offer.example/?c={clickid}',
        currency: 'EUR',
        payout: 40,
      });
      const euroFlow = await createRecord(app, rootToken, 'tracker-flows', {
        path_groups: [
          {
            id: 'g',
            name: 'All',
            paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: euroOffer.external_id }] }],
          },
        ],
      });
      euroCampaign = await createRecord(app, rootToken, 'tracker-campaigns', {
        flow_external_id: euroFlow.external_id,
        postback_events: postbackEvents,
      });
      await app.store.db.updateTable('currency_rates').set({ rate: 1e-300 }).where('code', '=', 'EUR').execute();
    });

    async function click(on: StoredRecord = campaign): Promise<string> {
      const response = await app.inject({ method: 'GET', url: `/c/${on.external_id}`, remoteAddress: DE_IP });
      expect(response.statusCode, response.body).toBe(302);
      return new URL(String(response.headers.location)).searchParams.get('c')!;
    }

    async function totals(): Promise<Record<string, unknown>> {
      const response = await send(rootToken, 'GET', 'reports?group_by=campaign&limit=0', undefined, workspace.A);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ totals: Record<string, unknown> }>().totals;
    }

    it.each([
      ['the network sends 40 EUR', false, '&payout=40&currency=EUR'],
      ['the offer pays 40 EUR and the network sends no payout', true, ''],
    ])(
      'refuses the postback when %s with 400 and says why in the postback log, storing no Infinity',
      async (_name, euroOffer, query) => {
        const clickId = await click(euroOffer ? euroCampaign : campaign);
        const response = await app.inject({
          method: 'GET',
          url: `/${key}/postback?clickid=${clickId}${query}`,
          remoteAddress: '198.51.100.7',
        });
        expect(response.statusCode, response.body).toBe(400);
        const conversions = await app.store.db
          .selectFrom('conversions')
          .select('payout')
          .where('click_id', '=', clickId)
          .execute();
        expect(conversions).toEqual([]);
        const log = await app.store.db
          .selectFrom('postback_log')
          .select(['outcome', 'reason'])
          .where('click_id', '=', clickId)
          .execute();
        expect(log).toEqual([{ outcome: 'unconvertible_payout', reason: expect.stringContaining('currency rates') }]);
        for (const value of Object.values(await totals())) expect(value).not.toBeNull();
      },
    );

    it('shows numbers in the reports, never null, whatever amounts the tables hold', async () => {
      const clickId = await click();
      const sent = await app.inject({
        method: 'GET',
        url: `/${key}/postback?clickid=${clickId}&payout=10`,
        remoteAddress: '198.51.100.7',
      });
      expect(sent.statusCode, sent.body).toBe(200);
      // As an older version stored it: an infinite payout.
      const infinity = db.kind === 'postgres' ? sql`'Infinity'::double precision` : sql`9e999`;
      await sql`update conversions set payout = ${infinity} where click_id = ${clickId}`.execute(app.store.db);
      const shown = await totals();
      for (const name of ['revenue', 'revenue_confirmed', 'profit', 'roi', 'epc', 'cost']) {
        expect(typeof shown[name], `${name}: ${JSON.stringify(shown)}`).toBe('number');
      }
    });
  });
});
