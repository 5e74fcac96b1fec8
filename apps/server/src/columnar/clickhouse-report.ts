// A whole report in one ClickHouse statement, as duckdb-report.ts does it in DuckDB: each
// table grouped (clickhouse-sql.ts), the three merged by the report's groups, labelled with the names
// reports/service.ts passes, ordered and paged. Half a million groups stay in ClickHouse; the page comes back.
//
// Within the subset 18.16 shares with current releases: no window functions (the totals are `WITH
// TOTALS`, the number of rows `rows_before_limit_at_least`, exact for a grouped query), names through
// `transform` rather than a join, UNION ALL branches cast to one type each.
//
// Current releases (26.7, run by test/columnar-chdb.test.ts) write an answer whose rows are empty with its
// totals before its head (`"totals": …` then `{"meta": …`): not JSON. So no answer is ever empty: one
// more row (`x` 1, no values, no counts) sorts before every other, and each page is read from the first
// row (`LIMIT offset + count + 1`); the store drops that row and the rows before the page.
//
// In tables that hold codes (clickhouse-codes.ts), a group of a bounded column is grouped by its codes,
// fixed-width keys, and named with `transform` once grouped; rows are still ordered by their labels, then
// by the values as shown, never by code. A row whose code the report's dictionary lacks (sent after it was
// read) is left out: the next report counts it, rather than this one showing it unnamed.
import {
  COUNT_NAMES,
  COUNTS_OF,
  NONE_LABEL,
  type PagedPlan,
  pageBound,
  type Source,
  WEEKDAY_LIST,
} from '../report-plan/plan.js';
import type { CodeDictionary } from './clickhouse-codes.js';
import { aggregateQuery, type CodedColumn, isCoded, literal } from './clickhouse-sql.js';

const SOURCES: readonly Source[] = ['clicks', 'leads', 'conversions'];

const isTime = (group: string) => group === 'day' || group === 'hour' || group === 'weekday';

/**
 * From this many groups, the tables' rows are grouped once, all together, rather than each table's rows
 * grouped and the groups grouped again. The second grouping costs by the groups, which multiply with each
 * group of the report (half a million by campaign, offer, country and day at 10M clicks); grouping once
 * costs each click the other tables' figures, zeros, summed (bench/README.md, 2026-11-29, third session).
 */
const ONE_PASS_GROUPS = 3;

/**
 * Per group, the column whose codes (clickhouse-codes.ts) it can be grouped by: one coded column, read
 * as stored, in every table that has the group; else null.
 */
export function codedGroups(paged: PagedPlan): (CodedColumn | null)[] {
  return paged.groups.map((group) => {
    if (isTime(group)) return null;
    let column: CodedColumn | null = null;
    for (const source of SOURCES) {
      const entry = paged.plans[source].groups.find((candidate) => candidate.alias === `g_${group}`);
      if (!entry) continue;
      const name = entry.value.column.name;
      if (entry.value.as !== 'value' || !isCoded(name) || (column !== null && column !== name)) return null;
      column = name;
    }
    return column;
  });
}

/**
 * The statement (without FORMAT): rows `o0`, `o1`… (the values as shown) and `n_<count>`; totals and the
 * number of rows come with the answer (`WITH TOTALS`, `rows_before_limit_at_least`). With `dictionary`
 * (the tables hold codes), groups of a coded column are grouped by their codes (UInt32, 0 for none) and
 * named once grouped.
 */
