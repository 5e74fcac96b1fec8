import { getResource, VALIDATION_MESSAGES as M, type ResourceName } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import { newLinkToken } from '../src/api/accounts/links.js';
import { expectInvalidLink, expectSessionAlive, post, STRONG_PASSWORD } from './accounts-support.js';
import { type Body, createRecord, minimalBody, recordId, type StoredRecord } from './fixtures/config-records.js';
import { GB_IP, IPHONE } from './fixtures/traffic.js';
import {
  bearer,
  createUserWithPermissions,
  expectError,
  forEachDatabase,
  listTotal,
  login,
  useSeededApp,
} from './harness.js';

// Odd requests that once reached the database, a redirect or a reset link.

/** Every resource that takes conditions, and where its condition goes (as in condition-trees.test.ts). */
const CONDITION_PLACES: readonly { resource: ResourceName; field: string; body: (condition: string) => Body }[] = [
  { resource: 'segments', field: 'condition', body: (condition) => ({ condition }) },
  { resource: 'tracker-segments', field: 'condition', body: (condition) => ({ condition }) },
  ...(['flows', 'tracker-flows'] as const).map((resource) => ({
    resource,
    field: 'path_groups.0.condition',
    body: (condition: string) => ({ path_groups: [{ id: 'g1', name: 'Hours', condition, paths: [] }] }),
  })),
  ...(['campaigns', 'tracker-campaigns'] as const).map((resource) => ({
    resource,
    field: 'payout_rule_sets.0.rules.0.condition',
    body: (condition: string) => ({
      payout_rule_sets: [
        { id: 's1', postback_event_external_id: 'anyEvent1', rules: [{ id: 'r1', payout: 1, condition }] },
      ],
    }),
  })),
];

const hours = (Start: string, End: string, Timezone: string) =>
  JSON.stringify({ type: 'BetweenCondition', data: { Var: 'timeOfDay', Values: { Start, End, Timezone } } });

const timeMessage = (value: string) =>
  M.invalidConditionValue.replace('{{field}}', 'timeOfDay').replace('{{value}}', value);

