// The ClickHouse tables of the columnar store, and an aggregate plan (report-plan/plan.ts) as
// ClickHouse SQL with the meaning render-sql.ts gives it on SQLite and PostgreSQL.
//
// The SQL runs on Debian's ClickHouse 18.16 and on current releases. What it avoids, and why:
// - Query parameters (`{name:String}`, 19.x and later): 18.16 has none over HTTP. Rows go in as the body
//   of `INSERT … FORMAT JSONEachRow`; the few filter values of a report are written by `literal` below,
//   the one place a value becomes SQL text. Column names and aliases come from the plan, checked against
//   the store's columns and an alias pattern, never quoted through.
// - DateTime64 (20.1): created_at is stored as `DateTime('UTC')` (seconds; the partition, the sorting key
//   and the UTC day/hour/quarter buckets) plus `created_ms`, its milliseconds, read only when a time
//   filter falls inside a second. The column's own zone fixes the buckets whatever the server's zone is.
// - Nullable columns in the sorting key (refused by 18.16; current releases need `allow_nullable_key`):
//   the campaign is sorted by `ifNull(campaign_external_id, '')`, and a campaign filter repeats itself on
//   that expression so the primary index is used.
// - LowCardinality (experimental behind a setting in 18.x) and column codecs (19.x): plain
//   Nullable(String) columns, compressed with the server's default; the bounded ones also as UInt32
//   codes of a dictionary of their own (clickhouse-codes.ts).
// - An alias equal to a column name (`sum(cost) AS cost`): older analyzers put the alias back into its
//   own aggregate. Figures are selected as `f_*` and renamed when read.
// - Insert deduplication of non-replicated tables (`non_replicated_deduplication_window`, 21.x), and
//   `FINAL` on clicks and leads (on 18.16 it costs five to ten times the read): a batch that may have been
//   sent before is checked against what ClickHouse holds and sent without those rows (clickhouse.ts);
//   ReplacingMergeTree still merges away a key that came twice some other way.
// - `DROP COLUMN IF EXISTS` (19.x): a table made with the campaign hash columns of old is checked for
//   them first (clickhouse.ts, dropHashColumns).
// - formatDateTime patterns and toStartOfFifteenMinutes differ between versions: the hour is read as
//   toStartOfHour and written `YYYY-MM-DDTHH` in TypeScript, the quarter as intDiv(toMinute(…), 15).
import type { AggregatePlan, AggregateRow, PlanColumn, PlanCondition, PlanValue, Source } from '../report-plan/plan.js';
import { offsetSpans } from '../report-plan/time.js';
import {
  BOUNDED_TEXT_COLUMNS,
  COLUMNAR_TEXT_COLUMNS,
  CONVERSION_TEXT_COLUMNS,
  type ColumnarRow,
  type ColumnarTable,
} from './schema.js';

/**
 * A value as a ClickHouse literal — the only way a value enters the SQL text. Strings: in single quotes,
 * with backslash and quote escaped (ClickHouse reads `\` escapes inside string literals, so both must be;
 * every other character, NUL and newlines included, stands for itself). Numbers: finite, else refused.
 */
