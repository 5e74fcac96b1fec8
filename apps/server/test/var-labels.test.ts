import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord } from './fixtures/config-records.js';
import { bearer, buildProxiedAdminApp, type DatabaseUnderTest, forEachDatabase } from './harness.js';

// A report's meta carries the traffic source's names of the vars (`labels: { var2: "Zone" }`): the
// source it is narrowed to (directly or through its campaign), else what every source agrees on.
// On SQLite and PostgreSQL.

const parameter = (name: string, ts: string, internal: string, enabled = true) => ({
  name,
  ts_parameter: ts,
  ts_token: `{${ts}}`,
  internal_token: internal,
  enabled,
});

forEachDatabase('var labels in report meta', (db: DatabaseUnderTest) => {
  let app: FastifyInstance;
  let token: string;
  let propeller: string;
  let campaign: string;

  const labels = async (query: string) => {
    const response = await app.inject({ method: 'GET', url: `/api/reports?${query}`, headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ meta: { labels: Record<string, string> } }>().meta.labels;
  };

  beforeAll(async () => {
    ({ app, adminToken: token } = await buildProxiedAdminApp(db));
    propeller = String(
      (
        await createRecord(app, token, 'traffic-sources', {
          parameters: [
            parameter('Click ID', 'subid', 'var1'),
            parameter('Zone', 'zoneid', 'var2'),
            parameter('Banner', 'bannerid', 'var3'),
            parameter('Off', 'off', 'var4', false),
          ],
        })
      ).external_id,
    );
    await createRecord(app, token, 'traffic-sources', {
      parameters: [
        parameter('Click ID', 'clickid', 'var1'),
        parameter('Site', 'site', 'var2'),
        parameter('Geo', 'geo', 'var5'),
      ],
    });
    const flow = await createRecord(app, token, 'tracker-flows');
    campaign = String(
      (
        await createRecord(app, token, 'tracker-campaigns', {
          flow_external_id: flow.external_id,
          traffic_source_external_id: propeller,
        })
      ).external_id,
    );
  });

  it("names the vars as the report's source does", async () => {
    const expected = { var1: 'Click ID', var2: 'Zone', var3: 'Banner' };
    expect(
      await labels(`group_by=var2&filters=${encodeURIComponent(JSON.stringify({ traffic_source: propeller }))}`),
    ).toEqual(expected);
    expect(await labels(`group_by=var2&filters=${encodeURIComponent(JSON.stringify({ campaign }))}`)).toEqual(expected);
  });

  it('keeps, across sources, only the names they agree on ', async () => {
    expect(await labels('group_by=campaign')).toEqual({ var1: 'Click ID', var3: 'Banner', var5: 'Geo' });
  });
});