export function clickhouseReport(
  paged: PagedPlan,
  from: (source: Source) => string,
  dictionary?: CodeDictionary,
): string {
  const columns = paged.groups.map((_, index) => `v${index}`);
  const hours = paged.plans.clicks.buckets?.byHour === true;
  const rows = paged.groups.length >= ONE_PASS_GROUPS;
  const codedAs = dictionary ? codedGroups(paged) : paged.groups.map(() => null);
  const coded = dictionary
    ? {
        aliases: new Set(paged.groups.filter((_, index) => codedAs[index] !== null).map((group) => `g_${group}`)),
        known: (name: CodedColumn) => dictionary.known(name),
      }
    : undefined;
  const branches = SOURCES.map((source) => {
    const plan = paged.plans[source];
    const { sql } = aggregateQuery(plan, from(source), { local: true, rows, ...(coded ? { coded } : {}) });
    // Time groups stay numbers until shown: day numbers, hours of the day, weekdays (0 Monday;
    // 1970-01-01, day 0, was a Thursday).
    const day = hours ? 'intDiv(b, 24)' : 'b';
    const values = paged.groups.map((group, index) => {
      if (isTime(group)) {
        const value = group === 'day' ? day : group === 'hour' ? 'b % 24' : `(${day} + 3) % 7`;
        return `CAST(${value} AS Nullable(Int64)) AS v${index}`;
      }
      const grouped = plan.groups.some((entry) => entry.alias === `g_${group}`);
      if (codedAs[index] !== null) return `toUInt32(${grouped ? `g_${group}` : '0'}) AS v${index}`;
      return `CAST(${grouped ? `g_${group}` : 'NULL'} AS Nullable(String)) AS v${index}`;
    });
    const counts = COUNT_NAMES.map(
      (name) => `toFloat64(${COUNTS_OF[source].includes(name) ? `f_${name}` : 'materialize(0)'}) AS ${name}`,
    );
    // The zeros as columns: 18.16 refuses a branch's constant where another branch has a column, once
    // the branches read rows rather than groups.
    return `SELECT ${[...values, ...counts, 'materialize(toUInt8(0)) AS x'].join(', ')} FROM (${sql})`;
  });
  // The row that keeps the answer from being empty (see the top of this file).
  const head = `SELECT ${[
    ...paged.groups.map((group, index) =>
      codedAs[index] !== null
        ? `toUInt32(0) AS v${index}`
        : `CAST(NULL AS Nullable(${isTime(group) ? 'Int64' : 'String'})) AS v${index}`,
    ),
    ...COUNT_NAMES.map((name) => `toFloat64(0) AS ${name}`),
    'toUInt8(1) AS x',
  ].join(', ')}`;

  // A coded group's code as text through the dictionary (`texts`: per code, in its order); 0 is none.
  const named = (index: number, texts: (value: string) => string) => {
    const { codes, values } = dictionary!.entries(codedAs[index]!);
    if (codes.length === 0) return 'CAST(NULL AS Nullable(String))';
    const from = codes.map(literal).join(', ');
    const to = values.map((value) => literal(texts(value))).join(', ');
    return `if(v${index} = 0, NULL, transform(v${index}, [${from}], [${to}], ''))`;
  };
  // The values as the report shows them, and their labels (reports/config-names.ts, labelOf()).
  const shown = paged.groups.map((group, index) => {
    const value = `v${index}`;
    if (codedAs[index] !== null) return named(index, (text) => text);
    if (group === 'day')
      return `if(isNull(${value}), NULL, toString(addDays(toDate('1970-01-01'), assumeNotNull(${value}))))`;
    if (group === 'hour') return `if(${value} < 10, concat('0', toString(${value})), toString(${value}))`;
    if (group === 'weekday') return `${WEEKDAY_LIST}[assumeNotNull(${value}) + 1]`;
    return value;
  });
  const labels = paged.groups.map((group, index) => {
    const names = paged.names[index];
    if (codedAs[index] !== null)
      return names && names.size > 0 ? named(index, (text) => names.get(text) ?? text) : shown[index]!;
    if (names && names.size > 0) {
      const ids = [...names.keys()].map(literal).join(', ');
      const texts = [...names.values()].map(literal).join(', ');
      return `if(isNull(v${index}), NULL, transform(assumeNotNull(v${index}), [${ids}], [${texts}], assumeNotNull(v${index})))`;
    }
    return group === 'hour' ? `concat(${shown[index]}, ':00')` : shown[index]!;
  });

  const direction = paged.descending ? 'DESC' : 'ASC';
  let sortKey: string;
  if (paged.order.by === 'label') {
    const joined = labels.map((label) => `ifNull(${label}, ${literal(NONE_LABEL)})`).join(", ' / ', ");
    sortKey = labels.length > 0 ? `lowerUTF8(concat(${joined}${labels.length === 1 ? ", ''" : ''}))` : "''";
  } else if (paged.order.by === 'group') {
    const index = paged.order.index;
    sortKey = isTime(paged.groups[index]!) ? `v${index}` : `lowerUTF8(${labels[index]})`;
  } else {
    if (!(COUNT_NAMES as readonly string[]).includes(paged.order.name)) throw new Error('not a count');
    sortKey = `n_${paged.order.name}`;
  }
  // Ties: by the values as shown, group after group, rows without a value last (reports/rows.ts,
  // compareValues); day and hour numbers sort as their text does, weekdays and codes do not.
  const order = [
    'x DESC',
    `${sortKey} ${direction} NULLS LAST`,
    ...paged.groups.map(
      (group, index) => `${group === 'weekday' || codedAs[index] !== null ? shown[index] : `v${index}`} ASC NULLS LAST`,
    ),
  ];
  const sums = COUNT_NAMES.map((name) => `sum(${name}) AS n_${name}`);
  if (columns.length === 0) {
    // One row, when any table kept a row: it is its own total (no totals, so an empty answer is JSON).
    return `SELECT ${sums.join(', ')} FROM (${branches.join('\nUNION ALL\n')}) HAVING count() > 0`;
  }
  const union = [...branches, head].join('\nUNION ALL\n');
  const through = paged.limit > 0 ? pageBound(paged.offset + paged.limit + 1) : null;
  return `SELECT ${[...shown.map((value, index) => `${value} AS o${index}`), ...sums, 'x'].join(', ')}
    FROM (${union})
    GROUP BY ${[...columns, 'x'].join(', ')} WITH TOTALS
    ORDER BY ${order.join(', ')}
    ${through === null ? '' : `LIMIT ${through}`}`;
}
