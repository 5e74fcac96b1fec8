// Past one machine: PostgreSQL keeps the events and ClickHouse (CLICKHOUSE_URL) answers the
// reports. The same twenty reports as the embedded store's agree figure for figure with the event tables
// after a backfill, events sent by their writers, cost changes, and a journal replayed twice; and two
// tracker nodes writing to one ClickHouse count every click once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type TReportQuery, ZCostUpdate, ZReportQuery } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { ClickHouseStore } from '../src/columnar/clickhouse.js';
import { ClickHouseClient, parseClickHouseUrl } from '../src/columnar/clickhouse-client.js';
import { ClickHouseCopy } from '../src/columnar/clickhouse-copy.js';
import { ClickHouseFeed } from '../src/columnar/clickhouse-feed.js';
import { type ClickHouseNode, startClickHouse } from '../src/columnar/clickhouse-node.js';
import { loadConfig } from '../src/config.js';
import { updateCampaignCost } from '../src/costs/service.js';
import { ReportsService } from '../src/reports/service.js';
import { pruneChangeLogs, prunedUnread, unreadHorizons } from '../src/store/change-logs.js';
import { migrateToLatest, openStore, type Store } from '../src/store/database.js';
import { EngineStore } from '../src/store/traffic/engine-store.js';
import { EventWriter } from '../src/store/traffic/event-writer.js';
import { Journal } from '../src/store/traffic/journal.js';
import { storeEventRows } from '../src/store/traffic/kysely-sink.js';
import { eventLine, eventPayload } from '../src/store/traffic/sqlite-events.js';
import { onClickHouse, runUrl } from './clickhouse-support.js';
import {
  addEvents,
  changeConversions,
  changeLogRows,
  generateConversions,
  generateEvents,
  moveClickCost,
  PAGES,
  REPORTS,
  storeConversions,
} from './fixtures/columnar-events.js';
import { createRecord } from './fixtures/config-records.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, capturedLog, DatabaseUnderTest, login } from './harness.js';

const silent = { info: () => undefined, warn: () => undefined };
const journalLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
const query = (input: Record<string, unknown>): TReportQuery => ZReportQuery.parse({ limit: 0, ...input });

async function dropDatabase(url: string): Promise<void> {
  const client = new ClickHouseClient(parseClickHouseUrl(url));
  await client.execute(`DROP DATABASE IF EXISTS ${client.target.database}`, { inDatabase: false });
}

