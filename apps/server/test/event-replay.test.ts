import type { ClickReplay, ConditionNode } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { DESKTOP, GB_IP } from './fixtures/traffic.js';
import { bearer, buildProxiedAdminApp, createUserWithPermissions, expectError, forEachDatabase } from './harness.js';

// `GET /api/events/clicks/{click_id}/replay` routes a stored click's context again against
// today's configuration, beside what happened when it was routed; records nothing; under the event
// tables' permission, in the acting workspace only. On SQLite and PostgreSQL.

const inRule = (Var: string, Values: string[]): ConditionNode =>
  ({ type: 'InCondition', data: { Var, Operation: 'IN', Values } }) as ConditionNode;
const zoneRule = (Value: string[]): ConditionNode =>
  ({ type: 'VarsCondition', data: { Var: 'vars', Value: { Var: 'var1', Operation: 'IN', Value } } }) as ConditionNode;
const groupsFor = (countries: string[], gb: StoredRecord, rest: StoredRecord) => [
  {
    id: 'g-gb',
    name: 'GB zone z1',
    condition: JSON.stringify({
      type: 'AndCondition',
      data: { Conditions: [inRule('countryCode', countries), zoneRule(['z1'])] },
    }),
    paths: [{ id: 'p-gb', name: 'GB', offers: [{ id: 'o-gb', offer_external_id: gb.external_id }] }],
  },
  {
    id: 'g-rest',
    name: 'Everyone else',
    paths: [{ id: 'p-rest', name: 'Rest', offers: [{ id: 'o-rest', offer_external_id: rest.external_id }] }],
  },
];

forEachDatabase('replaying a stored click', (db) => {
  let app: FastifyInstance;
  let base: string;
  let token: string;
  let gb: StoredRecord;
  let rest: StoredRecord;
  let flow: StoredRecord;
  let campaign: StoredRecord;

  beforeAll(async () => {
    ({ app, adminToken: token } = await buildProxiedAdminApp(db));
    // The source's `zone` is stored as var1: a replay must read it back as var1, not as `zone`.
    const source = await createRecord(app, token, 'traffic-sources', {
      parameters: [{ name: 'Zone', ts_parameter: 'zone', ts_token: '{zone}', internal_token: 'var1', enabled: true }],
    });
    gb = await createRecord(app, token, 'tracker-offers', { url: 'https://gb.example/?c={clickid}&z={var1}' });
    rest = await createRecord(app, token, 'tracker-offers', { url: 'https://rest.example/?c={clickid}' });
    flow = await createRecord(app, token, 'tracker-flows', { path_groups: groupsFor(['GB'], gb, rest) });
    campaign = await createRecord(app, token, 'tracker-campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app?.close();
  });

  /** A click from Great Britain in zone z1, over real HTTP (`cookie`: a returning visitor's): its id. */
  async function click(cookie?: string, userAgent = DESKTOP): Promise<string> {
    const response = await fetch(`${base}/c/${String(campaign.external_id)}?zone=z1`, {
      headers: {
        'x-forwarded-for': GB_IP,
        'user-agent': userAgent,
        'accept-language': 'en-GB,en;q=0.9',
        referer: 'https://www.news.example/story',
        ...(cookie ? { cookie } : {}),
      },
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    return new URL(response.headers.get('location') ?? '').searchParams.get('c') ?? '';
  }

  const replay = (clickId: string, headers: Record<string, string> = bearer(token)) =>
    app.inject({ method: 'GET', url: `/api/events/clicks/${clickId}/replay`, headers });

  async function storedClicks(): Promise<number> {
    await app.engine.flush();
    const row = await app.store.db
      .selectFrom('tracker_clicks')
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  it('answers the stored click beside its context routed today', async () => {
    const clickId = await click();
    const response = await replay(clickId);
    expect(response.statusCode, response.body).toBe(200);
    const { click: stored, replay: today } = response.json<ClickReplay>();
    expect(stored).toMatchObject({
      click_id: clickId,
      campaign_external_id: campaign.external_id,
      path_group_id: 'g-gb',
      path_id: 'p-gb',
      lander_external_id: null,
      offer_external_id: gb.external_id,
      reason: 'matched',
      is_bot: false,
      bot_reason: null,
      ip: GB_IP,
      country: 'GB',
      language: 'en',
      vars: { var1: 'z1' },
    });
    expect(today).toMatchObject({
      path_group: { id: 'g-gb', name: 'GB zone z1' },
      path: { id: 'p-gb' },
      offer: { external_id: gb.external_id },
      reason: 'matched',
      url: 'https://gb.example/?c={clickid}&z=z1',
      context: { country: 'GB', language: 'en', referrer: 'news.example', vars: { var1: 'z1' }, isBot: false },
    });
    // Today's time, not the click's.
    expect(Date.parse(today?.context.time ?? '')).toBeGreaterThanOrEqual(Date.parse(stored.created_at));
  });

  it("replays a returning visitor's click as not unique, as it was routed", async () => {
    // Uniqueness is by address and user agent unless the campaign says otherwise: an agent of its own.
    const returning = `${DESKTOP} Returning/1`;
    const first = (await replay(await click(undefined, returning))).json<ClickReplay>();
    expect(first.click.is_unique).toBe(true);
    expect(first.replay?.context.fields.isUnique).toBe('true');
    const again = (await replay(await click(undefined, returning))).json<ClickReplay>();
    expect(again.click.is_unique).toBe(false);
    expect(again.replay?.context.fields.isUnique).toBe('false');
  });

  it('records nothing', async () => {
    const clickId = await click();
    const before = await storedClicks();
    for (let index = 0; index < 3; index += 1) expect((await replay(clickId)).statusCode).toBe(200);
    expect(await storedClicks()).toBe(before);
  });

  it('refuses whoever may not read the event tables, and stays in the acting workspace', async () => {
    const clickId = await click();
    const campaignReader = await createUserWithPermissions(app, token, ['/tracker/campaign/get']);
    expectError(await replay(clickId, bearer(campaignReader.token)), 403);
    const reportReader = await createUserWithPermissions(app, token, ['/tracker/reports/get']);
    expect((await replay(clickId, bearer(reportReader.token))).statusCode).toBe(200);

    const workspace = await app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: bearer(token),
      payload: { name: 'Client B' },
    });
    expect(workspace.statusCode, workspace.body).toBe(201);
    const other = { ...bearer(token), 'x-workspace': String(workspace.json<{ id: number }>().id) };
    expectError(await replay(clickId, other), 404);
    expectError(await replay('noSuchClick1'), 404);
  });

  it('shows the group a changed flow routes to beside the one the click was routed to', async () => {
    const clickId = await click();
    const { external_id: id, status: _s, created_at: _c, updated_at: _u, workspace_id: _w, ...body } = flow;
    const updated = await app.inject({
      method: 'PUT',
      url: `/api/tracker/flows/${String(id)}`,
      headers: bearer(token),
      payload: { ...body, path_groups: groupsFor(['US'], gb, rest) },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const answer = (await replay(clickId)).json<ClickReplay>();
    expect(answer.click).toMatchObject({ path_group_id: 'g-gb', offer_external_id: gb.external_id });
    expect(answer.replay).toMatchObject({
      path_group: { id: 'g-rest' },
      offer: { external_id: rest.external_id },
      url: 'https://rest.example/?c={clickid}',
    });
    expect(answer.replay?.groups.find((group) => group.id === 'g-gb')?.matched).toBe(false);
  });
});
