import path from 'node:path';
import { ZCostUpdate } from '@switchyard/domain';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { updateCampaignCost } from '../src/costs/service.js';
import { openEmbeddedColumnar } from '../src/reports/sources/duckdb.js';
import { migrateToLatest, openStore } from '../src/store/database.js';
import { EventWriter } from '../src/store/traffic/event-writer.js';
import { addEvents, changeLogRows, generateEvents } from './fixtures/columnar-events.js';
import { DatabaseUnderTest } from './harness.js';

// The report engine's event loop answers reports and catches its columnar store up. The change logs it
// prunes are deleted while the event writer, on another thread, holds SQLite's write lock most of the
// time: the delete waits on a timer, so the engine's event loop keeps running meanwhile.

describe("the report engine's pruning [sqlite]", () => {
  const db = new DatabaseUnderTest('sqlite');
  afterAll(() => db.cleanup());

  it('waits for the write lock on a timer, and prunes once it is released', async () => {
    const database = await db.createDatabase();
    const store = openStore(loadConfig({ ...database }));
    await migrateToLatest(store);
    const writer = new EventWriter(store.db, { sqlite: store.sqlite! });
    addEvents(writer, generateEvents(400, 5));
    await writer.close();
    await updateCampaignCost(
      store,
      'camp-a',
      ZCostUpdate.parse({ start: '2026-10-29', end: '2026-11-05', amount: 12 }),
      { instance: true },
    );
    expect(await changeLogRows(store.db, 'tracker_click_cost_changes')).toBeGreaterThan(10);

    // Another connection (the event writer's, in the server) holds the write lock.
    const other = new SQLite(store.sqlite!.name);
    other.exec('begin immediate');
    let longestGap = 0;
    let last = performance.now();
    const ticks = setInterval(() => {
      longestGap = Math.max(longestGap, performance.now() - last);
      last = performance.now();
    }, 10);
    const logged: string[] = [];
    const file = path.join(String(database.SWITCHYARD_DATA_DIR), 'engine.duckdb');
    const engine = await openEmbeddedColumnar(store.sqlite!.name, file, 1, (message) => logged.push(message));
    try {
      // Built, then pruning (which starts at once) waits for the lock; a timer releases it.
      await expect.poll(() => engine.reader.ready, { timeout: 20_000, interval: 20 }).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
      other.exec('commit');
      await expect.poll(() => changeLogRows(store.db, 'tracker_click_cost_changes'), { timeout: 3000 }).toBe(0);
      expect(logged.filter((message) => message.includes('not pruned'))).toEqual([]);
      // SQLite's busy handler would have slept this thread for the whole five-second timeout.
      expect(longestGap).toBeLessThan(1000);
    } finally {
      clearInterval(ticks);
      if (other.inTransaction) other.exec('rollback');
      other.close();
      await engine.close();
      await store.db.destroy();
    }
  });
});
