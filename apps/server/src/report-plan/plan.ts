// "one report code path": what one event table adds to a report, described once — the values
// it is grouped by, the rows it keeps, the time buckets — and rendered by each backend that can read
// that table: SQL over the event tables (reports/render-sql.ts, SQLite and PostgreSQL), and the columnar
// stores (columnar/). The figures each table gives are fixed by its source (reports/figures.ts,
// §Figures). This folder sits below both reports/ and columnar/: the stores read plans without reaching
// back into the report service.
import type { ReportMetric } from '@switchyard/domain';
import type { UtcGrain } from './time.js';

export type Source = 'clicks' | 'leads' | 'conversions';

/**
 * A column of the event, by its name in the event tables. `origin`: a conversion reads it from the click
 * or lead it converts (the first of the two that has one).
 */
export interface PlanColumn {
  name: string;
  origin: boolean;
}

/**
 * A column as a report compares and shows it: as stored; `flag` for 0/1 columns shown as `true`/`false`
 * (is_bot); `text` for a number shown and compared as text (asn).
 */
export interface PlanValue {
  column: PlanColumn;
  as: 'value' | 'flag' | 'text';
}

/** How a column is compared and shown: is_bot as `true`/`false`, asn as text, the rest as stored. */
export function shownAs(name: string): PlanValue['as'] {
  return name === 'is_bot' ? 'flag' : name === 'asn' ? 'text' : 'value';
}

export type PlanCondition =
  /** The value equals `to`; `null`: the event has none. */
  | { kind: 'equals'; value: PlanValue; to: string | null }
  /**
   * One workspace's events, by the workspace_id every event row carries (the event tables,
   * the rollups and the columnar stores alike), never by a list of its campaigns.
   */
  | { kind: 'workspace'; workspace: number }
  /** The event's time (`plan.time`) from (`>=`) or before (`<`) an ISO instant. */
  | { kind: 'time'; op: '>=' | '<'; at: string }
  /** No row: a filter on a value the table never has. */
  | { kind: 'never' }
  /** Every workspace's events, the instance's report; a store that scopes says so (render-sql.ts). */
  | { kind: 'instance' }
  /**
   * The affiliate network filter: clicks and leads by their offer (`offers`: the network's, or with
   * `network` null every offer that has one); conversions by their postback event's network, else
   * their offer's.
   */
  | { kind: 'network'; network: string | null; offers: readonly string[] };

/** How events are bucketed in time: UTC days, hours, or hours and quarter-hours (time.ts, utcGrain). */
export interface PlanBuckets {
  grain: UtcGrain;
  /** The report's zone, for a backend that buckets local days and hours itself. */
  timezone: string;
  /** Whether the report groups by hour (else by day or weekday only). */
  byHour: boolean;
}

export interface AggregatePlan {
  source: Source;
  /** The time column read for the range and buckets. */
  time: 'created_at' | 'event_at';
  /** Each grouped value under its alias (`g_<group>`; `g_network_offer` for the affiliate network). */
  groups: readonly { alias: string; value: PlanValue }[];
  buckets: PlanBuckets | null;
  where: readonly PlanCondition[];
  /**
   * Whether `clicks` and `unique_clicks` count clicks with a bot verdict too (else humans'
   * only); `bot_clicks` counts those either way. Leads and conversions are counted whole. So are
   * `lp_clicks` (clicks that went on from their lander to the offer) and `lander_clicks` (clicks sent to
   * a lander, lp_ctr's divisor) with clicks: bots' only with `includeBots`.
   */
  includeBots: boolean;
}

/** Columns a conversion reads from its click (`c`) or lead (`l`). */
export const FROM_ORIGIN: ReadonlySet<string> = new Set([
  'device',
  'platform',
  'browser',
  ...Array.from({ length: 10 }, (_, i) => `var${i + 1}`),
  'region',
  'city',
  'asn',
  'isp',
  'language',
  'referrer_domain',
  'is_bot',
  'bot_reason',
]);

/** Whether a plan reads a column of the converted click or lead (a join, for conversions). */
export function readsOrigin(plan: AggregatePlan): boolean {
  const origin = (column: PlanColumn | undefined) => column?.origin === true;
  return (
    plan.groups.some((group) => origin(group.value.column)) ||
    plan.where.some((condition) => condition.kind === 'equals' && origin(condition.value.column))
  );
}

/** One row of a table's aggregate: `g_*` values, and the source's figures. */
export type AggregateRow = Record<string, unknown>;

/** What a report adds up per group (reports/figures.ts, §Figures); every other figure is derived from these. */
export const COUNT_NAMES = [
  'clicks',
  'unique_clicks',
  'leads',
  'conversions',
  'approved',
  'pending',
  'rejected',
  'revenue',
  'revenue_confirmed',
  'cost',
  'bot_clicks',
  'lp_clicks',
  // Not a figure of its own: lp_ctr's divisor (reports/figures.ts).
  'lander_clicks',
] as const satisfies readonly (ReportMetric | 'lander_clicks')[];

export type CountName = (typeof COUNT_NAMES)[number];
export type Counts = Record<CountName, number>;

/** Which counts each table gives (every other is 0 in its rows): what a store merges the tables by. */
export const COUNTS_OF: Record<Source, readonly CountName[]> = {
  clicks: ['clicks', 'unique_clicks', 'cost', 'bot_clicks', 'lp_clicks', 'lander_clicks'],
  leads: ['leads'],
  conversions: ['conversions', 'approved', 'pending', 'rejected', 'revenue', 'revenue_confirmed'],
};

/** The weekdays' shown values, Monday first, as an SQL list (DuckDB and ClickHouse read it alike). */
export const WEEKDAY_LIST = "['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']";

/** A page's bound, written into a store's statement: a whole number, else refused. */
export function pageBound(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a page bound: ${value}`);
  return String(value);
}

/** The shown value of `hour`, the label of a row without a value. */
export const NONE_LABEL = '(none)';

/**
 * A whole report for a store that holds all three tables and merges, orders and pages them itself
 * (columnar/duckdb-report.ts): the three plans, the report's groups, and the page asked.
 */
export interface PagedPlan {
  plans: Record<Source, AggregatePlan>;
  /**
   * The report's groups in order: `day`, `hour` and `weekday` read each plan's local bucket; any other
   * its `g_<group>` (null in a table without it).
   */
  groups: readonly string[];
  /** Per group, the names shown (and ordered by) instead of the values; null for none. */
  names: readonly (ReadonlyMap<string, string> | null)[];
  /** By the joined labels, by one group's label (a time group's value), or by a count. */
  order: { by: 'label' } | { by: 'group'; index: number } | { by: 'count'; name: CountName };
  descending: boolean;
  /** 0: every row. */
  limit: number;
  offset: number;
}

export interface PagedRows {
  rows: { values: (string | null)[]; counts: Counts }[];
  /** Rows in the whole report, and their counts added up. */
  total: number;
  totals: Counts;
}