forEachDatabase('odd requests', (db) => {
  const ctx = useSeededApp(db);

  describe('a NUL byte in a path parameter', () => {
    it.each([
      ['GET', '/api/events/clicks/%00/replay'],
      ['GET', '/api/events/leads/%00/replay'],
      ['POST', '/api/tracker/campaigns/%00/costs'],
      ['GET', '/api/tracker/campaigns/a%00b'],
      ['PUT', '/api/users/%00'],
      ['GET', '/api/history/%00'],
      ['POST', '/api/history/%00/restore'],
    ] as const)('%s %s: 404, never a 500', async (method, url) => {
      const response = await ctx.app.inject({
        method,
        url,
        headers: bearer(ctx.adminToken),
        ...(method === 'GET' ? {} : { payload: { amount: 1, date_from: '2026-01-01', date_to: '2026-01-02' } }),
      });
      expectError(response, 404);
    });

    it('still asks for a session first', async () => {
      expectError(await ctx.app.inject({ method: 'GET', url: '/api/events/clicks/%00/replay' }), 401);
    });
  });

  describe.each(CONDITION_PLACES)('$resource checks time rules on $field', (place) => {
    const { apiPath } = getResource(place.resource);

    it.each([
      ['an hour past 23', hours('25:99', '10:00', 'UTC'), '25:99'],
      ['a minute past 59', hours('09:00', '17:60', 'UTC'), '17:60'],
      ['a time zone that does not exist', hours('09:00', '17:00', 'Mars/Olympus'), 'Mars/Olympus'],
    ])('refuses %s, on create and on update', async (_case, condition, bad) => {
      const before = await listTotal(ctx.app, ctx.adminToken, apiPath);
      const base = await minimalBody(ctx.app, ctx.adminToken, place.resource);
      const created = await ctx.app.inject({
        method: 'POST',
        url: `/api/${apiPath}`,
        headers: bearer(ctx.adminToken),
        payload: { ...base, ...place.body(condition) },
      });
      expect(expectError(created, 400).errors).toEqual({ [place.field]: [timeMessage(bad)] });
      expect(await listTotal(ctx.app, ctx.adminToken, apiPath)).toBe(before);

      const record = await createRecord(ctx.app, ctx.adminToken, place.resource, base);
      const updated = await ctx.app.inject({
        method: 'PUT',
        url: `/api/${apiPath}/${recordId(getResource(place.resource), record)}`,
        headers: bearer(ctx.adminToken),
        payload: { ...base, ...place.body(condition) },
      });
      expect(expectError(updated, 400).errors).toEqual({ [place.field]: [timeMessage(bad)] });
    });

    it('takes a window past midnight in a real zone (the campaigns refuse only their unknown event)', async () => {
      const base = await minimalBody(ctx.app, ctx.adminToken, place.resource);
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/api/${apiPath}`,
        headers: bearer(ctx.adminToken),
        payload: { ...base, ...place.body(hours('22:00', '06:00', 'Asia/Tokyo')) },
      });
      const answer = response.json<{ errors?: Record<string, string[]> }>();
      expect(answer.errors?.[place.field], response.body).toBeUndefined();
      expect([201, 400]).toContain(response.statusCode);
    });
  });

  describe('a new password ends every reset link and every other session', () => {
    /** A live reset link of the user, as forgot-password stores it (only its hash). */
    async function resetLinkOf(userId: number): Promise<string> {
      const { token, hash } = newLinkToken();
      const timestamp = Date.now();
      await ctx.app.store.db
        .insertInto('account_tokens')
        .values({
          token_hash: hash,
          purpose: 'reset-password',
          user_id: userId,
          created_at: new Date(timestamp).toISOString(),
          expires_at: new Date(timestamp + 3_600_000).toISOString(),
        })
        .execute();
      return token;
    }

    it('on the profile: the link is refused, the other session ends, this one stays', async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      const other = await login(ctx.app, user.email, user.password);
      const link = await resetLinkOf(user.id);
      const changed = await post(
        ctx.app,
        'profile/password',
        { current_password: user.password, password: STRONG_PASSWORD },
        { token: user.token },
      );
      expect(changed.statusCode, changed.body).toBe(200);
      expectInvalidLink(await post(ctx.app, 'reset-password', { token: link, password: 'taken over by the link' }));
      await expectSessionAlive(ctx.app, other, false);
      await expectSessionAlive(ctx.app, user.token, true);
      await login(ctx.app, user.email, STRONG_PASSWORD);
    });

    it('by an administrator on the user: the link is refused and every session of the user ends', async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      const link = await resetLinkOf(user.id);
      const changed = await ctx.app.inject({
        method: 'PUT',
        url: `/api/users/${user.id}`,
        headers: bearer(ctx.adminToken),
        payload: {
          name: 'Reset by admin',
          email: user.email,
          permissions: [],
          active: true,
          password: STRONG_PASSWORD,
        },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expectInvalidLink(await post(ctx.app, 'reset-password', { token: link, password: 'taken over by the link' }));
      await expectSessionAlive(ctx.app, user.token, false);
      await expectSessionAlive(ctx.app, ctx.adminToken, true);
    });

    it('by a reset link: every other link and every session end', async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      const first = await resetLinkOf(user.id);
      const second = await resetLinkOf(user.id);
      const reset = await post(ctx.app, 'reset-password', { token: first, password: STRONG_PASSWORD });
      expect(reset.statusCode, reset.body).toBe(200);
      expectInvalidLink(await post(ctx.app, 'reset-password', { token: second, password: 'taken over by the link' }));
      await expectSessionAlive(ctx.app, user.token, false);
    });
  });

  describe('no macro chooses where a URL goes', () => {
    /** Hosts a browser reads from a macro, though no brace stands before the first `/`. */
    const HOSTILE_URLS = ['https://\\{var1}/x', 'https:/\\{var1}/x', 'https:\\\\{var1}.example/x'];

    it.each([
      ['tracker-offers', 'url'],
      ['offers', 'url'],
      ['tracker-landers', 'url'],
    ] as const)('%s refuses them on save, under the field', async (kind, field) => {
      const { apiPath } = getResource(kind);
      for (const url of HOSTILE_URLS) {
        const body = { ...(await minimalBody(ctx.app, ctx.adminToken, kind)), url };
        const response = await ctx.app.inject({
          method: 'POST',
          url: `/api/${apiPath}`,
          headers: bearer(ctx.adminToken),
          payload: body,
        });
        const { errors } = expectError(response, 400);
        expect(Object.keys(errors ?? {}), url).toEqual([field]);
        expect(errors?.[field], url).toContain(M.macroInHost);
      }
    });

    it("a traffic source's postback URL refuses them on save, under the field", async () => {
      const event = await createRecord(ctx.app, ctx.adminToken, 'postback-events');
      for (const url of HOSTILE_URLS) {
        const response = await ctx.app.inject({
          method: 'POST',
          url: '/api/traffic-sources',
          headers: bearer(ctx.adminToken),
          payload: {
            name: `Source ${Math.random().toString(36).slice(2, 8)}`,
            postback_events: [{ postback_event_external_id: event.external_id, postback_url: `${url}?c={clickid}` }],
          },
        });
        const { errors } = expectError(response, 400);
        expect(Object.keys(errors ?? {}), url).toEqual(['postback_events.0.postback_url']);
        expect(errors?.['postback_events.0.postback_url'], url).toContain(M.macroInHost);
      }
    });

    it('a click is never sent to a host a visitor chose, even by a URL stored before the check', async () => {
      const { app, adminToken: token } = ctx;
      const source = await createRecord(app, token, 'traffic-sources', {
        parameters: [{ name: 'Zone', ts_parameter: 'zone', ts_token: '{zone}', internal_token: 'var1', enabled: true }],
      });
      const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/x?z={var1}' });
      const lander = await createRecord(app, token, 'tracker-landers', { url: 'https://lander.example/x?z={var1}' });
      const path = (id: string, landers: Body[]) => ({
        id,
        offers: [{ id: `${id}-o`, offer_external_id: offer.external_id }],
        landers,
      });
      const direct = await campaignWith(source, [path('p1', [])]);
      const landed = await campaignWith(source, [path('p2', [{ id: 'l1', lander_external_id: lander.external_id }])]);
      const click = (campaign: StoredRecord, query = 'zone=evil.example') =>
        app.inject({
          method: 'GET',
          url: `/c/${campaign.external_id}?${query}`,
          remoteAddress: GB_IP,
          headers: { 'user-agent': IPHONE },
        });
      expect((await click(direct)).headers.location).toBe('https://offer.example/x?z=evil.example');

      // Stored as an older version would have kept them, then loaded by the engine.
      for (const [kind, record, url] of [
        ['tracker-offers', offer, 'https://\\{var1}/x'],
        ['tracker-landers', lander, 'https://\\{var1}/y'],
      ] as const) {
        const stored = app.store.db
          .selectFrom('config_records')
          .where('kind', '=', kind)
          .where('external_id', '=', String(record.external_id));
        const row = await stored.select(['id', 'body']).executeTakeFirstOrThrow();
        await app.store.db
          .updateTable('config_records')
          .set({ body: JSON.stringify({ ...JSON.parse(row.body), url }) })
          .where('id', '=', row.id)
          .execute();
      }
      await app.engine.resync();

      for (const campaign of [direct, landed]) {
        const answer = await click(campaign);
        expect(answer.statusCode, answer.body).not.toBe(302);
        expect(String(answer.headers.location ?? '')).not.toContain('evil');
      }
    });

    async function campaignWith(source: StoredRecord, paths: Body[]): Promise<StoredRecord> {
      const flow = await createRecord(ctx.app, ctx.adminToken, 'tracker-flows', {
        path_groups: [{ id: 'g1', name: 'All', paths }],
      });
      return createRecord(ctx.app, ctx.adminToken, 'tracker-campaigns', {
        traffic_source_external_id: source.external_id,
        flow_external_id: flow.external_id,
      });
    }
  });
});
