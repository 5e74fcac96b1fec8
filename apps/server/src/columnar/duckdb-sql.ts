// An aggregate plan (report-plan/plan.ts) as DuckDB SQL over the columnar rows (schema.ts). Column
// names are checked against the store's own; every value is a bound parameter ($1, $2, …).
//
// Time: created_at is a TIMESTAMP (UTC). When the report has a range, local days and hours are bucketed
// here, shifting each row by its zone's offset (report-plan/time.ts, offsetSpans): converting every row with
// the zone's rules costs seconds at 10M rows, a CASE over two or three spans costs little. Without a range
// the rows are bucketed in UTC as render-sql.ts does, and reports/merge.ts folds them into local buckets.
import { type DuckDBListValue, listValue } from '@duckdb/node-api';
import type { AggregatePlan, PlanCondition, PlanValue } from '../report-plan/plan.js';
import { nextDay, offsetSpans, startOfLocalDay } from '../report-plan/time.js';
import { type CodeBook, type CodedColumn, codeColumn } from './duckdb-codes.js';
import { CONVERSION_TEXT_COLUMNS } from './schema.js';

const COLUMNS: ReadonlySet<string> = new Set([...CONVERSION_TEXT_COLUMNS, 'asn', 'is_bot']);

/** A bound value: text, a number, or a list of texts. */
export type BoundValue = string | number | bigint | DuckDBListValue;

export interface DuckQuery {
  sql: string;
  values: BoundValue[];
}

/**
 * An instant as a timestamp literal: microseconds since 1970, digits only (from Date.parse, never from
 * the request's text). Written into the SQL rather than bound, so DuckDB compares it with each row
 * group's smallest and largest time and skips the row groups outside, which it does not for a parameter.
 */
function instant(iso: string): string {
  const ms = Date.parse(iso);
  if (!Number.isSafeInteger(ms)) throw new Error(`not an instant: ${iso}`);
  return `make_timestamp(${BigInt(ms) * 1000n})`;
}

function identifier(name: string): string {
  if (!COLUMNS.has(name)) throw new Error(`the columnar store has no column ${name}`);
  return `"${name}"`;
}

/** Two counts summed as one: the first times PAIR plus the second (under 2^32 clicks in any group). */
export const PAIR = 4_294_967_296;

/**
 * One count of a summed pair. DuckDB sums into 128 bits, and dividing those cost more than the pairs
 * saved over half a million groups: a sum that fits 64 bits (under 2^31 clicks in the group) is divided
 * as one.
 */
export function splitPair(pair: string, op: '//' | '%'): string {
  return `case when ${pair} < 9223372036854775807 then cast(${pair} as bigint) ${op} ${PAIR} else cast(${pair} ${op} ${PAIR} as bigint) end`;
}

/**
 * Clicks' figures: bots' clicks out of clicks and unique clicks unless the plan includes them.
 * `events`, `unique_events`, `lp_events`, `lander_events` and `is_bot` are 0 or 1 (follower.ts), so bots
 * are taken out by a product rather than a case per row, and two counts are summed as one number
 * (PAIR): each sum over millions of rows costs as much as the grouping's own, and the pairs are split on
 * the grouped rows only (`figures`).
 */
function clickFigures(plan: AggregatePlan): { sums: string[]; figures: string[] } {
  const humans = (counts: string) => (plan.includeBots ? counts : `(1 - is_bot) * (${counts})`);
  return {
    sums: [
      `sum(${humans(`events * ${PAIR} + unique_events`)}) as clicks_pair`,
      'sum(cost) as cost',
      'sum(events * is_bot) as bot_clicks',
      // An lp click may be an adjustment row (events 0), so lp_events is summed, not events.
      `sum(${humans(`lp_events * ${PAIR} + lander_events`)}) as landers_pair`,
    ],
    figures: [
      `${splitPair('clicks_pair', '//')} as clicks`,
      `${splitPair('clicks_pair', '%')} as unique_clicks`,
      'cost',
      'bot_clicks',
      `${splitPair('landers_pair', '//')} as lp_clicks`,
      `${splitPair('landers_pair', '%')} as lander_clicks`,
    ],
  };
}

