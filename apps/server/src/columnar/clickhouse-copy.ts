// The copy of what PostgreSQL held when ClickHouse was first configured (clickhouse-feed.ts
// sends what is stored since): clicks and leads in id order, each click with its cost now less the changes
// still logged (the change pass sends those), then every conversion as it is now, at version 0. One node
// copies at a time, with its progress in ClickHouse; a copy stopped midway resumes.
//
// A ClickHouse copied before, wholly or in part, and then left unconfigured while PostgreSQL pruned the
// change logs unread (store/change-logs.ts, `pruneUnread`) lacks those changes: it is not read, and the
// log says so.
import { type Kysely, sql } from 'kysely';
import { type ChangeLogHorizons, prunedUnread } from '../store/change-logs.js';
import type { Database } from '../store/schema.js';
import type { ClickHouseStore } from './clickhouse.js';
import {
  type ConversionRecord,
  columnarRow,
  conversionColumns,
  conversionRow,
  type EventRecord,
  eventColumns,
  SOURCES,
} from './clickhouse-rows.js';
import type { ColumnarRow, ColumnarTable } from './schema.js';

/** Rows per statement and insert, unless the feed's options say otherwise. */
export const BACKFILL_BATCH = 20_000;
/** The advisory lock of the copy (any number no other lock on the database uses), and its wait. */
const BACKFILL_LOCK = 2_023_062_301;
const BACKFILL_WAIT_MS = 1_000;
/** What is copied, each up to the bound recorded when its copy began. */
const COPIED = ['clicks', 'leads', 'conversions'] as const;

export interface CopyContext {
  db: Kysely<Database>;
  store: ClickHouseStore;
  log: { info(message: string): void };
  batch: number;
  /** Appends as the feed's backfill sender (`again`: ClickHouse may hold some already). */
  append(table: ColumnarTable, rows: ColumnarRow[], again: boolean): Promise<void>;
}

export class ClickHouseCopy {
  constructor(private readonly context: CopyContext) {}

  /**
   * Copies what is not copied yet, resuming where an earlier start stopped, with its progress in the log.
   * Answers null, or which pruned changes a ClickHouse copied before lacks (then it copies nothing).
   */
  async run(): Promise<string | null> {
    let missed: string | null = null;
    // One node copies at a time (a PostgreSQL advisory lock on a connection of its own); the others wait
    // for it, then find the copy done. A node that stops mid-copy lets go of the lock with its connection.
    await this.context.db.connection().execute(async (connection) => {
      for (;;) {
        const { rows } = await sql<{
          locked: boolean;
        }>`select pg_try_advisory_lock(${BACKFILL_LOCK}) as locked`.execute(connection);
        if (rows[0]?.locked) break;
        await new Promise((resolve) => setTimeout(resolve, BACKFILL_WAIT_MS));
      }
      try {
        missed = await this.missedUnread();
        if (missed) return;
        // A copy begun now holds every change pruned unread before it (clicks with their cost now,
        // conversions as they are), and none pruned later: recorded before its first row, so that a copy
        // stopped midway and resumed after more were pruned is found short of them.
        if ((await this.context.store.progress('bound:clicks')) === null) {
          await this.recordUnread(await prunedUnread(this.context.db));
        }
        await this.copyBefore();
        await this.copyConversions();
      } finally {
        await sql`select pg_advisory_unlock(${BACKFILL_LOCK})`.execute(connection);
      }
    });
    return missed;
  }

  /** Whether ClickHouse's progress shows the copy complete. */
  async complete(): Promise<boolean> {
    for (const step of COPIED) {
      const bound = await this.context.store.progress(`bound:${step}`);
      const copied = await this.context.store.progress(`copied:${step}`);
      if (bound === null || copied === null || copied < bound) return false;
    }
    return true;
  }

