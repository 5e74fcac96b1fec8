import { existsSync } from 'node:fs';
import path from 'node:path';
import { type TReportQuery, ZCostUpdate, ZReportQuery } from '@switchyard/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBStore } from '../src/columnar/duckdb.js';
import { ColumnarFollower } from '../src/columnar/follower.js';
import { loadConfig } from '../src/config.js';
import { updateCampaignCost } from '../src/costs/service.js';
import { type ColumnarReader, ReportsService } from '../src/reports/service.js';
import { migrateToLatest, openStore, type Store } from '../src/store/database.js';
import type { NewTrackerClick, NewTrackerLead } from '../src/store/tracker-events.js';
import { EventWriter } from '../src/store/traffic/event-writer.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, DatabaseUnderTest, login } from './harness.js';

// Issue 23: reports of clicks and leads read from the embedded columnar store (DuckDB, following the
// SQLite event tables) agree figure for figure with the same reports read from the event tables, over
// events that cross a DST change, with every kind of grouping, filter, var and timezone.

function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T };
}

// 2026-11-01 06:00 UTC: New York leaves daylight time.
const START = Date.parse('2026-10-29T00:00:00.000Z');
const HOURS = 24 * 7;

function generateEvents(count: number, seed: number, firstIndex = 0) {
  const random = generator(seed);
  const clicks: NewTrackerClick[] = [];
  const leads: NewTrackerLead[] = [];
  for (let index = firstIndex; index < firstIndex + count; index += 1) {
    const bot = random.next() < 0.1;
    const routing = {
      created_at: new Date(START + Math.floor(random.next() * HOURS * 3_600_000)).toISOString(),
      campaign_external_id: random.pick(['camp-a', 'camp-b', 'camp-c']),
      flow_external_id: random.pick(['flow-1', 'flow-2']),
      path_group_id: random.pick(['pg-1', 'pg-2', null]),
      path_id: random.pick(['p-1', 'p-2', 'p-3']),
      offer_external_id: random.pick(['offer-1', 'offer-2', 'offer-3', null]),
      traffic_source_external_id: random.pick(['ts-1', null]),
      country: random.pick(['GB', 'US', 'DE', 'IN', null]),
      device: random.pick(['mobile', 'desktop', 'tablet']),
      platform: random.pick(['iOS', 'Android', 'Windows']),
      browser: random.pick(['Chrome', 'Safari', null]),
      subaff: random.pick(['s1', 's2', "s'3", null]),
      var1: random.pick(['zone-1', 'zone-2', null]),
      var7: random.pick(['creative-9', null]),
      region: random.pick(['GB-ENG', 'US-CA', null]),
      city: random.pick(['London', 'Monterey', null]),
      asn: random.pick([15169, 7922, null]),
      isp: random.pick(['Google LLC', 'Comcast', null]),
      language: random.pick(['en', 'fr', null]),
      referrer_domain: random.pick(['news.example', null]),
      reason: 'matched',
      vars: '{}',
      is_bot: bot ? 1 : 0,
      bot_reason: bot ? random.pick(['bot_user_agent', 'datacenter_asn']) : null,
    };
    if (random.next() < 0.8) {
      clicks.push({
        ...routing,
        click_id: `click-${index}`,
        lander_external_id: random.pick(['lander-1', 'lander-2', null]),
        visitor_id: `visitor-${index % 500}`,
        is_unique: random.next() < 0.6 ? 1 : 0,
        cost: Math.round(random.next() * 100) / 1000,
      });
    } else {
      leads.push({
        ...routing,
        lead_id: `lead-${index}`,
        email_hash: `hash-${index}`,
        email_domain: 'example.com',
        decision: 'routed',
        backup_used: 0,
        is_unique: random.next() < 0.5 ? 1 : 0,
      });
    }
  }
  return { clicks, leads };
}

/** Twenty reports: groupings, vars, filters, timezones and ranges. */
const REPORTS: Record<string, unknown>[] = [
  { group_by: 'campaign' },
  { group_by: 'subaff' },
  { group_by: 'var1,country' },
  { group_by: 'campaign,offer,country,day', date_from: '2026-10-29', date_to: '2026-11-04' },
  { group_by: 'day', timezone: 'America/New_York', date_from: '2026-10-29', date_to: '2026-11-04' },
  { group_by: 'hour', timezone: 'America/New_York', date_from: '2026-10-31', date_to: '2026-11-02' },
  { group_by: 'day,hour', timezone: 'Asia/Kolkata', date_from: '2026-10-30', date_to: '2026-11-01' },
  { group_by: 'weekday', timezone: 'Europe/London', date_from: '2026-10-29', date_to: '2026-11-04' },
  { group_by: 'day' },
  { group_by: 'hour' },
  { group_by: 'asn,isp' },
  { group_by: 'bot,bot_reason' },
  { group_by: 'region,city,language' },
  { group_by: 'referrer_domain,device' },
  { group_by: 'var7', vars: JSON.stringify({ var1: 'zone-1' }) },
  { group_by: 'campaign', vars: JSON.stringify({ subaff: "s'3", var1: null }) },
  { group_by: 'offer', filters: JSON.stringify({ campaign: 'camp-b', bot: 'false' }) },
  { group_by: 'country', filters: JSON.stringify({ offer: null, asn: '15169' }) },
  { group_by: 'lander,path_group,path', filters: JSON.stringify({ country: 'GB' }) },
  { group_by: 'subaff,day', timezone: 'America/New_York', date_from: '2026-10-30', filters: '{"device":"mobile"}' },
];

