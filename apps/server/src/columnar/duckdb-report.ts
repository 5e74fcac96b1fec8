// A whole report in one DuckDB statement, for the embedded store that holds clicks, leads and
// conversions: each table grouped (duckdb-sql.ts), the three merged by the report's groups, labelled
// with the names reports/service.ts passes, ordered and paged, with the number of rows and the totals. Half a
// million groups never leave DuckDB; the page does. It means what reports/merge.ts's merge, sort and page do
// over the same rows (test/columnar-duckdb.test.ts compares both).
import {
  COUNT_NAMES,
  COUNTS_OF,
  NONE_LABEL,
  type PagedPlan,
  pageBound,
  type Source,
  WEEKDAY_LIST,
} from '../report-plan/plan.js';
import type { CodeBook } from './duckdb-codes.js';
import { binder, type DuckQuery, dayText, groupedQuery, hourText, localDays } from './duckdb-sql.js';

export function duckdbReport(paged: PagedPlan, codes?: CodeBook): DuckQuery {
  const { bind, values } = binder();
  const columns = paged.groups.map((_, index) => `v${index}`);

  // A day at a time pays when days hold many groups each; by one value and day it cost more than it saved.
  const valueGroups = paged.groups.filter((group) => group !== 'day' && group !== 'hour' && group !== 'weekday').length;
  // Each table's rows grouped by the report's values: v0, v1… and its own counts.
  const grouped = (source: Source) => {
    const plan = paged.plans[source];
    // Clicks, millions of rows, one local day at a time (duckdb-sql.ts, groupedQuery).
    const query = groupedQuery(plan, bind, { byDay: source === 'clicks' && valueGroups >= 2, codes });
    // Time groups stay numbers until the page is formatted: day numbers, hours of the day, weekdays
    // (0 Monday; 1970-01-01, day 0, was a Thursday).
    const day = query.hours ? '(b // 24)' : 'b';
    const shown = paged.groups.map((group) => {
      if (group === 'day' || group === 'hour' || group === 'weekday') {
        // Local buckets only: service.ts asks this with a range, so every bucket is a local one.
        if (!query.local) throw new Error('a report by time needs its range to be merged in the store');
        if (group === 'day') return day;
        if (group === 'hour') return 'b % 24';
        return `(${day} + 3) % 7`;
      }
      const at = plan.groups.findIndex((entry) => entry.alias === `g_${group}`);
      return at >= 0 ? `k${at}` : 'cast(null as varchar)';
    });
    return { query, shown };
  };
  const valuesOf = (shown: string[]) => shown.map((value, index) => `${value} as v${index}`);

  // Clicks, the big side, are grouped once and joined to leads and conversions merged (a few groups
  // each): grouping half a million click groups again with ten sums cost more than the join.
  const clicks = grouped('clicks');
  // A click group is one report row unless a time value folds several buckets into one: an hour of the
  // day without its day, a weekday. Those are grouped again.
  const times = paged.groups.filter((group) => group === 'day' || group === 'hour' || group === 'weekday');
  const once = times.length === 0 || (times.includes('day') && (!clicks.query.hours || times.includes('hour')));
  const clickRows = once
    ? `select ${[...valuesOf(clicks.shown), ...COUNTS_OF.clicks.map((name) => `cast(${name} as double) as ${name}`)].join(', ')} from (${clicks.query.sql})`
    : `select ${[...valuesOf(clicks.shown), ...COUNTS_OF.clicks.map((name) => `cast(sum(${name}) as double) as ${name}`)].join(', ')} from (${clicks.query.sql}) group by ${columns.join(', ')}`;
  const restCounts = COUNT_NAMES.filter((name) => !COUNTS_OF.clicks.includes(name));
  const otherRows = (['leads', 'conversions'] as const).map((source) => {
    const { query, shown } = grouped(source);
    const counts = restCounts.map(
      (name) => `${COUNTS_OF[source].includes(name) ? `cast(${name} as double)` : '0.0'} as ${name}`,
    );
    return `select ${[...valuesOf(shown), ...counts].join(', ')} from (${query.sql})`;
  });
  const others = `select ${[...columns, ...restCounts.map((name) => `sum(${name}) as ${name}`)].join(', ')}
    from (${otherRows.join('\nunion all\n')})
    ${columns.length > 0 ? `group by ${columns.join(', ')}` : 'having count(*) > 0'}`;
  const joined = columns.map((column) => `c.${column} is not distinct from r.${column}`).join(' and ') || 'true';
  const merged = [
    ...columns.map((column) => `coalesce(c.${column}, r.${column}) as ${column}`),
    ...COUNT_NAMES.map((name) => `coalesce(${COUNTS_OF.clicks.includes(name) ? 'c' : 'r'}.${name}, 0.0) as ${name}`),
  ];

  // The values as the report shows them.
  // Days as text from a list of the range's days, rather than a date formatted on each of half a
  // million rows.
  const range = paged.plans.clicks.where.filter((entry) => entry.kind === 'time');
  const days =
    range[0]?.kind === 'time' && range[1]?.kind === 'time' && paged.plans.clicks.buckets
      ? localDays(range[0].at, range[1].at, paged.plans.clicks.buckets.timezone)
      : null;
  const dayOf = (value: string) => {
    if (!days || days.length === 0) return dayText(value);
    const texts = days.map((entry) => `'${new Date(entry.day * 86_400_000).toISOString().slice(0, 10)}'`);
    const first = String(BigInt(days[0]!.day));
    const last = String(BigInt(days[days.length - 1]!.day));
    return `case when ${value} between ${first} and ${last} then [${texts.join(', ')}][${value} - ${first} + 1] else ${dayText(value)} end`;
  };
  const formatted = paged.groups.map((group, index) =>
    group === 'day'
      ? dayOf(`m.v${index}`)
      : group === 'hour'
        ? hourText(`m.v${index}`)
        : group === 'weekday'
          ? `${WEEKDAY_LIST}[m.v${index} + 1]`
          : `m.v${index}`,
  );
  // Labels as reports/config-names.ts's labelOf(): the name, else the value; `HH:00` for an hour; none for no value.
  const joins: string[] = [];
  const labels = paged.groups.map((group, index) => {
    const names = paged.names[index];
    if (names && names.size > 0) {
      const rows = [...names].map(([id, name]) => `(${bind(id)}, ${bind(name)})`).join(', ');
      joins.push(`left join (values ${rows}) as n${index}(id, name) on n${index}.id = m.v${index}`);
      return `coalesce(n${index}.name, m.v${index})`;
    }
    return group === 'hour' ? `${formatted[index]} || ':00'` : formatted[index]!;
  });

  const direction = paged.descending ? 'desc' : 'asc';
  let sortKey: string;
  if (paged.order.by === 'label') {
    sortKey = `lower(${labels.map((label) => `coalesce(${label}, ${bind(NONE_LABEL)})`).join(` || ' / ' || `) || "''"})`;
  } else if (paged.order.by === 'group') {
    const index = paged.order.index;
    const group = paged.groups[index];
    // Days and hours in time order, weekdays Monday first: their numbers.
    sortKey = group === 'weekday' || group === 'day' || group === 'hour' ? `m.v${index}` : `lower(${labels[index]})`;
  } else {
    if (!(COUNT_NAMES as readonly string[]).includes(paged.order.name)) throw new Error('not a count');
    sortKey = `m.${paged.order.name}`;
  }
  // Ties: by the values as shown, group after group, rows without a value last (reports/rows.ts,
  // compareValues); day and hour numbers sort as their text does, weekdays do not.
  const order = [
    `s ${direction} nulls last`,
    ...paged.groups.map((group, index) => `${group === 'weekday' ? formatted[index] : `m.v${index}`} asc nulls last`),
  ];

  // m is read twice, for the page and for the totals: materialized, it is merged once.
  const sql = `with c as (${clickRows}),
    r as (${others}),
    m as materialized (select ${merged.join(', ')} from c full join r on ${joined}),
    t as (select ${['count(*) as total_rows', ...COUNT_NAMES.map((name) => `sum(${name}) as total_${name}`)].join(', ')} from m)
    select ${[
      ...formatted.map((value, index) => `${value} as o${index}`),
      ...COUNT_NAMES.map((name) => `m.${name}`),
      `${sortKey} as s`,
      't.*',
    ].join(', ')}
    from m ${joins.join(' ')} cross join t
    order by ${order.join(', ')}
    ${paged.limit > 0 ? `limit ${pageBound(paged.limit)} offset ${pageBound(paged.offset)}` : ''}`;
  return { sql, values };
}