onClickHouse('reports on PostgreSQL with ClickHouse [postgres]', () => {
  const db = new DatabaseUnderTest('postgres');
  const url = runUrl('agree');
  let store: Store;
  let node: ClickHouseNode;

  const write = async (events: ReturnType<typeof generateEvents>, feed?: ClickHouseNode['feed']) => {
    const writer = new EventWriter(store.db, { maxBatch: 300, ...(feed ? { feed } : {}) });
    addEvents(writer, events);
    await writer.close();
  };

  beforeAll(async () => {
    store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    await migrateToLatest(store);
    // Events stored before ClickHouse was configured: the backfill copies them.
    const before = generateEvents(2000, 7);
    await write(before);
    await storeConversions(store.db, generateConversions(before, 7));
    await updateCampaignCost(
      store,
      'camp-c',
      ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 9 }),
      { instance: true },
    );
    // In batches of 300, the last one short.
    node = startClickHouse(store.db, url, silent, { backfillBatch: 300, pruneAfterMs: 0 });
    await node.started;
    // Events stored since: their writer sends them.
    const since = generateEvents(2000, 8, 10_000);
    await write(since, node.feed);
    await storeConversions(store.db, generateConversions(since, 8));
    await changeConversions(store.db, 7);
    // Sent to ClickHouse already, then removed.
    await node.feed.sendConversionChanges();
    await store.db.deleteFrom('conversions').where('conversion_id', 'in', ['conv-7-5', 'conv-8-6']).execute();
    await updateCampaignCost(
      store,
      'camp-a',
      ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 123.45 }),
      { instance: true },
    );
    await write(generateEvents(500, 9, 20_000), node.feed);
    await updateCampaignCost(
      store,
      'camp-b',
      ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 77, filter: { var1: 'zone-2' } }),
      { instance: true },
    );
    // A journal replayed after a crash sends events PostgreSQL and ClickHouse both hold already.
    const again = generateEvents(2000, 8, 10_000);
    const replayed = { clicks: again.clicks.slice(0, 400), leads: again.leads.slice(0, 100) };
    expect(await storeEventRows(store.db, replayed.clicks, replayed.leads)).toBe(0);
    await node.feed.sendEvents(
      replayed.clicks.map((click) => click.click_id),
      replayed.leads.map((lead) => lead.lead_id),
      { again: true },
    );
  }, 120_000);

  afterAll(async () => {
    await node?.close();
    await store?.db.destroy();
    await dropDatabase(url);
    await db.cleanup();
  });

  it('copies what PostgreSQL held when ClickHouse was configured, and reads it', () => {
    expect(node.reader.ready).toBe(true);
  });

  it.each(REPORTS.map((report) => [JSON.stringify(report), report] as const))(
    '%s: ClickHouse and the event tables agree exactly',
    async (_, report) => {
      const fromEvents = await new ReportsService(store.db, { rollups: false }).run(query(report), { instance: true });
      const fromColumns = await new ReportsService(store.db, { rollups: false, columnar: node.reader }).run(
        query(report),
        { instance: true },
      );
      expect(fromColumns).toEqual(fromEvents);
      expect(fromEvents.total).toBeGreaterThan(0);
    },
  );

  it.each(PAGES.map((report) => [JSON.stringify(report), report] as const))(
    '%s: a page ordered in ClickHouse is the page ordered here',
    async (_, report) => {
      let paged = 0;
      const reader = {
        ...node.reader,
        ready: true,
        report: (asked: Parameters<NonNullable<typeof node.reader.report>>[0]) => {
          paged += 1;
          return node.reader.report!(asked);
        },
      };
      const asked = ZReportQuery.parse(report);
      const fromEvents = await new ReportsService(store.db, { rollups: false }).run(asked, { instance: true });
      const fromColumns = await new ReportsService(store.db, { columnar: reader }).run(asked, { instance: true });
      expect(fromColumns).toEqual(fromEvents);
      expect(paged).toBe(1);
    },
  );

  it('counts each event once, and each cost once, whatever was sent twice', async () => {
    const report = query({ group_by: 'campaign' });
    const fromColumns = await new ReportsService(store.db, { rollups: false, columnar: node.reader }).run(report, {
      instance: true,
    });
    expect(fromColumns.totals.clicks + fromColumns.totals.bot_clicks + fromColumns.totals.leads).toBe(4500);
    const campB = await new ReportsService(store.db, { rollups: false, columnar: node.reader }).run(
      query({ group_by: 'var1', filters: JSON.stringify({ campaign: 'camp-b' }) }),
      { instance: true },
    );
    expect(campB.list.find((row) => row.var1 === 'zone-2')?.cost).toBeCloseTo(77, 6);
    // Kept out when sent, not merged away when read: ClickHouse holds each key once.
    for (const table of ['clicks', 'leads']) {
      const [held] = await node.feed.store.client.select(
        `SELECT count() AS stored, uniqExact(row_key) AS keys FROM ${table}`,
      );
      expect(Number(held?.stored), table).toBe(Number(held?.keys));
      expect(Number(held?.stored), table).toBeGreaterThan(0);
    }
  });

  it('stores in PostgreSQL while ClickHouse refuses, and sends once it takes them again', async () => {
    let refusals = 1;
    const flaky: ClickHouseNode['feed'] = Object.create(node.feed);
    flaky.sendEvents = async (clicks, leads) => {
      if (refusals > 0) {
        refusals -= 1;
        throw new Error('ClickHouse is not reachable (test)');
      }
      return node.feed.sendEvents(clicks, leads);
    };
    const events = generateEvents(600, 21, 30_000);
    const writer = new EventWriter(store.db, { maxBatch: 1000, flushIntervalMs: 60_000, feed: flaky });
    addEvents(writer, events);
    await writer.flush();
    // PostgreSQL holds them all; they wait for ClickHouse (and the journal would keep them).
    const stored = await store.db
      .selectFrom('tracker_clicks')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(
        'click_id',
        'in',
        events.clicks.map((click) => click.click_id),
      )
      .executeTakeFirst();
    expect(Number(stored?.n)).toBe(events.clicks.length);
    expect(writer.pending).toBe(600);
    await writer.flush();
    expect(writer.pending).toBe(0);
    await writer.close();
    const report = query({ group_by: 'subaff,country' });
    const fromColumns = await new ReportsService(store.db, { rollups: false, columnar: node.reader }).run(report, {
      instance: true,
    });
    expect(fromColumns).toEqual(await new ReportsService(store.db, { rollups: false }).run(report, { instance: true }));
    expect(fromColumns.totals.clicks + fromColumns.totals.bot_clicks + fromColumns.totals.leads).toBe(5100);
  });

  it('a journal replayed while ClickHouse is out of reach stays for the next start', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'switchyard-journal-'));
    try {
      const events = generateEvents(300, 23, 40_000);
      const journal = new Journal({ dir, fsyncIntervalMs: 0, log: journalLog });
      const tables = [
        ...events.clicks.map(() => 'tracker_clicks' as const),
        ...events.leads.map(() => 'tracker_leads' as const),
      ];
      const lines = [
        ...events.clicks.map((click) => eventLine('tracker_clicks', click)),
        ...events.leads.map((lead) => eventLine('tracker_leads', lead)),
      ];
      journal.write(eventPayload(tables, lines), 0);
      journal.closeAll(0);
      const unreachable = new ClickHouseFeed(store.db, new ClickHouseStore('http://127.0.0.1:9/switchyard'), silent);
      const first = await new EngineStore(store.db, undefined, unreachable).replayJournal(dir, journalLog);
      expect(first).toMatchObject({ events: 300, stored: 300, unsent: true });
      // The next start, ClickHouse back: stored already, sent now.
      const second = await new EngineStore(store.db, undefined, node.feed).replayJournal(dir, journalLog);
      expect(second).toMatchObject({ events: 300, stored: 0, unsent: false });
      const report = query({ group_by: 'var1' });
      const fromColumns = await new ReportsService(store.db, { rollups: false, columnar: node.reader }).run(report, {
        instance: true,
      });
      expect(fromColumns).toEqual(
        await new ReportsService(store.db, { rollups: false }).run(report, { instance: true }),
      );
      expect(fromColumns.totals.clicks + fromColumns.totals.bot_clicks + fromColumns.totals.leads).toBe(5400);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a new cost reaches the next report, without waiting for the timer', async () => {
    await updateCampaignCost(
      store,
      'camp-a',
      ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 5 }),
      { instance: true },
    );
    const report = query({ group_by: 'campaign,subaff' });
    const fromColumns = await new ReportsService(store.db, { rollups: false, columnar: node.reader }).run(report, {
      instance: true,
    });
    expect(fromColumns).toEqual(await new ReportsService(store.db, { rollups: false }).run(report, { instance: true }));
    expect(
      fromColumns.list.filter((row) => row.campaign === 'camp-a').reduce((sum, row) => sum + row.cost, 0),
    ).toBeCloseTo(5, 6);
  });

  it('checks the next send after an insert whose answer was lost, and stores each event once', async () => {
    const events = generateEvents(200, 31, 50_000);
    await write(events);
    // ClickHouse stores the insert, but its answer never arrives (a timeout, a dropped connection).
    let lost = 1;
    const real = node.feed.store;
    const lossy: ClickHouseStore = Object.create(real);
    lossy.append = async (table, rows, options) => {
      await real.append(table, rows, options);
      if (lost-- > 0) throw new Error('ClickHouse answer lost (test)');
    };
    const feed = new ClickHouseFeed(store.db, lossy, silent);
    const ids = events.clicks.map((click) => click.click_id);
    const leads = events.leads.map((lead) => lead.lead_id);
    await expect(feed.sendEvents(ids, leads)).rejects.toThrow(/answer lost/);
    // The writer sends the batch again, as it does after any failure: the feed asks ClickHouse first.
    await feed.sendEvents(ids, leads);
    const [held] = await real.client.select(
      `SELECT count() AS stored, uniqExact(row_key) AS keys FROM clicks WHERE row_key IN (${ids.map((id) => `'${id}'`).join(', ')})`,
    );
    expect(Number(held?.keys)).toBe(ids.length);
    expect(Number(held?.stored)).toBe(ids.length);
    const report = query({ group_by: 'subaff,country' });
    const fromColumns = await new ReportsService(store.db, { rollups: false, columnar: node.reader }).run(report, {
      instance: true,
    });
    expect(fromColumns).toEqual(await new ReportsService(store.db, { rollups: false }).run(report, { instance: true }));
  });

  it('waits for a cost change whose transaction is still open, however long, and passes one rolled back', async () => {
    const clicks = await store.db
      .selectFrom('tracker_clicks')
      .select(['click_id', 'campaign_external_id'])
      .where('campaign_external_id', '=', 'camp-b')
      .orderBy('id')
      .limit(3)
      .execute();
    let release: (commit: boolean) => void = () => undefined;
    const decided = new Promise<boolean>((resolve) => {
      release = resolve;
    });
    let opened: () => void = () => undefined;
    const isOpen = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const rollback = new Error('rolled back (test)');
    const open = async (click: string, delta: number) =>
      store.db
        .transaction()
        .execute(async (trx) => {
          await moveClickCost(trx, click, delta);
          opened();
          if (!(await decided)) throw rollback;
        })
        .catch((error: unknown) => {
          if (error !== rollback) throw error;
        });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // A change rolled back, then one committed after it: passed once the first is known to be gone.
      const rolledBack = open(clicks[0]!.click_id, 7);
      await isOpen;
      await store.db.transaction().execute((trx) => moveClickCost(trx, clicks[1]!.click_id, 0.5));
      release(false);
      await rolledBack;
      await node.feed.sendCostChanges();
      await node.feed.sendCostChanges();
      const passed = (await node.feed.followed())!.costChanges;
      const last = await store.db
        .selectFrom('tracker_click_cost_changes')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirstOrThrow();
      expect(passed).toBe(Number(last.id));

      // A change held open for ten minutes while another commits after it.
      const later = new Promise<void>((resolve) => {
        opened = resolve;
      });
      const decidedAgain = new Promise<boolean>((resolve) => {
        release = resolve;
      });
      const held = store.db.transaction().execute(async (trx) => {
        await moveClickCost(trx, clicks[2]!.click_id, 2.25);
        opened();
        await decidedAgain;
      });
      await later;
      await store.db.transaction().execute((trx) => moveClickCost(trx, clicks[1]!.click_id, 1));
      await node.feed.sendCostChanges();
      vi.setSystemTime(Date.now() + 10 * 60_000);
      await node.feed.sendCostChanges();
      // Not passed, so not pruned: the change still to come is below what was sent after it.
      expect((await node.feed.followed())!.costChanges).toBe(passed);
      release(true);
      await held;
      await node.feed.sendCostChanges();
      expect((await node.feed.followed())!.costChanges).toBeGreaterThan(passed + 1);
    } finally {
      vi.useRealTimers();
    }
    const report = query({ group_by: 'campaign,offer' });
    const fromEvents = await new ReportsService(store.db, { rollups: false }).run(report, { instance: true });
    expect(
      await new ReportsService(store.db, { rollups: false, columnar: node.reader }).run(report, { instance: true }),
    ).toEqual(fromEvents);
  });

  it('two nodes following the cost changes send each one once, whichever goes first', async () => {
    const nodes = [
      new ClickHouseFeed(store.db, node.feed.store, silent),
      new ClickHouseFeed(store.db, node.feed.store, silent),
    ];
    for (const feed of nodes) await feed.backfill();
    const duplicated = async () => {
      const [held] = await node.feed.store.client.select(
        "SELECT count() - uniqExact(row_key) AS extra FROM clicks WHERE events = 0 AND row_key LIKE 'cost:%'",
      );
      return Number(held?.extra);
    };
    for (const [amount, [first, second]] of [
      [13.5, nodes],
      [27.25, [...nodes].reverse()],
    ] as const) {
      await updateCampaignCost(
        store,
        'camp-b',
        ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount, filter: { var1: 'zone-1' } }),
        { instance: true },
      );
      const [one, two] = await Promise.all([first!.sendCostChanges(), second!.sendCostChanges()]);
      expect(one + two).toBeGreaterThan(0);
      expect(await duplicated()).toBe(0);
    }
    const report = query({ group_by: 'campaign,var1' });
    expect(
      await new ReportsService(store.db, { rollups: false, columnar: node.reader }).run(report, { instance: true }),
    ).toEqual(await new ReportsService(store.db, { rollups: false }).run(report, { instance: true }));
  });

  it('a node started while a change waits resumes where the others stopped, and sends what follows once', async () => {
    const clicks = await store.db
      .selectFrom('tracker_clicks')
      .select('click_id')
      .where('campaign_external_id', '=', 'camp-c')
      .orderBy('id')
      .limit(2)
      .execute();
    let opened: () => void = () => undefined;
    const isOpen = new Promise<void>((resolve) => {
      opened = resolve;
    });
    let commit: () => void = () => undefined;
    const committed = new Promise<void>((resolve) => {
      commit = resolve;
    });
    const held = store.db.transaction().execute(async (trx) => {
      await moveClickCost(trx, clicks[0]!.click_id, 1.5);
      opened();
      await committed;
    });
    await isOpen;
    await store.db.transaction().execute((trx) => moveClickCost(trx, clicks[1]!.click_id, 0.75));
    await node.feed.sendCostChanges();
    const waiting = (await node.feed.followed())!.costChanges;
    // Another node starts now: it resumes before the change still open, not past what was sent after it.
    const started = new ClickHouseFeed(store.db, node.feed.store, silent, { pruneAfterMs: 0 });
    await started.backfill();
    // It sends the change after the open one again, asking ClickHouse first.
    await started.sendCostChanges();
    expect((await started.followed())!.costChanges).toBe(waiting);
    commit();
    await held;
    await started.sendCostChanges();
    await node.feed.sendCostChanges();
    expect((await started.followed())!.costChanges).toBe((await node.feed.followed())!.costChanges);
    expect((await started.followed())!.costChanges).toBeGreaterThan(waiting + 1);
    const [adjustments] = await node.feed.store.client.select(
      "SELECT count() AS stored, uniqExact(row_key) AS keys FROM clicks WHERE events = 0 AND row_key LIKE 'cost:%'",
    );
    expect(Number(adjustments?.stored)).toBe(Number(adjustments?.keys));
    const report = query({ group_by: 'campaign,var1' });
    expect(
      await new ReportsService(store.db, { rollups: false, columnar: node.reader }).run(report, { instance: true }),
    ).toEqual(await new ReportsService(store.db, { rollups: false }).run(report, { instance: true }));
  });

  it('prunes the changes ClickHouse holds; a click sent after, and a ClickHouse copied afresh, count each cost once', async () => {
    // Clicks stored while ClickHouse was out of reach for their writer, and a cost set over them.
    const late = generateEvents(300, 41, 60_000);
    await write(late);
    await updateCampaignCost(
      store,
      'camp-a',
      ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 41.2, filter: { var1: 'zone-1' } }),
      { instance: true },
    );
    await changeConversions(store.db, 8);
    // The changes reach ClickHouse before those clicks do, and are pruned.
    await node.feed.sendCostChanges();
    await node.feed.sendConversionChanges();
    const horizons = await node.feed.followed();
    expect(horizons).not.toBeNull();
    const logged = await changeLogRows(store.db);
    expect(await pruneChangeLogs(store.db, horizons!)).toBe(logged);
    expect(logged).toBeGreaterThan(0);
    expect(await changeLogRows(store.db)).toBe(0);
    // Their writer sends them now, with the cost they were stored with: the change counts once.
    await node.feed.sendEvents(
      late.clicks.map((click) => click.click_id),
      late.leads.map((lead) => lead.lead_id),
      { again: true },
    );
    const report = query({ group_by: 'campaign,var1', timezone: 'Asia/Kolkata' });
    const fromEvents = await new ReportsService(store.db, { rollups: false }).run(report, { instance: true });
    expect(
      fromEvents.list
        .filter((row) => row.campaign === 'camp-a' && row.var1 === 'zone-1')
        .reduce((sum, row) => sum + row.cost, 0),
    ).toBeCloseTo(41.2, 6);
    expect(
      await new ReportsService(store.db, { rollups: false, columnar: node.reader }).run(report, { instance: true }),
    ).toEqual(fromEvents);

    // A ClickHouse that starts empty now: every click with its cost now, every conversion as it is.
    const freshUrl = runUrl('afresh');
    const fresh = startClickHouse(store.db, freshUrl, silent, { backfillBatch: 300, pruneAfterMs: 0 });
    try {
      await fresh.started;
      for (const asked of [report, query({ group_by: 'offer,country', timezone: 'America/New_York' })]) {
        const fromFresh = await new ReportsService(store.db, { rollups: false, columnar: fresh.reader }).run(asked, {
          instance: true,
        });
        expect(fromFresh).toEqual(
          await new ReportsService(store.db, { rollups: false }).run(asked, { instance: true }),
        );
        expect(fromFresh.totals.approved).toBeGreaterThan(0);
      }
    } finally {
      await fresh.close();
      await dropDatabase(freshUrl);
    }
  });
});

