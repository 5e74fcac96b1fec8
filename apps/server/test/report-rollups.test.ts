import { type ReportGroup, type TReportQuery, ZReportQuery } from '@switchyard/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { ReportsService } from '../src/reports/service.js';
import { migrateToLatest, openStore, type Store } from '../src/store/database.js';
import { bucketOf, CUBES, cubeFor, rollupDeltas } from '../src/store/report-rollups.js';
import { backfillRollups, rollupBotsBackfill } from '../src/store/report-rollups-repair.js';
import type { NewTrackerClick, NewTrackerLead } from '../src/store/tracker-events.js';
import { EventWriter } from '../src/store/traffic/event-writer.js';
import { forEachDatabase } from './harness.js';

// Reports read clicks and leads from rollup cubes when one holds what they ask.
// Here the same reports are run from the cubes and from the events, over a few thousand generated
// events written by the tracker's EventWriter, and must agree exactly; the migration's backfill must
// rebuild exactly what the writer kept.

describe('rollup cubes', () => {
  it('buckets times by UTC quarter-hour', () => {
    expect(bucketOf('2026-11-10T03:00:00.000Z')).toBe('2026-11-10T03:00');
    expect(bucketOf('2026-11-10T03:14:59.999Z')).toBe('2026-11-10T03:00');
    expect(bucketOf('2026-11-10T03:15:00.000Z')).toBe('2026-11-10T03:15');
    expect(bucketOf('2026-11-10T23:59:00.000Z')).toBe('2026-11-10T23:45');
  });

  it('picks the smallest cube holding every dimension, or none', () => {
    expect(cubeFor([])?.id).toBe('all');
    expect(cubeFor(['country'])?.id).toBe('country');
    expect(cubeFor(['offer', 'campaign'])?.id).toBe('campaign+offer');
    expect(cubeFor(['campaign', 'device'])).toBeNull();
  });

  it('adds each event once to every cube', () => {
    const base = { visitor_id: 'v', reason: 'matched', vars: '{}' };
    const clicks = [
      {
        ...base,
        click_id: 'a',
        created_at: '2026-11-10T03:01:00.000Z',
        campaign_external_id: 'c1',
        is_unique: 1,
        cost: 0.5,
        country: 'GB',
      },
      {
        ...base,
        click_id: 'b',
        created_at: '2026-11-10T03:02:00.000Z',
        campaign_external_id: 'c1',
        is_unique: 0,
        cost: 0.25,
        country: null,
      },
    ] as NewTrackerClick[];
    const deltas = rollupDeltas(clicks, []);
    for (const cube of CUBES) {
      const rows = deltas.filter((delta) => delta.cube === cube.id);
      expect(rows.reduce((sum, row) => sum + row.clicks, 0)).toBe(2);
      expect(rows.reduce((sum, row) => sum + row.unique_clicks, 0)).toBe(1);
      expect(rows.reduce((sum, row) => sum + row.cost, 0)).toBe(0.75);
    }
    expect(deltas.filter((delta) => delta.cube === 'country').map((delta) => delta.k1)).toEqual(['', 'GB']);
  });
});

/** A small deterministic generator (the tests must not depend on Math.random). */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T };
}

const START = Date.parse('2026-11-08T00:00:00.000Z');
const HOURS = 80;

function generateEvents(count: number) {
  const random = generator(7);
  const campaigns = ['camp-a', 'camp-b', 'camp-c'];
  const offers = ['offer-1', 'offer-2', 'offer-3', null];
  const countries = ['GB', 'US', 'DE', 'IN', null];
  const clicks: NewTrackerClick[] = [];
  const leads: NewTrackerLead[] = [];
  for (let index = 0; index < count; index += 1) {
    const createdAt = new Date(START + Math.floor(random.next() * HOURS * 3_600_000)).toISOString();
    const routing = {
      created_at: createdAt,
      campaign_external_id: random.pick(campaigns),
      flow_external_id: random.pick(['flow-1', 'flow-2']),
      path_group_id: random.pick(['pg-1', 'pg-2', null]),
      path_id: random.pick(['p-1', 'p-2', 'p-3']),
      offer_external_id: random.pick(offers),
      traffic_source_external_id: random.pick(['ts-1', null]),
      country: random.pick(countries),
      device: random.pick(['mobile', 'desktop', 'tablet']),
      platform: random.pick(['iOS', 'Android', 'Windows']),
      browser: random.pick(['Chrome', 'Safari', null]),
      subaff: random.pick(['s1', 's2', null]),
      var1: random.pick(['zone-1', 'zone-2', null]),
      reason: 'matched',
      vars: '{}',
      // The writer gives each its campaign's workspace.
      workspace_id: 0,
      // Some clicks and leads with a bot verdict.
      is_bot: random.next() < 0.15 ? 1 : 0,
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
      });
    }
  }
  return { clicks, leads };
}