/** Each source's figures (reports/figures.ts, §Figures; render-sql.ts for conversions). */
const FIGURES: Record<Exclude<AggregatePlan['source'], 'clicks'>, string[]> = {
  leads: ['sum(events) as leads'],
  conversions: [
    "coalesce(sum(case when is_conversion = 1 and state in ('pending', 'approved') then 1 else 0 end), 0) as conversions",
    "coalesce(sum(case when is_conversion = 1 and state = 'approved' then 1 else 0 end), 0) as approved",
    "coalesce(sum(case when is_conversion = 1 and state = 'pending' then 1 else 0 end), 0) as pending",
    "coalesce(sum(case when is_conversion = 1 and state = 'rejected' then 1 else 0 end), 0) as rejected",
    "coalesce(sum(case when state <> 'rejected' and isfinite(payout) then payout else 0 end), 0) as revenue",
    "coalesce(sum(case when state = 'approved' and isfinite(payout) then payout else 0 end), 0) as revenue_confirmed",
  ],
};

/** Bound values of one statement, numbered as they are bound. */
export type Bind = (value: BoundValue) => string;

export function binder(): { bind: Bind; values: BoundValue[] } {
  const values: BoundValue[] = [];
  return {
    values,
    bind: (value) => {
      values.push(value);
      return `$${values.length}`;
    },
  };
}

/**
 * A plan's rows grouped: `k0`, `k1`… (the plan's groups, as shown), `b` (the time bucket: local when
 * `local`, else UTC, and `q` its quarter), and the source's figures by name; `outer` formats them as
 * render-sql.ts's rows.
 */
export interface GroupedQuery {
  sql: string;
  outer: string[];
  figures: string[];
  /** Whether `b` is a local day or hour (the report's range given), rather than UTC. */
  local: boolean;
  /** Whether `b` counts hours (else days). */
  hours: boolean;
}

const DAY_US = 86_400_000_000;
const HOUR_US = 3_600_000_000;
const QUARTER_US = 900_000_000;

/** A day number (days since 1970-01-01) as `YYYY-MM-DD`. */
export function dayText(days: string): string {
  return `strftime(make_timestamp(cast(${days} as bigint) * ${DAY_US}), '%Y-%m-%d')`;
}

/** An hour of the day (0…23) as `HH`. */
export function hourText(hour: string): string {
  return `lpad(cast(${hour} as varchar), 2, '0')`;
}

/** The plan as one statement: grouped in an inner query, formatted (time buckets) in the outer one. */
export function duckdbAggregate(plan: AggregatePlan, codes?: CodeBook): DuckQuery {
  const { bind, values } = binder();
  const grouped = groupedQuery(plan, bind, { codes });
  return { sql: `select ${[...grouped.outer, ...grouped.figures].join(', ')} from (${grouped.sql})`, values };
}

/** Local days a range may be split into (see groupedQuery's `byDay`). */
const MAX_SPLIT_DAYS = 400;

/**
 * The local days of [from, to) — both local midnights, as service.ts gives a range — each with its day
 * number and its first and last instant; null past MAX_SPLIT_DAYS.
 */
export function localDays(
  from: string,
  to: string,
  timeZone: string,
): { day: number; from: string; to: string }[] | null {
  const [first] = offsetSpans(from, to, timeZone);
  if (!first) return null;
  let date = new Date(Date.parse(from) + first.offsetMinutes * 60_000).toISOString().slice(0, 10);
  const days: { day: number; from: string; to: string }[] = [];
  let start = from;
  while (Date.parse(start) < Date.parse(to)) {
    if (days.length >= MAX_SPLIT_DAYS) return null;
    const next = nextDay(date);
    const end = new Date(Math.min(startOfLocalDay(next, timeZone).getTime(), Date.parse(to))).toISOString();
    days.push({ day: Date.parse(`${date}T00:00:00Z`) / 86_400_000, from: start, to: end });
    start = end;
    date = next;
  }
  return days;
}

/**
 * `byDay`: a plan by local days is grouped one day at a time, each day's rows (a slice of the time-ordered
 * table) grouped with its day number as a constant. Half a million groups of 10M clicks took a quarter
 * longer grouped at once: the groups of one day fit in the processor's cache.
 */
