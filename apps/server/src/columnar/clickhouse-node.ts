// What one node does with ClickHouse when `CLICKHOUSE_URL` is set (with PostgreSQL): its event
// writer sends what it stores (clickhouse-feed.ts), it copies what PostgreSQL held before, it sends cost
// changes, and its reports read ClickHouse once the copy is complete. ClickHouse out of reach never
// stops a click: the writer retries and the journal keeps events, and reports read PostgreSQL meanwhile.
import type { Kysely } from 'kysely';
import type { ColumnarReader } from '../report-plan/columnar-reader.js';
import { ChangeLogPruner } from '../store/change-logs.js';
import type { Database } from '../store/schema.js';
import { ClickHouseStore } from './clickhouse.js';
import { ClickHouseFeed, type FeedLog, type FeedOptions } from './clickhouse-feed.js';

/** How often cost and conversion changes are sent without a report asking, and a failed start is tried again. */
const CHANGES_EVERY_MS = 5_000;
const RETRY_EVERY_MS = 10_000;
/** How often conversions' parts are merged when changes were sent (clickhouse-feed.ts, compactConversions). */
const COMPACT_EVERY_MS = 3_600_000;

export interface ClickHouseNode {
  feed: ClickHouseFeed;
  reader: ColumnarReader;
  /** Resolves once the tables exist and the backfill is done (for tests and the bench). */
  started: Promise<void>;
  close(): Promise<void>;
}

export function startClickHouse(
  db: Kysely<Database>,
  url: string,
  log: FeedLog,
  options: FeedOptions = {},
): ClickHouseNode {
  const store = new ClickHouseStore(url);
  const feed = new ClickHouseFeed(db, store, log, options);
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    });

  const started = (async () => {
    for (;;) {
      try {
        await store.open();
        await feed.backfill();
        return;
      } catch (error) {
        if (closed) return;
        log.warn(`ClickHouse not ready, reports read PostgreSQL; trying again: ${String(error)}`);
        await wait(RETRY_EVERY_MS);
      }
    }
  })();

  // Changes sent are pruned from PostgreSQL's logs now and then (feed.followed says how far).
  const pruner = new ChangeLogPruner(db, () => feed.followed(), { info: (message) => log.warn(message) });

  const changes = setInterval(() => {
    if (!feed.ready) return;
    pruner.maybePrune();
    feed.sendCostChanges().catch((error: unknown) => log.warn(`ClickHouse: cost changes not sent: ${String(error)}`));
    feed
      .sendConversionChanges()
      .catch((error: unknown) => log.warn(`ClickHouse: conversion changes not sent: ${String(error)}`));
  }, CHANGES_EVERY_MS);
  changes.unref();
  const compacting = setInterval(() => {
    if (feed.ready) void feed.compactConversions();
  }, COMPACT_EVERY_MS);
  compacting.unref();

  return {
    feed,
    started,
    reader: {
      kind: 'clickhouse',
      get ready() {
        return feed.ready;
      },
      conversions: true,
      // A report sees every cost and conversion change made before it (events: as soon as their writer
      // stored them).
      catchUp: () => Promise.all([feed.sendCostChanges(), feed.sendConversionChanges()]),
      aggregate: (plan) => store.aggregate(plan),
      report: (paged) => store.report(paged),
    },
    async close() {
      closed = true;
      clearInterval(changes);
      clearInterval(compacting);
      if (timer) clearTimeout(timer);
      await pruner.idle();
      await store.close();
    },
  };
}
