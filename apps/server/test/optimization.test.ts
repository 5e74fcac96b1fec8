import type { OptimizationAnswer } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { DE_IP, DESKTOP } from './fixtures/traffic.js';
import { bearer, buildProxiedAdminApp, createUserWithPermissions, expectError, forEachDatabase } from './harness.js';

// Weights that tune themselves: three offers converting at 2 %, 3 % and 5 %, 30,000 clicks through the
// real routing and real postbacks, the live weights recomputed every 1,000 clicks from the report layer.

const RATES = [0.02, 0.03, 0.05];
const CLICKS = 30_000;
const ROUND = 1_000;
const FLOOR = 0.05;

/** Seeded, so that the visitors who convert are the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

forEachDatabase('weights that tune themselves', (db) => {
  let app: FastifyInstance;
  let token: string;
  let flow: StoredRecord;
  let campaign: StoredRecord;
  let postbacks: string;

  const optimization = async (path = '') =>
    app.inject({
      method: path ? 'POST' : 'GET',
      url: `/api/tracker/flows/${flow.external_id}/optimization${path}`,
      headers: bearer(token),
    });

  beforeAll(async () => {
    ({ app, adminToken: token } = await buildProxiedAdminApp(db));
    const sale = await createRecord(app, token, 'postback-events', { status_values: ['approved'] });
    const source = await createRecord(app, token, 'traffic-sources');
    const offers = await Promise.all(
      RATES.map((_, n) => createRecord(app, token, 'tracker-offers', { url: `https://o${n}.example/?c={clickid}` })),
    );
    flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        {
          id: 'g',
          name: 'Everyone',
          optimize: 'on',
          optimize_metric: 'cr',
          optimize_min_clicks: 100,
          optimize_floor: FLOOR * 100,
          paths: offers.map((offer, n) => ({
            id: `p${n}`,
            name: `Offer ${n}`,
            weight: 100,
            offers: [{ id: `o${n}`, offer_external_id: offer.external_id }],
          })),
        },
      ],
    });
    campaign = await createRecord(app, token, 'tracker-campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
      postback_events: [{ postback_event_external_id: sale.external_id, is_conversion: true }],
      payout_rule_sets: [{ id: 'rs', postback_event_external_id: sale.external_id, default_payout: 10, rules: [] }],
    });
    postbacks = await postbackPath(app);
  });

  it('refuses optimization settings out of range, on their fields', async () => {
    const response = await app.inject({
      method: 'PUT',
      url: `/api/tracker/flows/${flow.external_id}`,
      headers: bearer(token),
      payload: {
        name: flow.name,
        path_groups: [{ id: 'g', optimize: 'sometimes', optimize_metric: 'ctr', optimize_floor: 1e308, paths: [] }],
      },
    });
    const body = expectError(response, 400);
    expect(Object.keys(body.errors ?? {}).sort()).toEqual([
      'path_groups.0.optimize',
      'path_groups.0.optimize_floor',
      'path_groups.0.optimize_metric',
    ]);
  });

  it('keeps the operator weights until each offer has its minimum sample', async () => {
    const response = await optimization('/recompute');
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<OptimizationAnswer>();
    expect(answer.groups).toHaveLength(1);
    expect(answer.groups[0]?.moved).toBe(false);
    for (const arm of answer.groups[0]?.arms ?? []) expect(arm.live_share).toBeCloseTo(1 / 3, 9);
  });

  it('moves traffic to the best offer and earns more than an even split', { timeout: 300_000 }, async () => {
    const random = seeded(42);
    const byOffer = [0, 0, 0];
    const lateByOffer = [0, 0, 0];
    let conversions = 0;
    const shares: number[][] = [];
    for (let n = 0; n < CLICKS; n += 1) {
      const clicked = await app.inject({
        method: 'GET',
        url: `/c/${campaign.external_id}`,
        remoteAddress: DE_IP,
        headers: { 'user-agent': DESKTOP },
      });
      expect(clicked.statusCode).toBe(302);
      const target = new URL(String(clicked.headers.location));
      const offer = Number(target.hostname.slice(1, target.hostname.indexOf('.')));
      byOffer[offer] = (byOffer[offer] ?? 0) + 1;
      if (n >= CLICKS - 10_000) lateByOffer[offer] = (lateByOffer[offer] ?? 0) + 1;
      if (random() < (RATES[offer] ?? 0)) {
        const posted = await app.inject({
          method: 'GET',
          url: `${postbacks}?clickid=${target.searchParams.get('c')}&status=approved&txid=t${n}`,
          remoteAddress: '203.0.113.7',
        });
        expect(posted.statusCode, posted.body).toBe(200);
        conversions += 1;
      }
      if ((n + 1) % ROUND === 0) {
        await app.engine.flush();
        const answer = (await optimization('/recompute')).json<OptimizationAnswer>();
        const arms = answer.groups[0]?.arms ?? [];
        shares.push(arms.map((arm) => arm.live_share));
        for (const arm of arms) expect(arm.live_share).toBeGreaterThanOrEqual(FLOOR - 1e-9);
      }
    }
    const last = (await optimization()).json<OptimizationAnswer>().groups[0];
    const best = last?.arms.find((arm) => arm.arm === 'path:p2');
    console.info(
      `bandit on ${db.kind}: clicks by offer ${byOffer.join('/')}, last 10,000 ${lateByOffer.join('/')}, ` +
        `conversions ${conversions} (even split expects ${CLICKS * (RATES.reduce((a, b) => a + b) / 3)}), ` +
        `final live shares ${last?.arms.map((arm) => arm.live_share.toFixed(3)).join('/')}`,
    );
    expect(last?.moved).toBe(true);
    expect(best?.live_share).toBeGreaterThan(0.7);
    expect(best?.p_best).toBeGreaterThan(0.9);
    // The posterior interval of the best offer holds its true rate.
    expect(best?.low).toBeLessThan(0.05);
    expect(best?.high).toBeGreaterThan(0.05);
    expect((lateByOffer[2] ?? 0) / 10_000).toBeGreaterThan(0.7);
    for (const count of lateByOffer) expect(count / 10_000).toBeGreaterThan(FLOOR * 0.6);
    // A fixed even split expects 30,000 × 10 % / 3 = 1,000 conversions.
    expect(conversions).toBeGreaterThan(1_100);
    // Routing reads the live weights: the simulator shows the same chances.
    const simulated = await app.inject({
      method: 'POST',
      url: `/api/tracker/campaigns/${campaign.external_id}/simulate`,
      headers: bearer(token),
      payload: { ip: DE_IP, user_agent: DESKTOP },
    });
    expect(simulated.statusCode, simulated.body).toBe(200);
    expect(simulated.body).toContain('p2');
  });

  it('shows the panel to flow readers only, and recomputes for flow editors only', async () => {
    const workspace = await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow();
    const reader = await createUserWithPermissions(app, token, ['/tracker/flow/get'], { workspaces: [workspace.id] });
    const stranger = await createUserWithPermissions(app, token, ['/tracker/offer/get'], {
      workspaces: [workspace.id],
    });
    const url = `/api/tracker/flows/${flow.external_id}/optimization`;
    expect((await app.inject({ url, headers: bearer(reader.token) })).statusCode).toBe(200);
    expect((await app.inject({ url, headers: bearer(stranger.token) })).statusCode).toBe(403);
    const recompute = await app.inject({ method: 'POST', url: `${url}/recompute`, headers: bearer(reader.token) });
    expect(recompute.statusCode).toBe(403);
    const unknown = await app.inject({ url: '/api/tracker/flows/nope/optimization', headers: bearer(token) });
    expect(unknown.statusCode).toBe(404);
  });
});
