// The event writer's sink on PostgreSQL: Kysely on the event loop (the work happens in the database
// server), and the statement that stores event lines there, which the journal's replay uses too.
import { type Kysely, sql } from 'kysely';
import { CAMPAIGN_KIND } from '../event-workspaces.js';
import { applyRollupDeltas, lpOnly, rollupDeltas } from '../report-rollups.js';
import type { Database } from '../schema.js';
import type { EventKind, EventTable, LpClickEvent, NewTrackerClick, NewTrackerLead } from '../tracker-events.js';
import type { EventSink, Settings } from './event-writer.js';
import { eventId, lineObjects } from './sqlite-events.js';

/**
 * Where a node sends the events it stored, after PostgreSQL committed them (ClickHouse,
 * columnar/clickhouse-feed.ts). Every event of a batch is sent, also those stored before (a replayed
 * journal, sent with `again`): a batch is sent again until the feed took it, and the feed counts an
 * event once.
 */
export interface EventFeed {
  sendEvents(clickIds: readonly string[], leadIds: readonly string[], options?: { again?: boolean }): Promise<void>;
}

/** Events per send to the feed: one read of PostgreSQL (a bound id each) and one ClickHouse insert. */
const SEND_ROWS = 20_000;

/** Rows per INSERT: well under PostgreSQL's bound-parameter limit (about 35 columns). */
const INSERT_CHUNK = 500;

export class KyselySink implements EventSink {
  /** Rows in the order given, of both tables: each transaction takes the oldest, so stored rows are a prefix. */
  private queue: { table: EventKind; line: string }[] = [];
  private readonly timer: NodeJS.Timeout;
  /** The flush in progress; flushes run one at a time, in order. */
  private flushing: Promise<void> = Promise.resolve();
  private queued = false;
  private closed = false;
  private dropped = 0;
  /**
   * Batches PostgreSQL holds that the feed has not taken yet, oldest first. Sending goes on
   * apart from storing, so ClickHouse out of reach never holds up PostgreSQL; the journal keeps these
   * events until the feed took them (`pending` counts them).
   */
  private unsent: { clicks: string[]; leads: string[] }[] = [];
  private unsentRows = 0;
  private sending: Promise<void> = Promise.resolve();
  private sendQueued = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: Settings,
    private readonly feed?: EventFeed,
  ) {
    this.timer = setInterval(() => void this.flush(), settings.flushIntervalMs);
    this.timer.unref();
  }

  get pending(): number {
    return this.queue.length + this.unsentRows;
  }

  add(tables: readonly EventKind[], lines: readonly string[]): void {
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
    if (!this.queued) {
      this.queued = true;
      this.flushing = this.flushing.then(async () => {
        this.queued = false;
        await this.write();
      });
    }
    return this.feed ? this.flushing.then(() => this.send()) : this.flushing;
  }

  /** Sends what PostgreSQL holds and the feed has not taken, in order, until one batch fails. */
  private send(): Promise<void> {
    const feed = this.feed;
    if (!feed) return Promise.resolve();
    if (this.sendQueued) return this.sending;
    this.sendQueued = true;
    this.sending = this.sending.then(async () => {
      this.sendQueued = false;
      while (this.unsent.length > 0) {
        // Stored batches go together, up to SEND_ROWS: ClickHouse wants few large inserts.
        const batches = [];
        let rows = 0;
        for (const batch of this.unsent) {
          if (rows > 0 && rows + batch.clicks.length + batch.leads.length > SEND_ROWS) break;
          batches.push(batch);
          rows += batch.clicks.length + batch.leads.length;
        }
        try {
          await feed.sendEvents(
            batches.flatMap((batch) => batch.clicks),
            batches.flatMap((batch) => batch.leads),
          );
        } catch (error) {
          this.settings.log?.warn({ err: error, rows: this.unsentRows }, 'events not sent to ClickHouse; will retry');
          return;
        }
        // Batches dropped meanwhile (too many waited) went from the front.
        for (const batch of batches) {
          if (this.unsent[0] !== batch) continue;
          this.unsent.shift();
          this.unsentRows -= batch.clicks.length + batch.leads.length;
        }
      }
    });
    return this.sending;
  }

  /** A stored batch for the feed; past `maxPending` the oldest go, and the journal keeps them for the next start. */
  private toSend(batch: readonly { table: EventKind; line: string }[]): void {
    const clicks: string[] = [];
    const leads: string[] = [];
    // An lp click reaches ClickHouse through the cost change log (LP_CLICK_CHANGE), not as an event.
    for (const { table, line } of batch) {
      if (table === 'tracker_clicks') clicks.push(eventId(line));
      else if (table === 'tracker_leads') leads.push(eventId(line));
    }
    this.unsent.push({ clicks, leads });
    this.unsentRows += batch.length;
    let dropped = 0;
    while (this.unsentRows > this.settings.maxPending && this.unsent.length > 1) {
      const oldest = this.unsent.shift()!;
      const rows = oldest.clicks.length + oldest.leads.length;
      this.unsentRows -= rows;
      dropped += rows;
    }
    if (dropped > 0) {
      this.settings.lost(dropped);
      this.settings.log?.error(
        { dropped },
        'too many events wait for ClickHouse; the oldest wait in the journal for the next start',
      );
    }
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
        await storeEventLines(this.db, batch);
      } catch (error) {
        this.settings.log?.warn({ err: error, rows: batch.length }, 'tracker events not written; will retry');
        return;
      }
      // Rows dropped meanwhile (too many waited) went from the front: only what remains of this batch goes.
      this.queue.splice(0, Math.max(0, batch.length - (this.dropped - droppedBefore)));
      if (this.feed) this.toSend(batch);
    }
  }
}

