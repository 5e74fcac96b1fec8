import type { ConditionNode, SimulationAnswer } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { campaignOnFlow, createRecord, type StoredRecord } from './fixtures/config-records.js';
import { DESKTOP, GB_IP, GOOGLEBOT, HOME_IP } from './fixtures/traffic.js';
import { bearer, buildProxiedAdminApp, createUserWithPermissions, expectError, forEachDatabase } from './harness.js';

// "Where would this visitor go, and why": a simulation answers each group's traced condition
// and the decision of the live routing, records nothing and takes no cap. On SQLite and PostgreSQL.

const inRule = (Var: string, Values: string[]): ConditionNode =>
  ({ type: 'InCondition', data: { Var, Operation: 'IN', Values } }) as ConditionNode;
const human: ConditionNode = { type: 'EqualCondition', data: { Var: 'isBot', Value: 'false' } };
const FRENCH_CALIFORNIANS: ConditionNode = {
  type: 'AndCondition',
  data: { Conditions: [inRule('countryCode', ['us']), inRule('region', ['US-CA']), inRule('language', ['fr']), human] },
};

const MATCHING = { ip: HOME_IP, user_agent: DESKTOP, language: 'fr-CH, fr;q=0.9, en;q=0.8', params: { var1: 'v' } };
const OTHER = { ip: GB_IP, user_agent: GOOGLEBOT, language: 'en-GB' };

type Trace = { verdict: boolean; value?: unknown; conditions?: Trace[] };

