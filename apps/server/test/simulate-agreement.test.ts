import type { SimulationAnswer } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Body, type ClickRequest, clickRequests, createClickFlow } from '../../../bench/click-flow.js';
import { bearer, buildProxiedAdminApp, forEachDatabase } from './harness.js';

// For 1,000 generated visitors, the simulated path group equals the live click's,
// and the live offer is among those the simulation gave a non-zero chance; on both databases, over the
// bench's flow (14 groups testing the bot verdict, address, network, country, device, browser, vars and
// language). The bench's returning visitors keep their cookies: no group of its flow tests isUnique.

const VISITORS = 1000;
/** Visitors simulated and clicked at once: enough to keep the run short, few enough for one batch. */
const CHUNK = 50;

forEachDatabase('simulation agrees with live routing', (db) => {
  let app: FastifyInstance;
  let base: string;
  let token: string;
  let campaignId: string;

  beforeAll(async () => {
    ({ app, adminToken: token } = await buildProxiedAdminApp(db));
    const flow = await createClickFlow({
      post: async (path: string, body: Body) => {
        const response = await app.inject({ method: 'POST', url: path, headers: bearer(token), payload: body });
        expect(response.statusCode, response.body).toBe(201);
        return response.json<Body>();
      },
    });
    campaignId = flow.campaignExternalId;
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app?.close();
  });

  /** The request's visitor as a simulation is asked: the same address, headers and query. */
  async function simulated(request: ClickRequest): Promise<SimulationAnswer> {
    const url = new URL(request.path, base);
    const { headers } = request;
    const response = await app.inject({
      method: 'POST',
      url: `/api/tracker/campaigns/${campaignId}/simulate`,
      headers: bearer(token),
      payload: {
        ip: headers['x-forwarded-for'],
        user_agent: headers['user-agent'],
        language: headers['accept-language'],
        referrer: headers.referer,
        params: Object.fromEntries(url.searchParams),
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SimulationAnswer>();
  }

  /** The live click over real HTTP: its id, from the lander's or offer's URL (both carry `c={clickid}`). */
  async function clicked(request: ClickRequest): Promise<string> {
    const response = await fetch(`${base}${request.path}`, { headers: request.headers, redirect: 'manual' });
    expect(response.status).toBe(302);
    const clickId = new URL(response.headers.get('location') ?? '').searchParams.get('c');
    expect(clickId).toBeTruthy();
    return String(clickId);
  }

  it('routes 1,000 generated visitors to the simulated group, on an offer given a chance', async () => {
    const requests = clickRequests(campaignId, VISITORS, 25);
    const seen = { groups: new Set<string>(), landerClicks: 0 };
    for (let start = 0; start < requests.length; start += CHUNK) {
      const chunk = requests.slice(start, start + CHUNK);
      const simulations = await Promise.all(chunk.map(simulated));
      const clickIds = await Promise.all(chunk.map(clicked));
      await app.engine.flush();
      const rows = await app.store.db
        .selectFrom('tracker_clicks')
        .select(['click_id', 'path_group_id', 'offer_external_id', 'lander_external_id'])
        .where('click_id', 'in', clickIds)
        .execute();
      const byId = new Map(rows.map((row) => [row.click_id, row]));
      chunk.forEach((request, index) => {
        const simulation = simulations[index]!;
        const live = byId.get(clickIds[index]!);
        const visitor = `${request.path} ${JSON.stringify(request.headers)}`;
        expect(live, visitor).toBeDefined();
        expect(simulation.path_group?.id, visitor).toBe(live?.path_group_id);
        // A lander click stores the offer its link will send to, chosen at the click.
        const chances = simulation.probabilities.offers.filter((offer) => offer.chance > 0);
        expect(
          chances.map((offer) => offer.external_id),
          visitor,
        ).toContain(live?.offer_external_id);
        seen.groups.add(String(live?.path_group_id));
        if (live?.lander_external_id) seen.landerClicks += 1;
      });
    }
    // The visitors reach most of the flow's groups, through landers and straight to offers.
    expect(seen.groups.size).toBeGreaterThanOrEqual(10);
    expect(seen.landerClicks).toBeGreaterThan(0);
    expect(seen.landerClicks).toBeLessThan(VISITORS);
  }, 180_000);
});