/**
 * Stores event lines through Kysely in one transaction with their rollups; an event already stored is
 * skipped and not counted again. Answers the rows stored.
 */
export function storeEventLines(
  db: Kysely<Database>,
  events: readonly { table: EventKind; line: string }[],
): Promise<number> {
  const linesOf = (table: EventKind) => events.filter((event) => event.table === table).map((event) => event.line);
  return storeEventRows(
    db,
    lineObjects('tracker_clicks', linesOf('tracker_clicks')) as NewTrackerClick[],
    lineObjects('tracker_leads', linesOf('tracker_leads')) as NewTrackerLead[],
    lineObjects('lp_clicks', linesOf('lp_clicks')) as unknown as LpClickEvent[],
  );
}

/** Stores event rows (PostgreSQL's writer, and the journal's replay there), as storeEventLines does. */
export async function storeEventRows(
  db: Kysely<Database>,
  clicks: readonly NewTrackerClick[],
  leads: readonly NewTrackerLead[],
  lpClicks: readonly LpClickEvent[] = [],
): Promise<number> {
  return db.transaction().execute(async (transaction) => {
    await fillWorkspaces(transaction, 'tracker_clicks', clicks);
    await fillWorkspaces(transaction, 'tracker_leads', leads);
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
    return clickIds.size + leadIds.size + (await storeLpClicks(transaction, lpClicks));
  });
}

/**
 * Lp clicks, after the clicks of the same transaction (an lp click is only made for a stored
 * click): each sets its click's `lp_clicked_at` once, and only a click it set is counted in the rollups
 * and logged for the columnar stores. Answers the clicks set.
 */
async function storeLpClicks(db: Kysely<Database>, events: readonly LpClickEvent[]): Promise<number> {
  const wentOn: Record<string, unknown>[] = [];
  for (const event of events) {
    const set = await db
      .updateTable('tracker_clicks')
      .set({ lp_clicked_at: event.lp_clicked_at })
      .where('click_id', '=', event.click_id)
      .where('workspace_id', '=', event.workspace_id)
      .where('lp_clicked_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!set) continue;
    await db.insertInto('tracker_click_cost_changes').values({ click_id: event.click_id, delta: 0, lp: 1 }).execute();
    wentOn.push(set);
  }
  await applyRollupDeltas(db, rollupDeltas(wentOn, []).map(lpOnly));
  return wentOn.length;
}

/**
 * Gives each row without a workspace (a journal line written before migration 0023) its campaign's, or
 * the default one, as the migration did: one query, and none at all when every row has its own.
 */
async function fillWorkspaces(
  db: Kysely<Database>,
  table: EventTable,
  rows: readonly { campaign_external_id: string; workspace_id: number | null }[],
): Promise<void> {
  const missing = [...new Set(rows.filter((row) => !row.workspace_id).map((row) => row.campaign_external_id))];
  if (missing.length === 0) return;
  const [fallback, found] = await Promise.all([
    db.selectFrom('workspaces').select(sql<number | null>`min(id)`.as('id')).executeTakeFirst(),
    db
      .selectFrom('config_records')
      .select(['external_id', 'workspace_id'])
      .where('kind', '=', CAMPAIGN_KIND[table])
      .where('external_id', 'in', missing)
      .execute(),
  ]);
  const byCampaign = new Map(found.map((row) => [row.external_id, row.workspace_id]));
  for (const row of rows) {
    if (!row.workspace_id) row.workspace_id = byCampaign.get(row.campaign_external_id) ?? fallback?.id ?? null;
  }
}
