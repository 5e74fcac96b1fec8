// Every statement the traffic engine runs against the database: the routing's config rows, what today's
// stored events spent of the caps, the click or lead a postback names, and the journal's replay. A
// postback's conversion is stored and moved by conversions/move-conversion.ts; events themselves go
// through the event writer and its journal (event-writer.ts, journal.ts).
import type SQLite from 'better-sqlite3';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { NewPostbackLog } from '../conversions.js';
import type { Database } from '../schema.js';
import { scopeCondition } from '../scope.js';
import type {
  EventTable,
  LpClickEvent,
  NewTrackerClick,
  NewTrackerLead,
  TrackerClickTable,
  TrackerLeadTable,
} from '../tracker-events.js';
import { type JournalLog, leftSegments, readSegment } from './journal.js';
import { type EventFeed, storeEventRows } from './kysely-sink.js';
import { payloadBatches, rowObjects, SqliteEventStore } from './sqlite-events.js';

/** Postback log rows deleted between two turns of the event loop. */
export const PRUNE_STEP = 1_000;

export type StoredClick = Selectable<TrackerClickTable>;
export type StoredLead = Selectable<TrackerLeadTable>;
export type Origin = { kind: 'click'; row: StoredClick } | { kind: 'lead'; row: StoredLead };

export interface ConfigRowRead {
  kind: string;
  external_id: string;
  name: string;
  body: string;
  status: string;
  workspace_id: number | null;
}

export interface PostbackWorkspace {
  id: number;
  currency: string;
}

export class EngineStore {
  constructor(
    readonly db: Kysely<Database>,
    private readonly sqlite?: SQLite.Database,
    /** PostgreSQL with ClickHouse: replayed events are sent on too. */
    private readonly feed?: EventFeed,
  ) {}

  routingRows(kinds: readonly string[]): Promise<ConfigRowRead[]> {
    return this.db
      .selectFrom('config_records')
      .select(['kind', 'external_id', 'name', 'body', 'status', 'workspace_id'])
      .where('kind', 'in', [...kinds])
      .execute();
  }