export function groupedQuery(
  plan: AggregatePlan,
  bind: Bind,
  { byDay = false, codes }: { byDay?: boolean; codes?: CodeBook | undefined } = {},
): GroupedQuery {
  // Conversions are kept as text only (duckdb-codes.ts).
  const book = plan.source === 'conversions' ? undefined : codes;
  const buckets = plan.buckets;
  const from = plan.where.find((entry) => entry.kind === 'time' && entry.op === '>=');
  const to = plan.where.find((entry) => entry.kind === 'time' && entry.op === '<');
  if (byDay && buckets && !buckets.byHour && from?.kind === 'time' && to?.kind === 'time') {
    const days = localDays(from.at, to.at, buckets.timezone);
    if (days && days.length > 1) {
      const parts = days.map((day) =>
        groupedOne(
          {
            ...plan,
            where: [...plan.where, { kind: 'time', op: '>=', at: day.from }, { kind: 'time', op: '<', at: day.to }],
          },
          bind,
          day.day,
          book,
        ),
      );
      // Named once, after the days are put together.
      return nameCodes({ ...parts[0]!, sql: parts.map((part) => `(${part.sql})`).join('\nunion all\n') }, bind, book);
    }
  }
  return nameCodes(groupedOne(plan, bind, null, book), bind, book);
}

/** A whole number written into the SQL: a dictionary's (duckdb-codes.ts), never a request's. */
function codeLiteral(code: number): string {
  if (!Number.isSafeInteger(code) || code < 0) throw new Error(`not a code: ${code}`);
  return String(code);
}

/** A grouped query before its coded groups are named: its columns, and which of them are numbers. */
interface CodedQuery extends GroupedQuery {
  columns: string[];
  named: { index: number; name: CodedColumn }[];
}