onClickHouse('two tracker nodes writing to one ClickHouse [postgres]', () => {
  const db = new DatabaseUnderTest('postgres');
  const url = runUrl('nodes');
  const apps: FastifyInstance[] = [];
  const dirs: string[] = [];
  const logs: string[][] = [];
  let env: NodeJS.ProcessEnv;
  let token: string;
  let campaignId: string;

  async function node(): Promise<FastifyInstance> {
    // Each node its own data directory: its own event journal, as on two machines.
    const dir = await mkdtemp(path.join(tmpdir(), 'switchyard-node-'));
    dirs.push(dir);
    const lines: string[] = [];
    logs.push(lines);
    const app = await buildApp({
      config: loadConfig({ ...env, SWITCHYARD_DATA_DIR: dir }),
      print: () => undefined,
      logger: capturedLog(lines),
    });
    apps.push(app);
    return app;
  }

  beforeAll(async () => {
    env = {
      ...(await db.createDatabase()),
      CLICKHOUSE_URL: url,
      SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
      SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SWITCHYARD_WEB_DIST: path.join(tmpdir(), 'switchyard-no-dashboard'),
      SWITCHYARD_CACHE_DIR: path.join(tmpdir(), 'switchyard-test-cache'),
    };
    const first = await node();
    token = await login(first, ADMIN_EMAIL, ADMIN_PASSWORD);
    const offer = await createRecord(first, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    const flow = await createRecord(first, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    campaignId = String(
      (await createRecord(first, token, 'tracker-campaigns', { flow_external_id: flow.external_id })).external_id,
    );
    await node();
  }, 60_000);

  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    await dropDatabase(url);
    await db.cleanup();
  });

  it('counts the clicks of both nodes once each, and both nodes report the same figures', async () => {
    const visitors = ['81.2.69.160', '2.125.160.216', '89.160.20.112', '216.160.83.56'];
    // Both read ClickHouse from now on (else they would read PostgreSQL, and agree trivially).
    for (const lines of logs) {
      await expect
        .poll(() => lines.some((line) => line.includes('ClickHouse: holds every event')), { timeout: 20_000 })
        .toBe(true);
    }
    const sent = 200;
    await Promise.all(
      Array.from({ length: sent }, async (_, index) => {
        const response = await apps[index % 2]!.inject({
          method: 'GET',
          url: `/c/${campaignId}`,
          remoteAddress: visitors[index % visitors.length],
        });
        expect(response.statusCode, response.body).toBe(302);
      }),
    );
    for (const app of apps) await app.engine.flush();

    // ClickHouse holds each click once, from the node that took it.
    const client = new ClickHouseClient(parseClickHouseUrl(url));
    const [counted] = await client.select('SELECT count() AS clicks, uniqExact(row_key) AS keys FROM clicks');
    expect(Number(counted?.clicks)).toBe(sent);
    expect(Number(counted?.keys)).toBe(sent);

    const store = openStore(loadConfig(env));
    try {
      // Four groupings: no rollup cube holds them, so the reports read ClickHouse. The visitors send no
      // user agent, so their clicks are bots': counted in.
      const report = 'group_by=campaign,offer,country,day&include_bots=true';
      const fromEvents = await new ReportsService(store.db, { rollups: false }).run(
        query(Object.fromEntries(new URLSearchParams(report))),
        { instance: true },
      );
      expect(fromEvents.totals.clicks).toBe(sent);
      for (const app of apps) {
        const response = await app.inject({
          method: 'GET',
          url: `/api/reports?${report}&limit=0`,
          headers: bearer(token),
        });
        expect(response.statusCode, response.body).toBe(200);
        // The API adds the vars' names (meta.labels); the figures are the service's.
        const { meta: _meta, ...figures } = response.json<Record<string, unknown>>();
        expect(figures).toEqual(fromEvents);
      }
    } finally {
      await store.db.destroy();
    }
  });
});