  /** The landers with hosted files (every workspace's): routing sends their visitors here. */
  async hostedLanders(): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('lander_files')
      .select('lander_external_id')
      .distinct()
      .where(scopeCondition({ instance: true }, 'workspace_id'))
      .execute();
    return new Set(rows.map((row) => row.lander_external_id));
  }

  /** Every direct campaign's click token hash (the engine's own work: every workspace). */
  clickTokens(): Promise<{ campaign_external_id: string; workspace_id: number; token_hash: string }[]> {
    return this.db
      .selectFrom('campaign_click_tokens')
      .select(['campaign_external_id', 'workspace_id', 'token_hash'])
      .execute();
  }

  /** The default workspace (the lowest id), where events of a campaign of none are stored. */
  async defaultWorkspaceId(): Promise<number | null> {
    const row = await this.db.selectFrom('workspaces').select('id').orderBy('id').limit(1).executeTakeFirst();
    return row?.id ?? null;
  }

  /** Events per offer and minute (UTC, `YYYY-MM-DDTHH:MM`) since `since`, for the given offers. */
  async offerCountsByMinute(
    table: EventTable,
    since: string,
    offers: readonly string[],
  ): Promise<{ offer: string; minute: string; count: number }[]> {
    if (offers.length === 0) return [];
    const minute = sql<string>`substr(created_at, 1, 16)`;
    const rows = await this.db
      .selectFrom(table)
      .select(['offer_external_id', minute.as('minute'), (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('created_at', '>=', since)
      .where('offer_external_id', 'in', [...offers])
      .groupBy(['offer_external_id', minute])
      .execute();
    return rows.map((row) => ({ offer: row.offer_external_id ?? '', minute: row.minute, count: Number(row.count) }));
  }

  /**
   * A campaign's clicks since `since`, oldest first, `limit` after `after` (created_at, then click id):
   * what uniqueness is warmed from at start.
   */
  clicksForUniqueness(
    campaignExternalId: string,
    since: string,
    after: { createdAt: string; clickId: string } | undefined,
    limit: number,
  ): Promise<
    { click_id: string; created_at: string; visitor_id: string; ip: string | null; user_agent: string | null }[]
  > {
    let query = this.db
      .selectFrom('tracker_clicks')
      .select(['click_id', 'created_at', 'visitor_id', 'ip', 'user_agent'])
      .where('campaign_external_id', '=', campaignExternalId)
      .where('created_at', '>=', since);
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '>', after.createdAt),
          eb.and([eb('created_at', '=', after.createdAt), eb('click_id', '>', after.clickId)]),
        ]),
      );
    }
    return query.orderBy('created_at').orderBy('click_id').limit(limit).execute();
  }

  /** Leads routed to each path since `since`. */
  async routedLeadsByPath(since: string): Promise<{ flow: string; path: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('tracker_leads')
      .select(['flow_external_id', 'path_id', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('created_at', '>=', since)
      .where('decision', '=', 'routed')
      .groupBy(['flow_external_id', 'path_id'])
      .execute();
    return byPath(rows);
  }

  /** Conversions counted on each path since `since`. */
  async conversionsByPath(since: string): Promise<{ flow: string; path: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('conversions')
      .select(['flow_external_id', 'path_id', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('created_at', '>=', since)
      .where('is_conversion', '=', 1)
      .groupBy(['flow_external_id', 'path_id'])
      .execute();
    return byPath(rows);
  }

  /** Leads per email hash (regsCount). */
  async registrations(): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('tracker_leads')
      .select(['email_hash', (eb) => eb.fn.countAll<number | string>().as('count')])
      .groupBy('email_hash')
      .execute();
    return new Map(rows.map((row) => [row.email_hash, Number(row.count)]));
  }

  storedClick(clickId: string): Promise<StoredClick | undefined> {
    return this.db.selectFrom('tracker_clicks').selectAll().where('click_id', '=', clickId).executeTakeFirst();
  }

  /** The click or lead with this id. */
  async origin(id: string): Promise<Origin | undefined> {
    const click = await this.storedClick(id);
    if (click) return { kind: 'click', row: click };
    const lead = await this.storedLead(id);
    return lead ? { kind: 'lead', row: lead } : undefined;
  }

  storedLead(leadId: string): Promise<StoredLead | undefined> {
    return this.db.selectFrom('tracker_leads').selectAll().where('lead_id', '=', leadId).executeTakeFirst();
  }

  /**
   * The workspace of a stored campaign, whatever its state (archived, or out of routing): a postback's click
   * or lead is the workspace's whose campaign it came through. Undefined when no such campaign is stored.
   */
  campaignWorkspace(kind: string, externalId: string): Promise<{ workspace_id: number | null } | undefined> {
    return this.db
      .selectFrom('config_records')
      .select('workspace_id')
      .where('kind', '=', kind)
      .where('external_id', '=', externalId)
      .executeTakeFirst();
  }

  async logPostback(entry: NewPostbackLog): Promise<void> {
    await this.db.insertInto('postback_log').values(entry).execute();
  }

  /** The active workspace whose postback key this is. */
  workspaceByKey(key: string): Promise<PostbackWorkspace | undefined> {
    return this.db
      .selectFrom('workspaces')
      .select(['id', 'currency'])
      .where('postback_key', '=', key)
      .where('status', '=', 'active')
      .executeTakeFirst();
  }

  /** Units of each of `codes` one US dollar buys (codes without a rate are left out). */
  async currencyRates(codes: readonly string[]): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('currency_rates')
      .select(['code', 'rate'])
      .where('code', 'in', [...new Set(codes)])
      .execute();
    return new Map(rows.map((row) => [row.code, Number(row.rate)]));
  }

  /**
   * Deletes postback log rows older than `before` (ISO-8601); answers how many. A step of rows at a time,
   * with a turn of the event loop between: on SQLite one DELETE of a backlog (the first prune after days
   * stopped, or a shorter retention) would hold every click up until it ends.
   */
  async prunePostbackLog(before: string): Promise<number> {
    let deleted = 0;
    for (;;) {
      const result = await this.db
        .deleteFrom('postback_log')
        .where('id', 'in', (eb) =>
          eb.selectFrom('postback_log').select('id').where('created_at', '<', before).limit(PRUNE_STEP),
        )
        .executeTakeFirst();
      const rows = Number(result.numDeletedRows);
      deleted += rows;
      if (rows < PRUNE_STEP) return deleted;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Stores what the journal in `dir` holds from earlier runs (an event already stored is skipped) and
   * answers the segments read, to delete once the database holds them durably, with the events found.
   */
  async replayJournal(
    dir: string,
    log: JournalLog,
  ): Promise<{ files: string[]; events: number; stored: number; unsent: boolean }> {
    const files = leftSegments(dir, log);
    let events = 0;
    let stored = 0;
    // Whether an event could not be sent on to ClickHouse (its segment then stays).
    let unsent = false;
    const sqliteStore = this.sqlite ? new SqliteEventStore(this.sqlite) : null;
    for (const file of files) {
      for (const payload of readSegment(file, log)) {
        // Well under PostgreSQL's limit of bound parameters (about 40 columns a row).
        for (const batch of payloadBatches(payload, 500)) {
          events += batch.rows.length;
          if (sqliteStore) stored += sqliteStore.write([batch]);
          else {
            const rows = rowObjects(batch.table, batch.rows);
            const clicks = batch.table === 'tracker_clicks' ? (rows as NewTrackerClick[]) : [];
            const leads = batch.table === 'tracker_leads' ? (rows as NewTrackerLead[]) : [];
            const lpClicks = batch.table === 'lp_clicks' ? (rows as unknown as LpClickEvent[]) : [];
            stored += await storeEventRows(this.db, clicks, leads, lpClicks);
            if (this.feed && !unsent) {
              try {
                // Sent before the stop, perhaps: ClickHouse is asked which it holds.
                await this.feed.sendEvents(
                  clicks.map((row) => row.click_id),
                  leads.map((row) => row.lead_id),
                  { again: true },
                );
              } catch (error) {
                log.warn({ err: error }, 'replayed events not sent to ClickHouse: the journal keeps them');
                unsent = true;
              }
            }
          }
        }
      }
    }
    return { files, events, stored, unsent };
  }
}

function byPath(
  rows: { flow_external_id: string | null; path_id: string | null; count: number | string }[],
): { flow: string; path: string; count: number }[] {
  const counts: { flow: string; path: string; count: number }[] = [];
  for (const row of rows) {
    if (row.flow_external_id && row.path_id) {
      counts.push({ flow: row.flow_external_id, path: row.path_id, count: Number(row.count) });
    }
  }
  return counts;
}