// The embedded store follows SQLite; with PostgreSQL the columnar store is ClickHouse.
describe('the embedded columnar store [sqlite]', () => {
  const db = new DatabaseUnderTest('sqlite');
  afterAll(() => db.cleanup());
  let store: Store;
  let duck: DuckDBStore;
  let follower: ColumnarFollower;
  let columnar: ColumnarReader;

  const write = async (events: ReturnType<typeof generateEvents>) => {
    const writer = new EventWriter(store.db, { maxBatch: 300, ...(store.sqlite ? { sqlite: store.sqlite } : {}) });
    for (const click of events.clicks) writer.addClick(click);
    for (const lead of events.leads) writer.addLead(lead);
    await writer.close();
  };

  beforeAll(async () => {
    store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    await migrateToLatest(store);
    await write(generateEvents(4000, 7));
    duck = await DuckDBStore.open(':memory:');
    follower = await ColumnarFollower.start(store.sqlite!.name, duck, { info: () => undefined });
    columnar = { ready: true, catchUp: () => follower.catchUp(), aggregate: (plan) => duck.aggregate(plan) };
  });

  afterAll(async () => {
    await duck?.close();
    await store?.db.destroy();
  });

  const query = (input: Record<string, unknown>): TReportQuery => ZReportQuery.parse({ limit: 0, ...input });

  it.each(REPORTS.map((report) => [JSON.stringify(report), report] as const))(
    '%s: the columnar store and the event tables agree exactly',
    async (_, report) => {
      const fromEvents = await new ReportsService(store.db, { rollups: false }).run(query(report));
      const fromColumns = await new ReportsService(store.db, { rollups: false, columnar }).run(query(report));
      expect(fromColumns).toEqual(fromEvents);
      expect(fromEvents.total).toBeGreaterThan(0);
    },
  );

  it('copies events written since, before it answers', async () => {
    await write(generateEvents(500, 11, 10_000));
    const report = query({ group_by: 'campaign' });
    const fromColumns = await new ReportsService(store.db, { rollups: false, columnar }).run(report);
    expect(fromColumns.totals.clicks + fromColumns.totals.leads).toBe(4500);
    expect(fromColumns).toEqual(await new ReportsService(store.db, { rollups: false }).run(report));
  });

  it("adds a campaign's new cost, and a cost set over clicks copied in the same pass, once", async () => {
    const reports = new ReportsService(store.db, { rollups: false, columnar });
    const events = new ReportsService(store.db, { rollups: false });
    const report = query({ group_by: 'var1,campaign', timezone: 'UTC' });
    await updateCampaignCost(
      store,
      'camp-a',
      ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 123.45 }),
    );
    expect(await reports.run(report)).toEqual(await events.run(report));
    // Clicks not yet copied when their cost moves: the pass that copies them carries the cost once.
    await write(generateEvents(300, 13, 20_000));
    await updateCampaignCost(
      store,
      'camp-b',
      ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 77, filter: { var1: 'zone-2' } }),
    );
    const after = await events.run(report);
    expect(await reports.run(report)).toEqual(after);
    const campB = after.list.filter((row) => row.campaign === 'camp-b' && row.var1 === 'zone-2');
    expect(campB.reduce((sum, row) => sum + row.cost, 0)).toBeCloseTo(77, 6);
  });

  it('rebuilds a store deleted by hand from the event tables', async () => {
    const fresh = await DuckDBStore.open(':memory:');
    const rebuilt = await ColumnarFollower.start(store.sqlite!.name, fresh, { info: () => undefined });
    expect(rebuilt.behind()).toBe(4800);
    await rebuilt.rebuild();
    expect(rebuilt.behind()).toBe(0);
    const reader: ColumnarReader = {
      ready: true,
      catchUp: () => rebuilt.catchUp(),
      aggregate: (plan) => fresh.aggregate(plan),
    };
    const report = query({ group_by: 'var1,country' });
    expect(await new ReportsService(store.db, { rollups: false, columnar: reader }).run(report)).toEqual(
      await new ReportsService(store.db, { rollups: false }).run(report),
    );
    await fresh.close();
  });
});

describe('columnar store rows', () => {
  it('keeps hostile filter values as values', async () => {
    const duck = await DuckDBStore.open(':memory:');
    const rows = await duck.aggregate({
      source: 'clicks',
      time: 'created_at',
      groups: [],
      buckets: null,
      where: [
        {
          kind: 'equals',
          value: { column: { name: 'subaff', origin: false }, as: 'value' },
          to: "'); drop table clicks; --",
        },
      ],
    });
    expect(rows).toEqual([]);
    expect(await duck.lastSourceId('clicks')).toBe(0);
    await duck.close();
  });
});

describe('the server on SQLite [sqlite]', () => {
  const db = new DatabaseUnderTest('sqlite');
  afterAll(() => db.cleanup());

  it('opens its columnar store in the data directory at start, and reports off the cubes still answer', async () => {
    const database = await db.createDatabase();
    const app = await db.buildApp({
      database,
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    const file = path.join(String(database.SWITCHYARD_DATA_DIR), 'switchyard.columnar.duckdb');
    await expect.poll(() => existsSync(file), { timeout: 20_000 }).toBe(true);
    const token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const response = await app.inject({ method: 'GET', url: '/api/reports?group_by=subaff', headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ total: number }>().total).toBe(0);
  });
});
