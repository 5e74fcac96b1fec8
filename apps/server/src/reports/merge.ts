// A report worked out in JavaScript from its three tables' rows, in four steps: merge the rows by the
// groups' local values, label them (and keep those the search finds), order them, and page them with
// the totals. Sort keys are computed once per row, and a row's figures only when it is ordered by one or
// shown: a report of half a million groups shows forty.
import type { ReportGroup, ReportResponse, TReportQuery } from '@switchyard/domain';
import type { AggregateRow, Counts, PagedRows, Source } from '../report-plan/plan.js';
import { localBucket } from '../report-plan/time.js';
import { labelOf, weekdayOf } from './config-names.js';
import { emptyCounts, figures, type ParsedMetric, withCustomMetrics } from './figures.js';
import type { ConfigNames } from './report-plans.js';
import { compareValues, type Listed, shownRow, sortKeyOf } from './rows.js';

/** One group's merged counts, by its values. */
export interface Merged {
  values: (string | null)[];
  counts: Counts;
}

function text(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

/** What each table's row adds to its group's counts. */
const ADD: Record<Source, (counts: Counts, row: AggregateRow) => void> = {
  clicks: (counts, row) => {
    counts.clicks += Number(row.clicks);
    counts.unique_clicks += Number(row.unique_clicks);
    counts.cost += Number(row.cost);
    counts.bot_clicks += Number(row.bot_clicks);
    counts.lp_clicks += Number(row.lp_clicks);
    counts.lander_clicks += Number(row.lander_clicks);
  },
  leads: (counts, row) => {
    counts.leads += Number(row.leads);
  },
  conversions: (counts, row) => {
    counts.conversions += Number(row.conversions);
    counts.approved += Number(row.approved);
    counts.pending += Number(row.pending);
    counts.rejected += Number(row.rejected);
    counts.revenue += Number(row.revenue);
    counts.revenue_confirmed += Number(row.revenue_confirmed);
  },
};

/** The three tables' rows merged by the groups' (local) values. */
export function mergeRows(
  tables: Record<Source, readonly AggregateRow[]>,
  groups: readonly ReportGroup[],
  timezone: string,
  config: ConfigNames,
): Merged[] {
  const merged = new Map<string, Merged>();
  const buckets = new Map<string, { day: string; hour: string }>();
  const valuesOf = (row: AggregateRow): (string | null)[] => {
    // A columnar store buckets local days and hours itself (columnar/duckdb-sql.ts).
    const local =
      row.g_local_day !== undefined
        ? { day: String(row.g_local_day), hour: row.g_local_hour === undefined ? '00' : String(row.g_local_hour) }
        : row.g_utc_day !== undefined
          ? { day: String(row.g_utc_day), hour: '00' }
          : row.g_utc_hour !== undefined
            ? localBucket(String(row.g_utc_hour), Number(row.g_quarter ?? 0), timezone, buckets)
            : null;
    return groups.map((group): string | null => {
      if (group === 'day') return local?.day ?? null;
      if (group === 'hour') return local?.hour ?? null;
      if (group === 'weekday') return local ? weekdayOf(local.day) : null;
      const value = text(row[`g_${group}`]);
      if (group === 'affiliate_network' && value === null) {
        const offer = text(row.g_network_offer);
        return offer === null ? null : (config.offerNetworks.get(offer) ?? null);
      }
      return value;
    });
  };
  for (const source of ['clicks', 'leads', 'conversions'] as const) {
    for (const row of tables[source]) {
      const values = valuesOf(row);
      const key = JSON.stringify(values);
      let entry = merged.get(key);
      if (!entry) {
        entry = { values, counts: emptyCounts() };
        merged.set(key, entry);
      }
      ADD[source](entry.counts, row);
    }
  }
  return [...merged.values()];
}

/** Each merged row labelled, with its sort key; those the search does not find are left out. */
export function labelRows(
  merged: readonly Merged[],
  query: TReportQuery,
  config: ConfigNames,
  metrics: readonly ParsedMetric[],
): Listed[] {
  const groups = query.group_by;
  const needle = query.search_text.toLowerCase();
  const orderBy = query.order_by ?? groups[0] ?? 'label';
  const groupIndex = groups.indexOf(orderBy as ReportGroup);
  const byFigure = orderBy !== 'label' && groupIndex < 0;
  const rows: Listed[] = [];
  for (const { values, counts } of merged) {
    const labels = groups.map((group, index) => labelOf(group, values[index] ?? null, config));
    if (
      needle &&
      !labels.some((label) => label.toLowerCase().includes(needle)) &&
      !values.some((value) => value?.toLowerCase().includes(needle))
    ) {
      continue;
    }
    const entry: Listed = { labels, values, counts, sortKey: null, shown: null };
    if (byFigure) entry.shown = withCustomMetrics(figures(counts), metrics);
    entry.sortKey = sortKeyOf(entry, orderBy, groupIndex);
    rows.push(entry);
  }
  return rows;
}

/** The rows in the order asked, ties by their values; rows without a value come last either way. */
export function orderRows(rows: Listed[], descending: boolean): Listed[] {
  const direction = descending ? -1 : 1;
  return rows.sort((a, b) => {
    const left = a.sortKey;
    const right = b.sortKey;
    if (left === null && right !== null) return 1;
    if (right === null && left !== null) return -1;
    if (left !== null && right !== null && left !== right) return (left < right ? -1 : 1) * direction;
    return compareValues(a.values, b.values);
  });
}

/** The page asked (limit 0: every row), how many rows there are, and the totals of them all. */
export function pageRows(
  rows: readonly Listed[],
  query: TReportQuery,
  metrics: readonly ParsedMetric[],
): ReportResponse {
  const totals = emptyCounts();
  for (const { counts } of rows) {
    for (const name of Object.keys(totals) as (keyof Counts)[]) totals[name] += counts[name];
  }
  const start = (query.page - 1) * query.limit;
  const page = query.limit === 0 ? rows : rows.slice(start, start + query.limit);
  return {
    list: page.map((entry) =>
      shownRow(
        query.group_by,
        entry.labels,
        entry.values,
        entry.shown ?? withCustomMetrics(figures(entry.counts), metrics),
      ),
    ),
    total: rows.length,
    totals: withCustomMetrics(figures(totals), metrics),
  };
}

/** A page a source merged, ordered and paged itself, labelled and with its figures. */
export function labelPage(
  page: PagedRows,
  groups: readonly ReportGroup[],
  config: ConfigNames,
  metrics: readonly ParsedMetric[],
): ReportResponse {
  return {
    list: page.rows.map(({ values, counts }) =>
      shownRow(
        groups,
        groups.map((group, index) => labelOf(group, values[index] ?? null, config)),
        values,
        withCustomMetrics(figures(counts), metrics),
      ),
    ),
    total: page.total,
    totals: withCustomMetrics(figures(page.totals), metrics),
  };
}