export function literal(value: string | number): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Not a finite number for ClickHouse: ${value}`);
    return String(value);
  }
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Whether the click went on from its lander (schema.ts ColumnarRow). */
export const LP_COLUMN = { name: 'lp_events', type: 'UInt8 DEFAULT 0' } as const;

const NUMBER_COLUMNS = ['source_id', 'workspace_id', 'events', 'unique_events', 'cost', 'asn', 'is_bot'] as const;

/** The stored columns and their types, in the order rows are sent. */
export const COLUMNS: readonly { name: string; type: string }[] = [
  { name: 'row_key', type: 'String' },
  { name: 'source_id', type: 'Int64' },
  { name: 'workspace_id', type: 'Int64' },
  { name: 'created_at', type: "DateTime('UTC')" },
  { name: 'created_ms', type: 'UInt16' },
  { name: 'events', type: 'UInt8' },
  { name: 'unique_events', type: 'UInt8' },
  { name: 'cost', type: 'Float64' },
  { name: 'asn', type: 'Nullable(Int64)' },
  { name: 'is_bot', type: 'UInt8' },
  ...COLUMNAR_TEXT_COLUMNS.map((name) => ({ name, type: 'Nullable(String)' })),
  // A table made before it gains it with ALTER (clickhouse.ts, LP_COLUMN).
  LP_COLUMN,
];

export const COLUMN_NAMES = COLUMNS.map((column) => column.name);

/** Text columns kept as numbers too, in clicks, leads and conversions (clickhouse-codes.ts). */
export const CODED_COLUMNS = BOUNDED_TEXT_COLUMNS;
export type CodedColumn = (typeof CODED_COLUMNS)[number];
const CODED: ReadonlySet<string> = new Set(CODED_COLUMNS);

export function isCoded(name: string): name is CodedColumn {
  return CODED.has(name);
}

/** The column of a text column's numbers: 0 for none, the value's code (clickhouse-codes.ts) else. */
export function codeColumn(name: CodedColumn): string {
  return `code_${name}`;
}

/**
 * A table made before gains them with ALTER (clickhouse-tables.ts), its rows 0: such a table's reports
 * group by text (ClickHouseStore, `coded`).
 */
export const CODE_COLUMNS: readonly { name: string; type: string }[] = CODED_COLUMNS.map((name) => ({
  name: codeColumn(name),
  type: 'UInt32 DEFAULT 0',
}));

export const CODE_COLUMN_NAMES = CODE_COLUMNS.map((column) => column.name);

/**
 * Click counts that ClickHouse computes itself on insert (MATERIALIZED: never sent, and left out of
 * `SELECT *`), so that a report sums plain columns rather than testing each row's bot verdict and lander:
 * on 18.16 those tests took a fifth of grouping 10M clicks. A table made before gains them with ALTER
 * (clickhouse.ts) and computes them for its older parts as they are read.
 */
export const DERIVED_COLUMNS: readonly { name: string; type: string }[] = [
  { name: 'human_events', type: 'UInt8 MATERIALIZED if(is_bot = 1, 0, events)' },
  { name: 'human_unique_events', type: 'UInt8 MATERIALIZED if(is_bot = 1, 0, unique_events)' },
  { name: 'human_lp_events', type: 'UInt8 MATERIALIZED if(is_bot = 1, 0, lp_events)' },
  { name: 'lander_events', type: 'UInt8 MATERIALIZED if(isNull(lander_external_id), 0, events)' },
  { name: 'human_lander_events', type: 'UInt8 MATERIALIZED if(is_bot = 1 OR isNull(lander_external_id), 0, events)' },
];

/**
 * Conversions as they are now: each change (store/conversion-changes.ts) sent as the conversion's whole
 * row with the change's id as `version`; ReplacingMergeTree keeps the highest, and `FINAL` reads it. A
 * removed conversion is a row with `deleted` 1. Columns a conversion reads from its click or lead are
 * copied into it.
 */
export const CONVERSION_COLUMNS: readonly { name: string; type: string }[] = [
  { name: 'conversion_id', type: 'String' },
  { name: 'version', type: 'UInt64' },
  { name: 'deleted', type: 'UInt8' },
  { name: 'workspace_id', type: 'Int64' },
  { name: 'created_at', type: "DateTime('UTC')" },
  { name: 'created_ms', type: 'UInt16' },
  { name: 'event_at', type: "Nullable(DateTime('UTC'))" },
  { name: 'event_ms', type: 'Nullable(UInt16)' },
  { name: 'is_conversion', type: 'UInt8' },
  { name: 'state', type: 'String' },
  { name: 'payout', type: 'Float64' },
  { name: 'asn', type: 'Nullable(Int64)' },
  { name: 'is_bot', type: 'Nullable(UInt8)' },
  ...CONVERSION_TEXT_COLUMNS.map((name) => ({ name, type: 'Nullable(String)' })),
];

export const CONVERSION_COLUMN_NAMES = CONVERSION_COLUMNS.map((column) => column.name);

export function createConversionsTable(): string {
  return `CREATE TABLE IF NOT EXISTS conversions (
  ${[...CONVERSION_COLUMNS, ...CODE_COLUMNS].map((column) => `${column.name} ${column.type}`).join(',\n  ')}
) ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(created_at)
ORDER BY (workspace_id, ifNull(campaign_external_id, ''), created_at, conversion_id)`;
}

/** An ISO instant as Unix seconds and their milliseconds (JSONEachRow reads DateTime as seconds, in UTC). */
export function secondsAndMs(iso: string): [number, number] | null {
  const instant = Date.parse(iso);
  if (!Number.isFinite(instant)) return null;
  const seconds = Math.floor(instant / 1000);
  return [seconds, instant - seconds * 1000];
}

/** What a plan may group or filter by: the row's text columns and numbers, not its key or time. */
const READABLE = new Set<string>([...CONVERSION_TEXT_COLUMNS, ...NUMBER_COLUMNS]);
const NUMERIC = new Set<string>(NUMBER_COLUMNS);

export function createTable(table: ColumnarTable): string {
  // Partitioned by month and sorted by workspace, campaign and time; the row key last, so
  // ReplacingMergeTree keeps one row of a key sent twice when it merges.
  return `CREATE TABLE IF NOT EXISTS ${table} (
  ${[...COLUMNS, ...DERIVED_COLUMNS, ...CODE_COLUMNS].map((column) => `${column.name} ${column.type}`).join(',\n  ')}
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(created_at)
ORDER BY (workspace_id, ifNull(campaign_external_id, ''), created_at, row_key)`;
}

/** A row as JSONEachRow sends it: created_at as Unix seconds (read in UTC whatever the zone) and milliseconds. */
export function storedRow(row: ColumnarRow): Record<string, unknown> {
  const instant = Date.parse(row.created_at);
  if (!Number.isFinite(instant)) throw new Error(`Row ${row.row_key} has no valid created_at: ${row.created_at}`);
  const stored: Record<string, unknown> = {};
  for (const name of COLUMN_NAMES) stored[name] = (row as Record<string, unknown>)[name] ?? null;
  stored.created_at = Math.floor(instant / 1000);
  stored.created_ms = instant - Math.floor(instant / 1000) * 1000;
  return stored;
}

const ALIAS = /^g_[a-z0-9_]+$/;

function readable({ name }: PlanColumn): string {
  // A conversion's columns of its click or lead are in its own row (CONVERSION_COLUMNS).
  if (!READABLE.has(name)) throw new Error(`The columnar store has no column ${name}`);
  return name;
}

/** A value as reports show it (render-sql.ts, asShown): `flag` as 'true'/'false', `text` as decimal text. */
function shown({ column, as }: PlanValue): string {
  const name = readable(column);
  if (as === 'flag') return `multiIf(${name} = 1, 'true', ${name} = 0, 'false', NULL)`;
  if (as === 'text' || NUMERIC.has(name)) return `toString(${name})`;
  return name;
}

/** The time of a filter, exactly to the millisecond: whole seconds from the sorted column. */
function timeCondition(time: 'created_at' | 'event_at', op: '>=' | '<', at: string): string {
  const instant = Date.parse(at);
  if (!Number.isFinite(instant)) throw new Error(`Not an ISO instant: ${at}`);
  const seconds = `toDateTime(${literal(Math.floor(instant / 1000))})`;
  const ms = instant - Math.floor(instant / 1000) * 1000;
  const millis = time === 'created_at' ? 'created_ms' : 'event_ms';
  if (ms === 0) return `${time} ${op} ${seconds}`;
  // Inside a second: before it, or in it and before the milliseconds (or from them).
  return op === '>='
    ? `(${time} > ${seconds} OR (${time} = ${seconds} AND ${millis} >= ${literal(ms)}))`
    : `(${time} < ${seconds} OR (${time} = ${seconds} AND ${millis} < ${literal(ms)}))`;
}

function list(values: readonly string[]): string {
  return values.map(literal).join(', ');
}

function condition(plan: AggregatePlan, where: PlanCondition): string {
  switch (where.kind) {
    case 'equals': {
      if (where.value.as === 'flag') {
        const name = readable(where.value.column);
        // The same rows as the shown 'true'/'false' compared, read off the stored 1/0.
        if (where.to === null) return `${name} NOT IN (0, 1)`;
        return where.to === 'true' ? `${name} = 1` : where.to === 'false' ? `${name} = 0` : '0';
      }
      const value = shown(where.value);
      if (where.to === null) return `isNull(${value})`;
      // One campaign: in the sorting key's form, so that only its rows are read (a null is '' there).
      if (value === 'campaign_external_id' && where.to !== '') return `ifNull(${value}, '') = ${literal(where.to)}`;
      return `${value} = ${literal(where.to)}`;
    }
    case 'workspace':
      // Each row's own workspace, the sorting key's first column: only its rows are read. 0 is
      // an event of none (null in the event tables), which no workspace's report reads.
      return where.workspace > 0 ? `workspace_id = ${literal(where.workspace)}` : '0';
    case 'time':
      return timeCondition(plan.time, where.op, where.at);
    case 'never':
      return '0';
    case 'instance':
      return '1';
    case 'network': {
      // render-sql.ts, networkCondition: clicks and leads by their offer; conversions by their own
      // network, else their offer's.
      const byOffer =
        where.network === null
          ? where.offers.length === 0
            ? '1'
            : `(isNull(offer_external_id) OR offer_external_id NOT IN (${list(where.offers)}))`
          : where.offers.length === 0
            ? '0'
            : `offer_external_id IN (${list(where.offers)})`;
      if (plan.source !== 'conversions') return byOffer;
      const own = 'affiliate_network_external_id';
      return where.network === null
        ? `(isNull(${own}) AND ${byOffer})`
        : `(${own} = ${literal(where.network)} OR (isNull(${own}) AND ${byOffer}))`;
    }
  }
}

/**
 * `local`: the report's local day or hour as a whole number since 1970 (columnar/duckdb-sql.ts does the
 * same): each row shifted by its zone's offset over the range (report-plan/time.ts, offsetSpans), a multiIf
 * over two or three spans rather than the zone's rules per row.
 */
function localBucket(plan: AggregatePlan, buckets: NonNullable<AggregatePlan['buckets']>): string {
  const from = plan.where.find((entry) => entry.kind === 'time' && entry.op === '>=');
  const to = plan.where.find((entry) => entry.kind === 'time' && entry.op === '<');
  if (from?.kind !== 'time' || to?.kind !== 'time') throw new Error('local buckets need the report’s range');
  const time = plan.time;
  const spans = offsetSpans(from.at, to.at, buckets.timezone);
  const offset = (minutes: number) => literal(minutes * 60);
  const shift =
    spans.length === 1
      ? offset(spans[0]!.offsetMinutes)
      : `multiIf(${spans
          .map((span) =>
            span.until === null
              ? offset(span.offsetMinutes)
              : `${time} < toDateTime(${literal(Math.floor(Date.parse(span.until) / 1000))}), ${offset(span.offsetMinutes)}`,
          )
          .join(', ')})`;
  return `intDiv(toInt64(toUInt32(${time})) + ${shift}, ${buckets.byHour ? 3600 : 86400})`;
}

const COUNTED = "is_conversion = 1 AND state IN ('pending', 'approved')";

/**
 * Each figure as one row's share of it, from the stored counts (DERIVED_COLUMNS) for clicks: a group's
 * figure is the sum of its rows' shares. Bots' clicks are out of the others unless the plan includes them.
 */
function clickShares(plan: AggregatePlan): Record<string, string> {
  const bots = plan.includeBots;
  return {
    clicks: bots ? 'events' : 'human_events',
    unique_clicks: bots ? 'unique_events' : 'human_unique_events',
    cost: 'cost',
    bot_clicks: 'events - human_events',
    // An lp click may be an adjustment row (events 0): lp_events is summed.
    lp_clicks: bots ? 'lp_events' : 'human_lp_events',
    lander_clicks: bots ? 'lander_events' : 'human_lander_events',
  };
}

const SHARES: Record<Exclude<Source, 'clicks'>, Record<string, string>> = {
  leads: { leads: 'events' },
  // render-sql.ts, conversionFigures.
  conversions: {
    conversions: `if(${COUNTED}, 1, 0)`,
    approved: "if(is_conversion = 1 AND state = 'approved', 1, 0)",
    pending: "if(is_conversion = 1 AND state = 'pending', 1, 0)",
    rejected: "if(is_conversion = 1 AND state = 'rejected', 1, 0)",
    revenue: "if(state != 'rejected' AND isFinite(payout), payout, 0)",
    revenue_confirmed: "if(state = 'approved' AND isFinite(payout), payout, 0)",
  },
};

/** Groups read as their column's codes rather than its text (clickhouse-report.ts). */
export interface CodedGroups {
  aliases: ReadonlySet<string>;
  /** The condition that keeps a column's codes to those the report can name (clickhouse-codes.ts). */
  known(name: CodedColumn): string;
}

/**
 * A plan's aggregate as one SELECT (without FORMAT), and how to read its rows in render-sql.ts's shape.
 * `rows`: the rows it would group instead, each with its groups and its share of each figure (`f_*`),
 * for a caller that groups them together with other tables' (clickhouse-report.ts). `coded`: those
 * groups are selected as codes (UInt32, 0 for none), for that caller to name.
 */
export function aggregateQuery(
  plan: AggregatePlan,
  from: string,
  { local = false, rows = false, coded }: { local?: boolean; rows?: boolean; coded?: CodedGroups } = {},
): { sql: string; read: (row: Record<string, unknown>) => AggregateRow } {
  const source = plan.source;
  const time = plan.time;
  const selections: string[] = [];
  const groupings: string[] = [];
  const known: string[] = [];
  for (const group of plan.groups) {
    if (!ALIAS.test(group.alias)) throw new Error(`Not a group alias: ${group.alias}`);
    if (coded?.aliases.has(group.alias)) {
      const name = readable(group.value.column);
      if (group.value.as !== 'value' || !isCoded(name)) throw new Error(`${name} has no codes`);
      selections.push(`${codeColumn(name)} AS ${group.alias}`);
      known.push(coded.known(name));
    } else selections.push(`${shown(group.value)} AS ${group.alias}`);
    groupings.push(group.alias);
  }
  const bucket = local && plan.buckets ? localBucket(plan, plan.buckets) : null;
  if (bucket) {
    selections.push(`${bucket} AS b`);
    groupings.push('b');
  } else if (plan.buckets) {
    if (plan.buckets.grain === 'day') {
      selections.push(`toDate(${time}) AS g_utc_day`);
      groupings.push('g_utc_day');
    } else {
      selections.push(`toStartOfHour(${time}) AS g_utc_hour`);
      groupings.push('g_utc_hour');
      if (plan.buckets.grain === 'quarter') {
        selections.push(`intDiv(toMinute(${time}), 15) AS g_quarter`);
        groupings.push('g_quarter');
      }
    }
  }
  const figures = Object.entries(source === 'clicks' ? clickShares(plan) : SHARES[source]);
  for (const [name, share] of figures) selections.push(`${rows ? share : `sum(${share})`} AS f_${name}`);
  // A row carrying a code the report cannot name is left out, as if sent after the report began.
  const where = [...plan.where.map((entry) => condition(plan, entry)), ...known];
  // The latest row of a conversion (read with FINAL) says whether it was removed.
  if (source === 'conversions') where.unshift('deleted = 0');
  const sql = [
    `SELECT ${selections.join(', ')}`,
    `FROM ${from}`,
    where.length > 0 ? `WHERE ${where.map((entry) => `(${entry})`).join(' AND ')}` : '',
    // As render-sql.ts: without groups, one row only when some row was kept.
    rows ? '' : groupings.length > 0 ? `GROUP BY ${groupings.join(', ')}` : 'HAVING count() > 0',
  ]
    .filter(Boolean)
    .join('\n');
  const read = (row: Record<string, unknown>): AggregateRow => {
    const result: AggregateRow = {};
    for (const group of plan.groups) result[group.alias] = row[group.alias] ?? null;
    if ('g_utc_day' in row) result.g_utc_day = row.g_utc_day;
    if ('g_utc_hour' in row) {
      // 'YYYY-MM-DD hh:00:00' → 'YYYY-MM-DDThh', render-sql.ts's substr(created_at, 1, 13); a
      // conversion without its click's time has none.
      const hour = row.g_utc_hour;
      result.g_utc_hour = hour === null ? null : `${String(hour).slice(0, 10)}T${String(hour).slice(11, 13)}`;
    }
    if ('g_quarter' in row) result.g_quarter = row.g_quarter === null ? null : Number(row.g_quarter);
    for (const [name] of figures) result[name] = Number(row[`f_${name}`]);
    return result;
  };
  return { sql, read };
}
