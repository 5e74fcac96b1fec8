import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord } from './fixtures/config-records.js';
import { DESKTOP, HOME_IP } from './fixtures/traffic.js';
import { buildProxiedAdminApp, type DatabaseUnderTest, forEachDatabase } from './harness.js';

// Macros for what is read off the visitor (region, city, ISP, device, OS, browser, language) and the
// click's cost, in offer and lander URLs. On SQLite and PostgreSQL.

forEachDatabase('visitor macros', (db: DatabaseUnderTest) => {
  let app: FastifyInstance;
  let campaign: string;

  beforeAll(async () => {
    let token: string;
    ({ app, adminToken: token } = await buildProxiedAdminApp(db));
    const offer = await createRecord(app, token, 'tracker-offers', {
      url: 'https://offer.example/?r={region}&ci={city}&i={isp}&d={device}&o={os}&b={browser}&l={language}&co={cost}',
    });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    campaign = String(
      (
        await createRecord(app, token, 'tracker-campaigns', {
          flow_external_id: flow.external_id,
          cost_model: 'CPC',
          cost: 0.35,
        })
      ).external_id,
    );
  });

  it('fills each with what the click read', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/c/${campaign}`,
      headers: { 'x-forwarded-for': HOME_IP, 'user-agent': DESKTOP, 'accept-language': 'de-DE,de;q=0.9' },
    });
    expect(response.statusCode, response.body).toBe(302);
    const query = Object.fromEntries(new URL(String(response.headers.location)).searchParams);
    expect(query).toMatchObject({
      r: 'US-CA',
      ci: 'Monterey',
      d: 'desktop',
      o: 'windows',
      b: 'Chrome',
      l: 'de',
      co: '0.35',
    });
    expect(query.i).toMatch(/comcast/i);
  });
});
