import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EventWriter } from '../src/store/traffic/event-writer.js';
import { addEvents, generateEvents } from './fixtures/columnar-events.js';
import { campaignOnFlow, createRecord, type StoredRecord } from './fixtures/config-records.js';
import { DE_IP, DESKTOP, GB_IP, IPHONE, US_IP } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// Reports asked while clicks flow: every report answers 200 (or 503 when it waited too long), never a
// 500. On SQLite the reports beyond the rollup cubes read the embedded columnar store, which catches up
// with the clicks before each report: several reports and the catch-ups at once once broke a DuckDB
// statement ("Attempting to execute an unsuccessful or closed pending query result").

const CLICKS = 2_000;
const CLICKS_AT_ONCE = 4;
const REPORT_CLIENTS = 8;
/** Earlier events, so that each report reads enough rows to still be running when the next starts. */
const EARLIER_EVENTS = { sqlite: 60_000, postgres: 5_000 };

forEachDatabase('reports during a click burst', (db) => {
  let app: FastifyInstance;
  let base: string;
  let token: string;
  let campaign: StoredRecord;

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
      trustProxy: true,
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const source = await createRecord(app, token, 'traffic-sources', {
      parameters: [{ name: 'Zone', ts_parameter: 'zone', ts_token: '{zone}', internal_token: 'var1', enabled: true }],
    });
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/go?c={clickid}' });
    campaign = await campaignOnFlow(app, token, source, [
      {
        id: 'g-all',
        name: 'Everyone',
        paths: [{ id: 'p-all', offers: [{ id: 'o1', offer_external_id: offer.external_id }] }],
      },
    ]);
    const workspace = await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow();
    const events = generateEvents(EARLIER_EVENTS[db.kind], 42);
    const writer = new EventWriter(app.store.db, app.store.sqlite ? { sqlite: app.store.sqlite } : {});
    addEvents(writer, {
      clicks: events.clicks.map((click) => ({ ...click, workspace_id: workspace.id })),
      leads: events.leads.map((lead) => ({ ...lead, workspace_id: workspace.id })),
    });
    await writer.close();
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  const today = new Date().toISOString().slice(0, 10);
  const range = `date_from=${today}&date_to=${today}&timezone=UTC`;
  // Shapes no rollup cube holds (the columnar store's, on SQLite), and one a cube holds.
  const shapes = [
    'group_by=subaff&timezone=UTC',
    'group_by=var1,country&timezone=UTC',
    'group_by=campaign,offer,country,day&date_from=2026-10-01&date_to=2026-12-31&timezone=UTC',
    `group_by=campaign,offer,country,day&${range}`,
    `group_by=subaff,day&date_from=${today}&date_to=${today}&timezone=America/New_York`,
    `group_by=campaign&${range}`,
  ];

  it('answers every report 200 or 503, never 500, while clicks flow, and the clicks are all answered', async () => {
    // The clicks' days: from the one they start on to the one the count is read on (midnight may pass).
    const firstDay = new Date().toISOString().slice(0, 10);
    const addresses = [GB_IP, US_IP, DE_IP];
    const agents = [IPHONE, DESKTOP];
    let sent = 0;
    const clickStatuses = new Map<number, number>();
    const clicking = (async () => {
      while (sent < CLICKS) {
        const batch = Array.from({ length: Math.min(CLICKS_AT_ONCE, CLICKS - sent) }, () => sent++);
        await Promise.all(
          batch.map(async (index) => {
            const response = await fetch(
              `${base}/c/${campaign.external_id}?zone=z${index % 17}&subaff=s${index % 23}`,
              {
                redirect: 'manual',
                headers: {
                  'x-forwarded-for': addresses[index % addresses.length]!,
                  'user-agent': agents[index % agents.length]!,
                },
              },
            );
            await response.arrayBuffer();
            clickStatuses.set(response.status, (clickStatuses.get(response.status) ?? 0) + 1);
          }),
        );
      }
    })();
    const reportStatuses = new Map<number, number>();
    const failures: string[] = [];
    let clicksDone = false;
    void clicking.finally(() => {
      clicksDone = true;
    });
    await Promise.all(
      Array.from({ length: REPORT_CLIENTS }, async (_, client) => {
        let turn = client;
        // At least a few rounds each, and on until the clicks are done.
        while (!clicksDone || turn < client + shapes.length) {
          const response = await app.inject({
            method: 'GET',
            url: `/api/reports?${shapes[turn % shapes.length]}`,
            headers: bearer(token),
          });
          turn += 1;
          reportStatuses.set(response.statusCode, (reportStatuses.get(response.statusCode) ?? 0) + 1);
          if (response.statusCode !== 200 && response.statusCode !== 503) failures.push(response.body);
          if (response.statusCode === 503) expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
        }
      }),
    );
    await clicking;
    expect(failures).toEqual([]);
    expect(Object.fromEntries(clickStatuses)).toEqual({ 302: CLICKS });
    expect(reportStatuses.get(200) ?? 0).toBeGreaterThan(0);
    console.log(`reports during ${CLICKS} clicks: ${JSON.stringify(Object.fromEntries(reportStatuses))}`);
    // Every click is in the reports once they are stored (bots' too: many come from datacenter addresses).
    await expect
      .poll(
        async () => {
          const response = await app.inject({
            method: 'GET',
            url: `/api/reports?group_by=subaff&include_bots=true&date_from=${firstDay}&date_to=${new Date().toISOString().slice(0, 10)}&timezone=UTC`,
            headers: bearer(token),
          });
          return response.statusCode === 200 ? response.json<{ totals: { clicks: number } }>().totals.clicks : -1;
        },
        { timeout: 20_000 },
      )
      .toBe(CLICKS);
  }, 180_000);
});
