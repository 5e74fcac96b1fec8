import type { SimulationAnswer } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { DE_IP, DESKTOP, GB_IP, US_IP } from './fixtures/traffic.js';
import { bearer, buildProxiedAdminApp, type DatabaseUnderTest, forEachDatabase } from './harness.js';

// An offer's `countries`, when set, is a routing rule: a visitor from another country skips it the way a
// capped offer is skipped (its backup chain, then the path's next weighted offer). The simulator and a
// stored click's replay name each offer skipped for it. On SQLite and PostgreSQL.

forEachDatabase('offer countries in routing', (db: DatabaseUnderTest) => {
  let app: FastifyInstance;
  let token: string;
  let gbOnly: StoredRecord;
  let deOnly: StoredRecord;
  let anywhere: StoredRecord;
  let chained: string;
  let weighted: string;

  async function campaignFor(offers: { offer_external_id: unknown; weight?: number }[]) {
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        {
          id: 'g',
          name: 'All',
          paths: [{ id: 'p', offers: offers.map((offer, index) => ({ id: `o${index}`, weight: 1, ...offer })) }],
        },
      ],
    });
    return String(
      (await createRecord(app, token, 'tracker-campaigns', { flow_external_id: flow.external_id })).external_id,
    );
  }

  beforeAll(async () => {
    ({ app, adminToken: token } = await buildProxiedAdminApp(db));
    anywhere = await createRecord(app, token, 'tracker-offers', { url: 'https://anywhere.example/?c={clickid}' });
    deOnly = await createRecord(app, token, 'tracker-offers', {
      url: 'https://de.example/?c={clickid}&country={country}',
      countries: ['DE'],
      backup_offer_external_id: anywhere.external_id,
    });
    gbOnly = await createRecord(app, token, 'tracker-offers', {
      url: 'https://gb.example/?c={clickid}',
      countries: ['GB'],
      backup_offer_external_id: deOnly.external_id,
    });
    chained = await campaignFor([{ offer_external_id: gbOnly.external_id }]);
    weighted = await campaignFor([
      { offer_external_id: gbOnly.external_id, weight: 1000 },
      { offer_external_id: deOnly.external_id, weight: 1 },
    ]);
  });

  async function hostFor(campaign: string, ip: string): Promise<string> {
    const response = await app.inject({
      method: 'GET',
      url: `/c/${campaign}`,
      headers: { 'x-forwarded-for': ip, 'user-agent': DESKTOP },
    });
    expect(response.statusCode, response.body).toBe(302);
    return new URL(String(response.headers.location)).hostname;
  }

  it('sends each visitor along the backup chain to the first offer that takes their country', async () => {
    expect(await hostFor(chained, GB_IP)).toBe('gb.example');
    expect(await hostFor(chained, DE_IP)).toBe('de.example');
    // The case: a US visitor is never sent to the DE-only backup.
    expect(await hostFor(chained, US_IP)).toBe('anywhere.example');
    await app.engine.flush();
    const rows = await app.store.db
      .selectFrom('tracker_clicks')
      .select(['country', 'offer_external_id', 'reason'])
      .where('campaign_external_id', '=', chained)
      .orderBy('created_at')
      .execute();
    expect(rows).toEqual([
      { country: 'GB', offer_external_id: gbOnly.external_id, reason: 'matched' },
      { country: 'DE', offer_external_id: deOnly.external_id, reason: 'backup_offer' },
      { country: 'US', offer_external_id: anywhere.external_id, reason: 'backup_offer' },
    ]);
  });

  it("passes to the path's next weighted offer when a chain has none for the country", async () => {
    const noFallback = await createRecord(app, token, 'tracker-offers', {
      url: 'https://gb-alone.example/',
      countries: ['GB'],
    });
    const campaign = await campaignFor([
      { offer_external_id: noFallback.external_id, weight: 1000 },
      { offer_external_id: deOnly.external_id, weight: 1 },
    ]);
    for (let index = 0; index < 5; index += 1) expect(await hostFor(campaign, DE_IP)).toBe('de.example');
    // A country no offer of the path takes, through every chain: the DE chain ends at the offer for anyone.
    expect(await hostFor(campaign, US_IP)).toBe('anywhere.example');
    expect(await hostFor(weighted, DE_IP)).toBe('de.example');
  });

  it('says so in the simulator and in a stored click\'s replay: "country not allowed by the offer"', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `/api/tracker/campaigns/${chained}/simulate`,
      headers: bearer(token),
      payload: { ip: US_IP, user_agent: DESKTOP },
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<SimulationAnswer>();
    expect(answer.offer?.external_id).toBe(anywhere.external_id);
    expect(answer.reason).toBe('backup_offer');
    expect(answer.backup_chain.map((offer) => [offer.external_id, offer.country_allowed, offer.used])).toEqual([
      [gbOnly.external_id, false, false],
      [deOnly.external_id, false, false],
      [anywhere.external_id, true, true],
    ]);
    // Only the offer for anyone has a chance for this visitor.
    expect(answer.probabilities.offers).toEqual([
      { external_id: anywhere.external_id, name: anywhere.name, chance: 1 },
    ]);

    const click = await app.inject({
      method: 'GET',
      url: `/c/${chained}`,
      headers: { 'x-forwarded-for': DE_IP, 'user-agent': DESKTOP },
    });
    const clickId = new URL(String(click.headers.location)).searchParams.get('c') ?? '';
    await app.engine.flush();
    const replay = await app.inject({
      method: 'GET',
      url: `/api/events/clicks/${clickId}/replay`,
      headers: bearer(token),
    });
    expect(replay.statusCode, replay.body).toBe(200);
    const chain = replay.json<{ replay: SimulationAnswer }>().replay.backup_chain;
    expect(chain.map((offer) => [offer.external_id, offer.country_allowed, offer.used])).toEqual([
      [gbOnly.external_id, false, false],
      [deOnly.external_id, true, true],
    ]);
  });

  it('refuses an unknown country on the offer with 400 on the field', async () => {
    for (const countries of [['1A'], 'DE', [1e308], ['D'.repeat(100_000)]]) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/tracker/offers',
        headers: bearer(token),
        payload: { name: 'Bad countries', url: 'https://x.example/', countries },
      });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json<{ errors: Record<string, unknown> }>().errors)[0]).toMatch(/^countries/);
    }
  });
});