  /**
   * Whether this ClickHouse, copied before (wholly or in part), lacks changes pruned while no ClickHouse
   * read the logs (store/change-logs.ts, `pruneUnread`): what it followed and what its copy held fall
   * short of them. Answers which, or null.
   */
  private async missedUnread(): Promise<string | null> {
    // A copy not begun yet will hold them all.
    if ((await this.context.store.progress('bound:clicks')) === null) return null;
    const pruned = await prunedUnread(this.context.db);
    if (pruned.costChanges === 0 && pruned.conversionChanges === 0) return null;
    const costs = Math.max(
      (await this.context.store.progress('followed:costs')) ?? (await this.context.store.lastCostChange()),
      (await this.context.store.progress('unread:costs')) ?? 0,
    );
    const conversions = Math.max(
      (await this.context.store.progress('followed:conversions')) ?? (await this.context.store.lastConversionChange()),
      (await this.context.store.progress('unread:conversions')) ?? 0,
    );
    const short: string[] = [];
    if (pruned.costChanges > costs) short.push(`cost changes ${costs + 1}…${pruned.costChanges}`);
    if (pruned.conversionChanges > conversions) {
      short.push(`conversion changes ${conversions + 1}…${pruned.conversionChanges}`);
    }
    return short.length > 0 ? short.join(', ') : null;
  }

  private async recordUnread(pruned: ChangeLogHorizons): Promise<void> {
    await this.context.store.setProgress('unread:costs', pruned.costChanges);
    await this.context.store.setProgress('unread:conversions', pruned.conversionChanges);
  }

  /** The id up to which `source` is copied: recorded once, the first time a copy of it starts. */
  private async bound(step: (typeof COPIED)[number], source: string): Promise<number> {
    const recorded = await this.context.store.progress(`bound:${step}`);
    if (recorded !== null) return recorded;
    const found = await sql<{ id: number | string | null }>`select max(id) as id from ${sql.table(source)}`.execute(
      this.context.db,
    );
    const bound = Number(found.rows[0]?.id ?? 0);
    await this.context.store.setProgress(`bound:${step}`, bound);
    return bound;
  }

  /**
   * Every conversion stored when ClickHouse was first configured, as it is now, at version 0: any change
   * of it, before or after, is in the log at a higher version (the change log may have been pruned).
   */
  private async copyConversions(): Promise<void> {
    const bound = await this.bound('conversions', 'conversions');
    let done = (await this.context.store.progress('copied:conversions')) ?? 0;
    while (done < bound) {
      const { rows } = await sql<ConversionRecord & { id: number | string }>`
        select e.id, ${conversionColumns()} from conversions e
          left join tracker_clicks c on c.click_id = e.click_id
          left join tracker_leads l on l.lead_id = e.lead_id
        where e.id > ${done} and e.id <= ${bound} order by e.id limit ${this.context.batch}`.execute(this.context.db);
      const full = rows.length === this.context.batch;
      if (rows.length > 0) await this.context.store.appendConversions(rows.map((record) => conversionRow(record, 0)));
      done = full ? Number(rows[rows.length - 1]!.id) : bound;
      await this.context.store.setProgress('copied:conversions', done);
    }
  }

  private async copyBefore(): Promise<void> {
    for (const table of ['clicks', 'leads'] as const) {
      const { table: source } = SOURCES[table];
      const bound = await this.bound(table, source);
      let done = (await this.context.store.progress(`copied:${table}`)) ?? 0;
      if (done < bound) this.context.log.info(`ClickHouse: copying ${table} ${done + 1}…${bound} from PostgreSQL`);
      // A stop between an insert and its progress leaves that batch sent but not recorded.
      let again = true;
      // One batch at a time: reading the next while ClickHouse stores this one gained little on two cores
      // and slowed the clicks answered meanwhile (bench/README.md).
      while (done < bound) {
        const { rows } = await sql<EventRecord>`select ${eventColumns(table, 'unlogged')} from ${sql.table(source)} e
          where e.id > ${done} and e.id <= ${bound} order by e.id limit ${this.context.batch}`.execute(this.context.db);
        // A batch short of full was the last below the bound.
        const full = rows.length === this.context.batch;
        if (rows.length > 0) {
          await this.context.append(
            table,
            rows.map((record) => columnarRow(record)),
            again,
          );
          again = false;
        }
        done = full ? Number(rows[rows.length - 1]!.id) : bound;
        await this.context.store.setProgress(`copied:${table}`, done);
        if (full) this.context.log.info(`ClickHouse: ${table} copied up to id ${done} of ${bound}`);
      }
    }
  }
}