onClickHouse('a node whose ClickHouse is out of reach [postgres]', () => {
  const db = new DatabaseUnderTest('postgres');

  it('answers clicks and reports from PostgreSQL, and says why', async () => {
    const lines: string[] = [];
    const database = await db.createDatabase();
    const app = await buildApp({
      config: loadConfig({
        ...database,
        // Nothing listens on the discard port.
        CLICKHOUSE_URL: 'http://default:@127.0.0.1:9/switchyard',
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        SWITCHYARD_WEB_DIST: path.join(tmpdir(), 'switchyard-no-dashboard'),
        SWITCHYARD_CACHE_DIR: path.join(tmpdir(), 'switchyard-test-cache'),
      }),
      print: () => undefined,
      logger: capturedLog(lines),
    });
    try {
      const token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
      const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
      const flow = await createRecord(app, token, 'tracker-flows', {
        path_groups: [
          { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
        ],
      });
      const campaign = await createRecord(app, token, 'tracker-campaigns', { flow_external_id: flow.external_id });
      for (let index = 0; index < 5; index += 1) {
        const response = await app.inject({
          method: 'GET',
          url: `/c/${campaign.external_id}`,
          remoteAddress: '81.2.69.160',
        });
        expect(response.statusCode, response.body).toBe(302);
      }
      await app.engine.flush();
      const response = await app.inject({
        method: 'GET',
        // Clicks without a user agent are bots': counted in.
        url: '/api/reports?group_by=campaign,offer,country,day&include_bots=true',
        headers: bearer(token),
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<{ totals: { clicks: number } }>().totals.clicks).toBe(5);
      expect(lines.some((line) => line.includes('ClickHouse not ready, reports read PostgreSQL'))).toBe(true);
      // The clicks wait for ClickHouse (and the journal keeps them meanwhile).
      expect(lines.some((line) => line.includes('events not sent to ClickHouse; will retry'))).toBe(true);
    } finally {
      await app.close();
      await db.cleanup();
    }
  });
});

/**
 * A PostgreSQL database holding 1,500 events and their conversions (`seed`), and the ClickHouse database
 * `name`, dropped after the suite.
 */
function storedEvents(seed: number, name: string): { store: Store; url: string } {
  const db = new DatabaseUnderTest('postgres');
  const context = { store: undefined as unknown as Store, url: runUrl(name) };
  beforeAll(async () => {
    context.store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    await migrateToLatest(context.store);
    const events = generateEvents(1500, seed);
    const writer = new EventWriter(context.store.db, { maxBatch: 300 });
    addEvents(writer, events);
    await writer.close();
    await storeConversions(context.store.db, generateConversions(events, seed));
  }, 60_000);
  afterAll(async () => {
    await context.store?.db.destroy();
    await dropDatabase(context.url);
    await db.cleanup();
  });
  return context;
}

const DAY_MS = 24 * 3600_000;

/**
 * Cost and conversion changes made while no ClickHouse is configured, marked by a node without
 * CLICKHOUSE_URL and pruned by it a week later.
 */
async function changedAndPrunedUnread(store: Store, seed: number): Promise<void> {
  await updateCampaignCost(
    store,
    'camp-a',
    ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: seed }),
    { instance: true },
  );
  await changeConversions(store.db, seed);
  const logged = await changeLogRows(store.db);
  expect(logged).toBeGreaterThan(0);
  const now = Date.now();
  expect(await unreadHorizons(store.db, now)).toBeNull();
  expect(await unreadHorizons(store.db, now + 6 * DAY_MS)).toBeNull();
  const horizons = await unreadHorizons(store.db, now + 7 * DAY_MS + 1);
  expect(horizons).not.toBeNull();
  expect(await pruneChangeLogs(store.db, horizons!)).toBe(logged);
  expect(await prunedUnread(store.db)).toEqual(horizons);
}

