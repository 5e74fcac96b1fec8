// The tracker's event tables: clicks and leads, written in batches off the request
// path. Reports read them; columns are what reports group and filter on.
import type { ColumnType, Generated, Insertable } from 'kysely';
import { VISITOR_COLUMNS } from './visitor-columns.js';

/** var1…var10: a column each, as reports group by them. */
interface VarColumns {
  var1: string | null;
  var2: string | null;
  var3: string | null;
  var4: string | null;
  var5: string | null;
  var6: string | null;
  var7: string | null;
  var8: string | null;
  var9: string | null;
  var10: string | null;
}

export const VAR_COLUMNS = ['var1', 'var2', 'var3', 'var4', 'var5', 'var6', 'var7', 'var8', 'var9', 'var10'] as const;

/** Migration 0017: what is read off the visitor besides country and user agent. */
interface VisitorColumns {
  /** ISO 3166-2 (`US-CA`), or `CC:Name` for a region the city data names without a code. */
  region: ColumnType<string | null, string | null | undefined, string | null>;
  city: ColumnType<string | null, string | null | undefined, string | null>;
  /** A bigint: PostgreSQL answers it as text. */
  asn: ColumnType<number | string | null, number | null | undefined, number | null>;
  isp: ColumnType<string | null, string | null | undefined, string | null>;
  /** ISO 639-1, from Accept-Language's first choice. */
  language: ColumnType<string | null, string | null | undefined, string | null>;
  /** The referrer's host, lower-cased, without `www.`. */
  referrer_domain: ColumnType<string | null, string | null | undefined, string | null>;
  os_version: ColumnType<number | null, number | null | undefined, number | null>;
  browser_version: ColumnType<number | null, number | null | undefined, number | null>;
  /** Why `is_bot` is 1 (the domain's BOT_REASONS); null for a human. */
  bot_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A click on a tracker campaign URL. */
export interface TrackerClickTable extends VarColumns, VisitorColumns {
  id: Generated<number>;
  click_id: string;
  /** ISO-8601, UTC. */
  created_at: string;
  campaign_external_id: string;
  flow_external_id: string | null;
  path_group_id: string | null;
  path_id: string | null;
  lander_external_id: string | null;
  offer_external_id: string | null;
  traffic_source_external_id: string | null;
  visitor_id: string;
  /** 1 for the visitor's first click on this campaign in a day. */
  is_unique: number;
  ip: string | null;
  country: string | null;
  device: string | null;
  platform: string | null;
  browser: string | null;
  user_agent: string | null;
  referrer: string | null;
  /** The traffic source's own click id (`{external_id}`). */
  external_click_id: string | null;
  subaff: string | null;
  /** JSON object: every var the click carried (subaff, utm_*, var1…var10, …). */
  vars: string;
  cost: number;
  /** PostgreSQL: the cost it was stored with, set by the first change of its cost; null until then (always on SQLite, but for migration 0021). */
  original_cost: ColumnType<number | null, number | null | undefined, number | null>;
  /** Auto cost: `missing` or `invalid` when the click's cost parameter gave no cost; else null. */
  cost_flag: ColumnType<string | null, string | null | undefined, string | null>;
  is_bot: number;
  /** The routing decision's reason (matched, backup_offer, no_matching_path_group, capped, no_offer). */
  reason: string;
  /** Migration 0023: its campaign's workspace; every scoped read filters on it. */
  workspace_id: number;
  /**
   * Migration 0040: when its visitor first followed the lander's offer link (ISO-8601, UTC);
   * null until then. Set by the event writer from an lp click event (LP_CLICK_COLUMNS), never inserted.
   */
  lp_clicked_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A lead (registration) posted to an API campaign. */
export interface TrackerLeadTable extends VarColumns, VisitorColumns {
  id: Generated<number>;
  lead_id: string;
  created_at: string;
  campaign_external_id: string;
  flow_external_id: string | null;
  path_group_id: string | null;
  path_id: string | null;
  offer_external_id: string | null;
  traffic_source_external_id: string | null;
  /** SHA-256 (hex) of the lowercased email; the email itself is not stored. */
  email_hash: string;
  email_domain: string;
  age: number | null;
  ip: string | null;
  country: string | null;
  device: string | null;
  platform: string | null;
  browser: string | null;
  user_agent: string | null;
  subaff: string | null;
  vars: string;
  is_bot: number;
  /** routed | unrouted */
  decision: string;
  reason: string;
  backup_used: number;
  /** 1 for the first lead of its email on the campaign in a day (migration 0017). */
  is_unique: ColumnType<number, number | undefined, number>;
  /** Migration 0023: its campaign's workspace. */
  workspace_id: number;
}

export type NewTrackerClick = Insertable<TrackerClickTable>;
export type NewTrackerLead = Insertable<TrackerLeadTable>;

export type EventTable = 'tracker_clicks' | 'tracker_leads';

/** An event column as the event writer sends it: its name, and what a row without it stores. */
export interface EventColumn {
  name: string;
  /** The column's default (its DDL's), or null. */
  fallback: string | number | null;
}

/** Added by migration 0017, after every earlier column: older journal lines end before them. */
const VISITOR_EVENT_COLUMNS: readonly EventColumn[] = VISITOR_COLUMNS.map(([name]) => ({ name, fallback: null }));

/**
 * Added by migration 0023, last: a journal line written before it has none, and the writer looks its
 * campaign's workspace up (WorkspaceFill, store/traffic/event-workspace-fill.ts).
 */
const WORKSPACE_EVENT_COLUMN: EventColumn = { name: 'workspace_id', fallback: null };

const ROUTING_COLUMNS = [
  'created_at',
  'campaign_external_id',
  'flow_external_id',
  'path_group_id',
  'path_id',
  'offer_external_id',
  'traffic_source_external_id',
  'ip',
  'country',
  'device',
  'platform',
  'browser',
  'user_agent',
  'subaff',
  ...VAR_COLUMNS,
] as const;

/**
 * Every column of each event table but its generated id, in a fixed order: the SQLite event writer
 * sends rows as arrays in this order, and inserts them through one prepared statement per table.
 */
export const EVENT_COLUMNS: Readonly<Record<EventTable, readonly EventColumn[]>> = {
  tracker_clicks: [
    ...['click_id', ...ROUTING_COLUMNS, 'lander_external_id', 'visitor_id', 'referrer', 'external_click_id'],
    ...['reason'],
  ]
    .map((name): EventColumn => ({ name, fallback: null }))
    .concat([
      { name: 'vars', fallback: '{}' },
      { name: 'is_bot', fallback: 0 },
      { name: 'is_unique', fallback: 0 },
      { name: 'cost', fallback: 0 },
      // Added by migration 0012: a journal line written before it ends one value early (rowAt).
      { name: 'cost_flag', fallback: null },
      ...VISITOR_EVENT_COLUMNS,
      WORKSPACE_EVENT_COLUMN,
    ]),
  tracker_leads: [...['lead_id', ...ROUTING_COLUMNS, 'email_hash', 'email_domain', 'age', 'decision', 'reason']]
    .map((name): EventColumn => ({ name, fallback: null }))
    .concat([
      { name: 'vars', fallback: '{}' },
      { name: 'is_bot', fallback: 0 },
      { name: 'backup_used', fallback: 0 },
      ...VISITOR_EVENT_COLUMNS,
      { name: 'is_unique', fallback: 0 },
      WORKSPACE_EVENT_COLUMN,
    ]),
};

/**
 * What the journal and the event writer carry: rows of the event tables, and lp clicks — a
 * click whose visitor followed its lander's offer link. An lp click sets its click's `lp_clicked_at`
 * (once: a second visit changes nothing) rather than adding a row, so its line is in LP_CLICK_COLUMNS.
 */
export type EventKind = EventTable | 'lp_clicks';

export interface LpClickEvent {
  click_id: string;
  /** The click's own workspace: the update names it, as every write of a workspace's rows does. */
  workspace_id: number;
  lp_clicked_at: string;
}

/** Every kind's line columns (an lp click's: its click, workspace and time). */
export const LINE_COLUMNS: Readonly<Record<EventKind, readonly EventColumn[]>> = {
  ...EVENT_COLUMNS,
  lp_clicks: ['click_id', 'workspace_id', 'lp_clicked_at'].map((name) => ({ name, fallback: null })),
};

/** The column each event table's id is unique in. */
export const EVENT_ID_COLUMN: Readonly<Record<EventTable, string>> = {
  tracker_clicks: 'click_id',
  tracker_leads: 'lead_id',
};