const GROUPINGS: ReportGroup[][] = [
  ['campaign'],
  ['offer'],
  ['country'],
  ['day'],
  ['hour'],
  ['lander'],
  ['path_group', 'path'],
  ['device'],
  ['affiliate_network'],
  ['campaign', 'offer'],
  ['campaign', 'country', 'day'],
  ['offer', 'country', 'hour'],
  // No cube: the event scan either way, here to show the comparison is not one-sided.
  ['campaign', 'device'],
];

forEachDatabase('report rollups', (db) => {
  let store: Store;

  beforeAll(async () => {
    store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    await migrateToLatest(store);
    const { clicks, leads } = generateEvents(4000);
    // Rows pass through the tracker's writer, in its own batches.
    const writer = new EventWriter(store.db, { maxBatch: 300, ...(store.sqlite ? { sqlite: store.sqlite } : {}) });
    for (const click of clicks) writer.addClick(click);
    for (const lead of leads) writer.addLead(lead);
    await writer.close();
    expect(writer.pending).toBe(0);
  });

  afterAll(async () => {
    await store?.db.destroy();
  });

  const query = (input: Record<string, unknown>): TReportQuery => ZReportQuery.parse({ limit: 0, ...input });

  it.each(GROUPINGS.map((groups) => [groups.join(', '), groups] as const))(
    'grouped by %s, the cubes and the events agree exactly',
    async (_, groups) => {
      const fromCubes = new ReportsService(store.db);
      const fromEvents = new ReportsService(store.db, { rollups: false });
      for (const extra of [
        {},
        { date_from: '2026-11-09', date_to: '2026-11-10' },
        { timezone: 'Asia/Kolkata', date_from: '2026-11-09', date_to: '2026-11-10' },
        { timezone: 'America/New_York', date_from: '2026-11-08' },
        { filters: JSON.stringify({ campaign: 'camp-b' }) },
        { filters: JSON.stringify({ offer: null, country: 'GB' }) },
        { include_bots: 'true' },
        { include_bots: 'true', timezone: 'Asia/Kolkata', date_from: '2026-11-09', date_to: '2026-11-10' },
      ]) {
        const report = query({ group_by: groups.join(','), ...extra });
        const expected = await fromEvents.run(report, { instance: true });
        expect(await fromCubes.run(report, { instance: true })).toEqual(expected);
        expect(expected.totals.clicks + expected.totals.leads).toBeGreaterThan(0);
      }
    },
  );

  it('counts every event written', async () => {
    const { totals } = await new ReportsService(store.db).run(query({ group_by: 'day' }), { instance: true });
    expect(totals.bot_clicks).toBeGreaterThan(0);
    expect(totals.clicks + totals.bot_clicks + totals.leads).toBe(4000);
    const withBots = await new ReportsService(store.db).run(query({ group_by: 'day', include_bots: 'true' }), {
      instance: true,
    });
    expect(withBots.totals.clicks).toBe(totals.clicks + totals.bot_clicks);
    expect(withBots.totals.bot_clicks).toBe(totals.bot_clicks);
    expect(withBots.totals.unique_clicks).toBeGreaterThan(totals.unique_clicks);
  });

  it("rebuilds from the events exactly what the writer kept (the migration's backfill)", async () => {
    const read = () =>
      store.db
        .selectFrom('report_rollups')
        .selectAll()
        .orderBy(['cube', 'bucket', 'k1', 'k2'])
        .execute()
        .then((rows) =>
          rows.map((row) => ({
            ...row,
            clicks: Number(row.clicks),
            unique_clicks: Number(row.unique_clicks),
            leads: Number(row.leads),
            bot_clicks: Number(row.bot_clicks),
            bot_unique_clicks: Number(row.bot_unique_clicks),
            cost: Math.round(Number(row.cost) * 1e6) / 1e6,
          })),
        );
    const kept = await read();
    expect(kept.length).toBeGreaterThan(CUBES.length);
    expect(kept.some((row) => row.bot_unique_clicks > 0)).toBe(true);
    await store.db.deleteFrom('report_rollups').execute();
    await backfillRollups(store.db, true, 'with');
    expect(await read()).toEqual(kept);
    // Migration 0039: rows that counted no bots get them from the bot clicks alone.
    await store.db.updateTable('report_rollups').set({ bot_clicks: 0, bot_unique_clicks: 0 }).execute();
    await rollupBotsBackfill(store.db);
    expect(await read()).toEqual(kept);
  });
});