/** A node started on a ClickHouse that lacks pruned changes: not read, and its log says what to do. */
async function expectShortOfPruned(store: Store, url: string): Promise<void> {
  const warnings: string[] = [];
  const node = startClickHouse(store.db, url, { info: () => undefined, warn: (line) => warnings.push(line) });
  await node.started;
  expect(node.reader.ready).toBe(false);
  expect(warnings.join('\n')).toMatch(/misses cost or conversion changes .*cost changes \d+…\d+.*Drop its database/);
  await node.close();
}

/** Its database dropped, a ClickHouse is copied afresh with every figure as PostgreSQL holds it. */
async function expectCopiedAfresh(store: Store, url: string): Promise<void> {
  await dropDatabase(url);
  const fresh = startClickHouse(store.db, url, silent, { pruneAfterMs: 0 });
  try {
    await fresh.started;
    expect(fresh.reader.ready).toBe(true);
    for (const report of [
      query({ group_by: 'campaign,var1' }),
      query({ group_by: 'offer,country', timezone: 'Asia/Tokyo' }),
    ]) {
      const fromColumns = await new ReportsService(store.db, { rollups: false, columnar: fresh.reader }).run(report, {
        instance: true,
      });
      expect(fromColumns).toEqual(
        await new ReportsService(store.db, { rollups: false }).run(report, { instance: true }),
      );
      expect(fromColumns.totals.cost).toBeGreaterThan(0);
      expect(fromColumns.totals.approved).toBeGreaterThan(0);
    }
  } finally {
    await fresh.close();
  }
}

