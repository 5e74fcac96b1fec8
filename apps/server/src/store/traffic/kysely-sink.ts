// The event writer's sink on PostgreSQL: Kysely on the event loop (the work happens in the database
// server), and the statement that stores event lines there, which the journal's replay uses too.
import type { Kysely } from 'kysely';
import { applyRollupDeltas, rollupDeltas } from '../report-rollups.js';
import type { Database } from '../schema.js';
import type { EventTable, NewTrackerClick, NewTrackerLead } from '../tracker-events.js';
import type { EventSink, Settings } from './event-writer.js';
import { lineObjects } from './sqlite-events.js';

/**
 * Issue 23: where a node sends the events it stored, after PostgreSQL committed them (ClickHouse,
 * columnar/clickhouse-feed.ts). Every event of a batch is sent, also those already stored: a batch is
 * retried whole until both took it, and the feed counts an event once.
 */
export interface EventFeed {
  sendEvents(clickIds: readonly string[], leadIds: readonly string[]): Promise<void>;
}

/** Rows per INSERT: well under PostgreSQL's bound-parameter limit (about 35 columns). */
const INSERT_CHUNK = 500;

export class KyselySink implements EventSink {
  /** Rows in the order given, of both tables: each transaction takes the oldest, so stored rows are a prefix. */
  private queue: { table: EventTable; line: string }[] = [];
  private readonly timer: NodeJS.Timeout;
  /** The flush in progress; flushes run one at a time, in order. */
  private flushing: Promise<void> = Promise.resolve();
  private queued = false;
  private closed = false;
  private dropped = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: Settings,
    private readonly feed?: EventFeed,
  ) {
    this.timer = setInterval(() => void this.flush(), settings.flushIntervalMs);
    this.timer.unref();
  }

  get pending(): number {
    return this.queue.length;
  }

  add(tables: readonly EventTable[], lines: readonly string[]): void {
    for (let index = 0; index < lines.length; index += 1)
      this.queue.push({ table: tables[index]!, line: lines[index]! });
    if (this.queue.length > this.settings.maxPending) {
      const dropped = this.queue.length - this.settings.maxPending;
      this.queue.splice(0, dropped);
      this.dropped += dropped;
      this.settings.lost(dropped);
      this.settings.log?.error({ dropped }, 'tracker event buffer full; oldest rows dropped (the journal keeps them)');
    }
    if (this.queue.length >= this.settings.maxBatch && !this.closed) void this.flush();
  }

  flush(): Promise<void> {
    // A flush that has not started yet will write these rows too.
    if (this.queued) return this.flushing;
    this.queued = true;
    this.flushing = this.flushing.then(async () => {
      this.queued = false;
      await this.write();
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.flush();
  }

  /** PostgreSQL's commits wait for its disk. */
  durable(): Promise<void> {
    return Promise.resolve();
  }

  private async write(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, INSERT_CHUNK);
      const droppedBefore = this.dropped;
      try {
        await storeEventLines(this.db, batch, this.feed);
      } catch (error) {
        this.settings.log?.warn({ err: error, rows: batch.length }, 'tracker events not written; will retry');
        return;
      }
      // Rows dropped meanwhile (too many waited) went from the front: only what remains of this batch goes.
      this.queue.splice(0, Math.max(0, batch.length - (this.dropped - droppedBefore)));
    }
  }
}

/**
 * Stores event lines through Kysely in one transaction with their rollups; an event already stored is
 * skipped and not counted again. Answers the rows stored.
 */
export function storeEventLines(
  db: Kysely<Database>,
  events: readonly { table: EventTable; line: string }[],
  feed?: EventFeed,
): Promise<number> {
  const linesOf = (table: EventTable) => events.filter((event) => event.table === table).map((event) => event.line);
  return storeEventRows(
    db,
    lineObjects('tracker_clicks', linesOf('tracker_clicks')) as NewTrackerClick[],
    lineObjects('tracker_leads', linesOf('tracker_leads')) as NewTrackerLead[],
    feed,
  );
}

/** Stores event rows (PostgreSQL's writer, and the journal's replay there), as storeEventLines does. */
export async function storeEventRows(
  db: Kysely<Database>,
  clicks: readonly NewTrackerClick[],
  leads: readonly NewTrackerLead[],
  feed?: EventFeed,
): Promise<number> {
  const stored = await db.transaction().execute(async (transaction) => {
    const storedClicks =
      clicks.length === 0
        ? []
        : await transaction
            .insertInto('tracker_clicks')
            .values([...clicks])
            .onConflict((conflict) => conflict.column('click_id').doNothing())
            .returning('click_id')
            .execute();
    const storedLeads =
      leads.length === 0
        ? []
        : await transaction
            .insertInto('tracker_leads')
            .values([...leads])
            .onConflict((conflict) => conflict.column('lead_id').doNothing())
            .returning('lead_id')
            .execute();
    const clickIds = new Set(storedClicks.map((row) => row.click_id));
    const leadIds = new Set(storedLeads.map((row) => row.lead_id));
    await applyRollupDeltas(
      transaction,
      rollupDeltas(
        clicks.filter((row) => clickIds.has(row.click_id)),
        leads.filter((row) => leadIds.has(row.lead_id)),
      ),
    );
    return clickIds.size + leadIds.size;
  });
  await feed?.sendEvents(
    clicks.map((row) => row.click_id),
    leads.map((row) => row.lead_id),
  );
  return stored;
}
