// The columnar event store's rows — clicks and leads with every column a report groups or
// filters them by — the same for each backend (DuckDB embedded, ClickHouse past one machine).
//
// The store is append-only. A click's cost moved after it was stored (a campaign's cost set, a cost model
// paid by conversion) is appended as an adjustment row: `events` 0, `unique_events` 0, `cost` the change,
// with the click's own values. Figures are sums, so reports add adjustments in without updating a row.
// Each row has a key (`row_key`): an event row its event id, an adjustment `cost:<change id>`; a backend
// that may be sent a row twice (ClickHouse) counts it once by that key.
import type { AggregatePlan, AggregateRow } from '../report-plan/plan.js';
import { VAR_COLUMNS } from '../store/tracker-events.js';

export type ColumnarTable = 'clicks' | 'leads';

/**
 * Text columns whose values come from the configuration or a fixed set (routing ids; the visitor's
 * country, device, platform and browser), never from what a visitor or a source sends.
 */
export const BOUNDED_TEXT_COLUMNS = [
  'campaign_external_id',
  'flow_external_id',
  'path_group_id',
  'path_id',
  'offer_external_id',
  'lander_external_id',
  'traffic_source_external_id',
  'country',
  'device',
  'platform',
  'browser',
] as const;

/** Text columns every row has, by their event-table names: what reports group and filter by. */
export const COLUMNAR_TEXT_COLUMNS = [
  ...BOUNDED_TEXT_COLUMNS,
  'subaff',
  ...VAR_COLUMNS,
  'region',
  'city',
  'isp',
  'language',
  'referrer_domain',
  'bot_reason',
] as const;

export type ColumnarTextColumn = (typeof COLUMNAR_TEXT_COLUMNS)[number];

/** A conversion's text columns in the embedded store: the events' (some read from its click or lead), and its network. */
export const CONVERSION_TEXT_COLUMNS = [...COLUMNAR_TEXT_COLUMNS, 'affiliate_network_external_id'] as const;

/** One row of the store (see above). Leads have no lander and no cost (null, 0). */
export type ColumnarRow = {
  row_key: string;
  /** The event's integer id in its event table (an adjustment: its click's), to follow the table in order. */
  source_id: number;
  /** The event's own workspace (its row's workspace_id; 0: none); reports keep to it. */
  workspace_id: number;
  /** ISO-8601 UTC, as the event tables store it. */
  created_at: string;
  /** 1 for an event, 0 for an adjustment. */
  events: number;
  unique_events: number;
  cost: number;
  asn: number | null;
  is_bot: number;
  /**
   * 1 when the click's visitor went on from its lander to the offer. A click copied after it
   * did carries it; one copied before gets it as an adjustment row (`lp:` or, in the cost log, its change).
   */
  lp_events: number;
} & Record<ColumnarTextColumn, string | null>;

/**
 * A columnar store: rows appended, a report's clicks or leads (a plan of source `clicks` or `leads`) read
 * back in the shape render-sql.ts gives (`g_*`, then the source's figures: clicks, unique_clicks and
 * cost; or leads).
 */
export interface ColumnarStore {
  readonly kind: 'duckdb' | 'clickhouse';
  append(table: ColumnarTable, rows: readonly ColumnarRow[]): Promise<void>;
  aggregate(plan: AggregatePlan): Promise<AggregateRow[]>;
  close(): Promise<void>;
}