onClickHouse('changes pruned while no ClickHouse read them [postgres]', () => {
  const setup = storedEvents(61, 'unread');

  it('are pruned a week after they were made; a ClickHouse copied before says what it misses, and one copied afresh agrees', async () => {
    const { store, url } = setup;
    // Copied once, then ClickHouse is no longer configured.
    const first = startClickHouse(store.db, url, silent, { pruneAfterMs: 0 });
    await first.started;
    expect(first.reader.ready).toBe(true);
    await first.close();

    await changedAndPrunedUnread(store, 61);

    // ClickHouse configured again: its copy lacks those changes, so reports stay on PostgreSQL.
    await expectShortOfPruned(store, url);

    await expectCopiedAfresh(store, url);
    // And a later start of it is not taken for one that missed them.
    const restarted = startClickHouse(store.db, url, silent);
    await restarted.started;
    expect(restarted.reader.ready).toBe(true);
    await restarted.close();
  });
});

onClickHouse('a copy stopped midway while changes were pruned unread [postgres]', () => {
  const setup = storedEvents(62, 'midway');

  it('is found short of them when it resumes, and is not read', async () => {
    const { store, url } = setup;
    // The first start copies one batch of clicks, then stops (a node killed mid-copy).
    const clickhouse = await new ClickHouseStore(url).open();
    const copy = new ClickHouseCopy({
      db: store.db,
      store: clickhouse,
      log: silent,
      batch: 300,
      append: async (table, rows) => {
        if ((await clickhouse.progress(`copied:${table}`)) === 300) throw new Error('stopped');
        await clickhouse.append(table, rows);
      },
    });
    await expect(copy.run()).rejects.toThrow('stopped');
    expect(await clickhouse.progress('copied:clicks')).toBe(300);
    await clickhouse.close();

    // Its copied clicks' costs change meanwhile, and those changes are pruned unread: resumed, the copy
    // would never hold them.
    await changedAndPrunedUnread(store, 62);
    await expectShortOfPruned(store, url);

    await expectCopiedAfresh(store, url);
  });
});