function groupedOne(plan: AggregatePlan, bind: Bind, day: number | null, codes: CodeBook | undefined): CodedQuery {
  // A conversion is counted at its click's time (event_at) or its postback's (created_at).
  const time = plan.time === 'event_at' ? 'event_at' : 'created_at';
  let local = false;
  let hours = false;

  const shown = ({ column, as }: PlanValue): string => {
    // A conversion's columns of its click or lead were copied into its row (follower.ts).
    const read = identifier(column.name);
    if (as === 'flag') return `case when ${read} = 1 then 'true' when ${read} = 0 then 'false' end`;
    if (as === 'text') return `cast(${read} as varchar)`;
    return read;
  };

  // A coded column as stored is compared by its numbers; a value no event has had matches nothing.
  const coded = (value: PlanValue): CodedColumn | null =>
    codes && value.as === 'value' && codes.coded(value.column.name) ? value.column.name : null;
  const codesOf = (name: CodedColumn, texts: readonly string[]) =>
    texts.map((text) => codes!.codeOf(name, text)).filter((code): code is number => code !== undefined);

  const condition = (where: PlanCondition): string => {
    switch (where.kind) {
      case 'equals': {
        const name = coded(where.value);
        if (name) {
          if (where.to === null) return `${codeColumn(name)} is null`;
          const [code] = codesOf(name, [where.to]);
          return code === undefined ? 'false' : `${codeColumn(name)} = ${codeLiteral(code)}`;
        }
        return where.to === null ? `${shown(where.value)} is null` : `${shown(where.value)} = ${bind(where.to)}`;
      }
      case 'workspace':
        // Each row's own workspace, copied from its event row (follower.ts). 0 is an event of none (null
        // in the event tables), which no workspace's report reads.
        if (!Number.isSafeInteger(where.workspace)) throw new Error(`not a workspace: ${where.workspace}`);
        return where.workspace > 0 ? `workspace_id = ${where.workspace}` : 'false';
      case 'time':
        return `${time} ${where.op} ${instant(where.at)}`;
      case 'never':
        return 'false';
      case 'instance':
        return 'true';
      case 'network': {
        // render-sql.ts, networkCondition: clicks and leads by their offer; conversions by their own
        // network, else their offer's.
        const offer = identifier('offer_external_id');
        const list = where.offers.map((id) => bind(id)).join(', ');
        const byOffer =
          where.network === null
            ? where.offers.length === 0
              ? 'true'
              : `(${offer} is null or ${offer} not in (${list}))`
            : where.offers.length === 0
              ? 'false'
              : `${offer} in (${list})`;
        if (plan.source !== 'conversions') return byOffer;
        const own = identifier('affiliate_network_external_id');
        return where.network === null
          ? `(${own} is null and ${byOffer})`
          : `(${own} = ${bind(where.network)} or (${own} is null and ${byOffer}))`;
      }
    }
  };

  const inner: string[] = [];
  const outer: string[] = [];
  const grouped: string[] = [];
  /** Groups by a coded column's numbers, each named from its dictionary once grouped. */
  const named: { index: number; name: CodedColumn }[] = [];
  for (const [index, group] of plan.groups.entries()) {
    const name = coded(group.value);
    if (name) named.push({ index, name });
    inner.push(`${name ? codeColumn(name) : shown(group.value)} as k${index}`);
    grouped.push(`k${index}`);
    // Aliases come from the report's groups (a whitelist); checked again, as they are written into the SQL.
    if (!/^g_[a-z0-9_]+$/.test(group.alias)) throw new Error(`not a group alias: ${group.alias}`);
    outer.push(`k${index} as "${group.alias}"`);
  }

  // Buckets are whole numbers of days or hours since 1970 (epoch_us divided): grouping by them costs a
  // third of date_trunc over millions of rows; only the grouped rows are formatted.
  const buckets = plan.buckets;
  if (buckets) {
    const from = plan.where.find((entry) => entry.kind === 'time' && entry.op === '>=');
    const to = plan.where.find((entry) => entry.kind === 'time' && entry.op === '<');
    if (from?.kind === 'time' && to?.kind === 'time') {
      const spans = offsetSpans(from.at, to.at, buckets.timezone);
      const offset = (minutes: number) => bind(BigInt(minutes) * 60_000_000n);
      const shift = () =>
        spans.length === 1
          ? offset(spans[0]!.offsetMinutes)
          : `case ${spans
              .map((span) =>
                span.until === null
                  ? `else ${offset(span.offsetMinutes)}`
                  : `when ${time} < ${instant(span.until)} then ${offset(span.offsetMinutes)}`,
              )
              .join(' ')} end`;
      const unit = buckets.byHour ? HOUR_US : DAY_US;
      // One day's rows (groupedQuery, byDay): its number, the same on every row.
      inner.push(
        day === null
          ? `(epoch_us(${time}) + cast(${shift()} as bigint)) // ${unit} as b`
          : `${BigInt(day)}::bigint as b`,
      );
      grouped.push('b');
      local = true;
      hours = buckets.byHour;
      outer.push(`${dayText(buckets.byHour ? 'b // 24' : 'b')} as g_local_day`);
      if (buckets.byHour) outer.push(`${hourText('b % 24')} as g_local_hour`);
    } else {
      inner.push(`epoch_us(${time}) // ${buckets.grain === 'day' ? DAY_US : HOUR_US} as b`);
      grouped.push('b');
      if (buckets.grain === 'day') outer.push(`${dayText('b')} as g_utc_day`);
      else outer.push(`${dayText('b // 24')} || 'T' || ${hourText('b % 24')} as g_utc_hour`);
      if (buckets.grain === 'quarter') {
        inner.push(`(epoch_us(${time}) // ${QUARTER_US}) % 4 as q`);
        grouped.push('q');
        outer.push('q as g_quarter');
      }
    }
  }

  const { sums, figures } =
    plan.source === 'clicks' ? clickFigures(plan) : { sums: FIGURES[plan.source], figures: null };
  const names = (figures ?? sums).map((figure) => figure.split(' as ').at(-1)!);
  const where = plan.where.map(condition);
  const table = plan.source;
  const summed = `select ${[...inner, ...sums].join(', ')}
    from ${table}
    ${where.length > 0 ? `where ${where.join(' and ')}` : ''}
    ${grouped.length > 0 ? `group by ${grouped.join(', ')}` : 'having count(*) > 0'}`;
  const sql = figures ? `select ${[...grouped, ...figures].join(', ')} from (${summed})` : summed;
  return { sql, outer, figures: names, local, hours, columns: [...grouped, ...names], named };
}

/**
 * The grouped rows (one statement, or one day's after another) with their coded groups named: each
 * number looked up in its dictionary's values, bound as one list (a join with the dictionary table cost
 * a third more over half a million groups).
 */
function nameCodes(query: CodedQuery, bind: Bind, codes: CodeBook | undefined): GroupedQuery {
  const { columns, named, ...grouped } = query;
  if (named.length === 0 || !codes) return grouped;
  const selected = columns.map((column) => {
    const at = named.find((entry) => `k${entry.index}` === column);
    if (!at) return `g.${column}`;
    const values = codes.valuesOf(at.name);
    // An empty list has no item type to bind (DuckDB refuses it); with no value coded, every code is null.
    if (values.length === 0) return `cast(null as varchar) as ${column}`;
    return `list_extract(${bind(listValue([...values]))}::varchar[], g.${column}) as ${column}`;
  });
  return { ...grouped, sql: `select ${selected.join(', ')} from (${grouped.sql}) as g` };
}