forEachDatabase('simulating a visitor', (db) => {
  let app: FastifyInstance;
  let token: string;
  let source: StoredRecord;
  let capped: StoredRecord;
  let fallback: StoredRecord;
  /** French Californians → paths of weight 3 (the capped offer) and 1 (the fallback); everyone else → fallback. */
  let campaign: StoredRecord;

  beforeAll(async () => {
    ({ app, adminToken: token } = await buildProxiedAdminApp(db));
    source = await createRecord(app, token, 'traffic-sources');
    fallback = await createRecord(app, token, 'tracker-offers', { url: 'https://fallback.example/?c={clickid}' });
    capped = await createRecord(app, token, 'tracker-offers', {
      url: 'https://capped.example/?c={clickid}&v={var1}',
      daily_cap: 1,
      backup_offer_external_id: fallback.external_id,
    });
    campaign = await campaignOnFlow(app, token, source, [
      {
        id: 'g-fr',
        name: 'French Californians',
        priority: 1,
        condition: JSON.stringify(FRENCH_CALIFORNIANS),
        paths: [
          { id: 'p-cap', name: 'Capped', weight: 3, offers: [{ id: 'o1', offer_external_id: capped.external_id }] },
          { id: 'p-fb', name: 'Fallback', weight: 1, offers: [{ id: 'o2', offer_external_id: fallback.external_id }] },
        ],
      },
      {
        id: 'g-off',
        name: 'Switched off',
        priority: 2,
        enabled: false,
        paths: [{ id: 'p-off', offers: [{ id: 'o3', offer_external_id: fallback.external_id }] }],
      },
      {
        id: 'g-rest',
        name: 'Everyone else',
        priority: 3,
        paths: [{ id: 'p-rest', offers: [{ id: 'o4', offer_external_id: fallback.external_id }] }],
      },
    ]);
  });

  afterAll(async () => {
    await app?.close();
  });

  async function simulate(body: object, id = String(campaign.external_id), auth = token) {
    return app.inject({
      method: 'POST',
      url: `/api/tracker/campaigns/${id}/simulate`,
      headers: bearer(auth),
      payload: body,
    });
  }

  async function simulated(body: object, id?: string): Promise<SimulationAnswer> {
    const response = await simulate(body, id);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SimulationAnswer>();
  }

  const leaves = (trace: Trace) => (trace.conditions ?? []).map(({ value, verdict }) => [value, verdict]);

  it('traces each group for a matching visitor and answers the decision, its chances and caps', async () => {
    const answer = await simulated(MATCHING);
    expect(answer.context).toMatchObject({
      country: 'US',
      region: 'US-CA',
      city: 'Monterey',
      asn: 7922,
      language: 'fr',
      device: 'desktop',
      vars: { var1: 'v' },
      var1: 'v',
      isBot: false,
      botReason: null,
    });
    expect(answer.groups.map(({ id, matched, skipped_reason }) => [id, matched, skipped_reason])).toEqual([
      ['g-fr', true, undefined],
      ['g-off', false, 'disabled'],
      ['g-rest', true, 'after_match'],
    ]);
    const trace = answer.groups[0]!.condition_trace as Trace;
    expect(trace.verdict).toBe(true);
    expect(leaves(trace)).toEqual([
      ['US', true],
      ['US-CA', true],
      ['fr', true],
      ['false', true],
    ]);
    expect(answer.path_group).toEqual({ id: 'g-fr', name: 'French Californians' });
    expect(['p-cap', 'p-fb']).toContain(answer.path?.id);
    expect(answer.probabilities.paths.map(({ id, chance }) => [id, chance])).toEqual([
      ['p-cap', 0.75],
      ['p-fb', 0.25],
    ]);
    expect(answer.probabilities.offers).toEqual([
      { external_id: capped.external_id, name: capped.name, chance: 0.75 },
      { external_id: fallback.external_id, name: fallback.name, chance: 0.25 },
    ]);
    expect(answer.caps).toEqual([
      expect.objectContaining({ kind: 'offer', id: capped.external_id, limit: 1, remaining: 1 }),
    ]);
    if (answer.offer?.external_id === capped.external_id) {
      expect(answer.url).toBe('https://capped.example/?c={clickid}&v=v');
    } else {
      expect(answer.url).toBe('https://fallback.example/?c={clickid}');
    }
  });

  it('traces why a visitor does not match: each leaf with its tested value', async () => {
    const answer = await simulated(OTHER);
    expect(answer.context).toMatchObject({ country: 'GB', isBot: true, botReason: 'bot_user_agent' });
    const first = answer.groups[0]!;
    expect(first).toMatchObject({ id: 'g-fr', matched: false });
    expect(first.skipped_reason).toBeUndefined();
    const values = leaves(first.condition_trace as Trace);
    expect(values[0]).toEqual(['GB', false]);
    expect(values[2]).toEqual(['en', false]);
    expect(values[3]).toEqual(['true', false]);
    expect(answer.groups[2]).toMatchObject({ id: 'g-rest', matched: true });
    expect(answer.path_group).toEqual({ id: 'g-rest', name: 'Everyone else' });
    expect(answer.probabilities.paths).toEqual([expect.objectContaining({ id: 'p-rest', chance: 1 })]);
  });

  it('routes as a live click does for the same visitor', async () => {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    for (const visitor of [MATCHING, OTHER]) {
      const response = await fetch(`${base}/c/${String(campaign.external_id)}`, {
        headers: {
          'x-forwarded-for': visitor.ip,
          'user-agent': visitor.user_agent,
          'accept-language': visitor.language,
        },
        redirect: 'manual',
      });
      expect(response.status).toBe(302);
      const clickId = new URL(response.headers.get('location') ?? '').searchParams.get('c') ?? '';
      await app.engine.flush();
      const row = await app.store.db
        .selectFrom('tracker_clicks')
        .select('path_group_id')
        .where('click_id', '=', clickId)
        .executeTakeFirstOrThrow();
      expect((await simulated(visitor)).path_group?.id).toBe(row.path_group_id);
    }
  });

  it('records nothing and takes no cap', async () => {
    // An offer of its own: the live click above may have taken the other's unit.
    const capped = await createRecord(app, token, 'tracker-offers', {
      url: 'https://capped.example/',
      daily_cap: 1,
      backup_offer_external_id: fallback.external_id,
    });
    const only = await campaignOnFlow(app, token, source, [
      { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: capped.external_id }] }] },
    ]);
    const id = String(only.external_id);
    for (let index = 0; index < 3; index += 1) {
      const answer = await simulated(MATCHING, id);
      expect(answer.offer?.external_id).toBe(capped.external_id);
      expect(answer.caps).toEqual([expect.objectContaining({ id: capped.external_id, remaining: 1 })]);
    }
    await app.engine.flush();
    const clicks = await app.store.db
      .selectFrom('tracker_clicks')
      .select('click_id')
      .where('campaign_external_id', '=', id)
      .execute();
    expect(clicks).toEqual([]);

    // The cap's one unit is still there for a real click, which takes it.
    const click = await app.inject({ method: 'GET', url: `/c/${id}`, headers: { 'user-agent': DESKTOP } });
    expect(click.statusCode).toBe(302);
    expect(new URL(click.headers.location as string).hostname).toBe('capped.example');

    const after = await simulated(MATCHING, id);
    expect(after).toMatchObject({ reason: 'backup_offer', offer: { external_id: fallback.external_id } });
    expect(after.backup_chain).toEqual([
      {
        external_id: capped.external_id,
        name: capped.name,
        available: true,
        country_allowed: true,
        remaining: 0,
        used: false,
      },
      {
        external_id: fallback.external_id,
        name: fallback.name,
        available: true,
        country_allowed: true,
        remaining: null,
        used: true,
      },
    ]);
    expect(after.probabilities.offers).toEqual([{ external_id: fallback.external_id, name: fallback.name, chance: 1 }]);
  });

  it('marks a matched group passed over when its every offer is capped', async () => {
    const once = await createRecord(app, token, 'tracker-offers', { url: 'https://once.example/', daily_cap: 1 });
    const twoGroups = await campaignOnFlow(app, token, source, [
      { id: 'g1', name: 'Once', paths: [{ id: 'p1', offers: [{ id: 'o1', offer_external_id: once.external_id }] }] },
      {
        id: 'g2',
        name: 'Then',
        paths: [{ id: 'p2', offers: [{ id: 'o2', offer_external_id: fallback.external_id }] }],
      },
    ]);
    const id = String(twoGroups.external_id);
    expect((await simulated(MATCHING, id)).path_group?.id).toBe('g1');
    expect((await app.inject({ method: 'GET', url: `/c/${id}`, headers: { 'user-agent': DESKTOP } })).statusCode).toBe(
      302,
    );
    const answer = await simulated(MATCHING, id);
    expect(answer.groups.map(({ id, matched, skipped_reason }) => [id, matched, skipped_reason])).toEqual([
      ['g1', true, 'no_route'],
      ['g2', true, undefined],
    ]);
    expect(answer.path_group?.id).toBe('g2');
  });

  it('refuses a bad visitor with the field named', async () => {
    expect(expectError(await simulate({ ip: '999.1.1.1' }), 400).errors).toHaveProperty('ip');
    expect(expectError(await simulate({ ip: '0x7f.1' }), 400).errors).toHaveProperty('ip');
    expect(expectError(await simulate({ time: 'yesterday' }), 400).errors).toHaveProperty('time');
  });

  it('answers at a given time', async () => {
    const answer = await simulated({ ...MATCHING, time: '2026-01-02T03:04:05Z' });
    expect(answer.context.time).toBe('2026-01-02T03:04:05.000Z');
  });

  it('refuses whoever may not see campaigns, and stays in the acting workspace', async () => {
    const stranger = await createUserWithPermissions(app, token, ['/api/campaign/get']);
    expectError(await simulate(MATCHING, String(campaign.external_id), stranger.token), 403);
    const reader = await createUserWithPermissions(app, token, ['/tracker/campaign/get']);
    expect((await simulate(MATCHING, String(campaign.external_id), reader.token)).statusCode).toBe(200);

    const workspace = await app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: bearer(token),
      payload: { name: 'Client B' },
    });
    expect(workspace.statusCode, workspace.body).toBe(201);
    const other = { ...bearer(token), 'x-workspace': String(workspace.json<{ id: number }>().id) };
    /** A record made in the other workspace: its external id. */
    const made = async (url: string, payload: object) => {
      const response = await app.inject({ method: 'POST', url: `/api/${url}`, headers: other, payload });
      expect(response.statusCode, response.body).toBe(201);
      return String(response.json().external_id);
    };
    const offer = await made('tracker/offers', { name: 'B offer', url: 'https://b.example/' });
    const paths = [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer }] }];
    const id = await made('tracker/campaigns', {
      name: 'B campaign',
      traffic_source_external_id: await made('traffic-sources', { name: 'B source' }),
      flow_external_id: await made('tracker/flows', { name: 'B flow', path_groups: [{ id: 'g', name: 'All', paths }] }),
    });
    const there = {
      method: 'POST' as const,
      url: `/api/tracker/campaigns/${id}/simulate`,
      headers: other,
      payload: {},
    };
    expect((await app.inject(there)).statusCode).toBe(200);
    expectError(await simulate({}, id), 404);
    expectError(await simulate({}, 'noSuchCampaign1'), 404);
  });
});
