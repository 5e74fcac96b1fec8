import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// Every tracker campaign record carries its campaign URL, `/c/{external_id}` on the public
// origin with its traffic source's enabled parameters, in lists, on the record and in the create answer.

const PUBLIC_URL = 'https://track.example.com';

forEachDatabase('tracker campaign URLs', (db) => {
  let app: FastifyInstance;
  let behindNoPublicUrl: FastifyInstance;
  let token: string;
  let campaign: StoredRecord;
  let expected: string;

  beforeAll(async () => {
    const env = { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD };
    app = await db.buildApp({ env: { ...env, SWITCHYARD_PUBLIC_URL: PUBLIC_URL } });
    behindNoPublicUrl = await db.buildAppOnSameDatabase(app, { env });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const source = await createRecord(app, token, 'traffic-sources', {
      parameters: [
        { name: 'Click ID', ts_parameter: 'click_id', ts_token: '{clickid}', internal_token: 'var1' },
        { name: 'Zone', ts_parameter: 'zone', ts_token: '{zoneid}', internal_token: 'var2', enabled: false },
        { name: 'Site', ts_parameter: 'site', ts_token: '{site}', internal_token: 'var3' },
      ],
    });
    campaign = await createRecord(app, token, 'tracker-campaigns', { traffic_source_external_id: source.external_id });
    expected = `${PUBLIC_URL}/c/${campaign.external_id}?click_id={clickid}&site={site}`;
  });

  it('answers the create with the campaign URL on the public origin', () => {
    expect(campaign.campaign_url).toBe(expected);
  });

  it('gives it on the record and on every row of the list', async () => {
    const record = await app.inject({
      method: 'GET',
      url: `/api/tracker/campaigns/${campaign.external_id}`,
      headers: bearer(token),
    });
    expect(record.json<{ campaign_url: string }>().campaign_url).toBe(expected);
    const list = await app.inject({ method: 'GET', url: '/api/tracker/campaigns', headers: bearer(token) });
    const rows = list.json<{ list: { external_id: string; campaign_url: string }[] }>().list;
    expect(rows.find((row) => row.external_id === campaign.external_id)?.campaign_url).toBe(expected);
  });

  it('uses the address the dashboard was reached at when no public URL is set', async () => {
    const response = await behindNoPublicUrl.inject({
      method: 'GET',
      url: `/api/tracker/campaigns/${campaign.external_id}`,
      headers: { ...bearer(token), host: 'lan.example:3000' },
    });
    expect(response.json<{ campaign_url: string }>().campaign_url).toBe(
      `http://lan.example:3000/c/${campaign.external_id}?click_id={clickid}&site={site}`,
    );
  });
});
