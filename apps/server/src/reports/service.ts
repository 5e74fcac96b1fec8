// Reports (issue 5, item 4; §3.10, §7.5): clicks, leads and conversions grouped by one or more names.
//
// Each event table is aggregated in the database, grouped by the asked columns (and, for day or hour,
// by UTC quarter-hour) — clicks and leads from a rollup cube when one holds every dimension asked
// (store/report-rollups.ts; the same figures, from far fewer rows); the three results are merged here, quarter-hours folded into local days and
// hours, names resolved from config_records, then searched, ordered and paged. Column names come from
// the whitelists below, never from the request; every value from the request is a bound parameter.
//
// Figures (every division by zero gives 0):
// - clicks: rows of tracker_clicks without a bot verdict (issue 43), or every row with `include_bots`;
// - unique_clicks: those clicks flagged unique (the visitor's first on the campaign in its window);
// - bot_clicks: rows of tracker_clicks with a bot verdict (is_bot = 1), whatever `include_bots` says;
// - lp_clicks: those clicks (bots' with `include_bots` only) whose visitor followed their lander's offer
//   link (lp_clicked_at set, once per click); lp_ctr: lp_clicks / those clicks sent to a lander × 100;
// - leads: rows of tracker_leads (the API side's entries);
// - conversions: conversion rows whose postback event counts as a conversion (is_conversion = 1) and
//   whose state (issue 18) is pending or approved — a rejected conversion no longer counts;
// - approved, pending, rejected: the conversion rows (is_conversion = 1) in that state;
// - revenue: the payout, after the campaign's payout rules, of every conversion row not rejected
//   (pending and approved; rows whose event is not a conversion included);
// - revenue_confirmed: the payout of the approved rows only;
// - cost: every click's cost, bots' included (they were routed and may have cost money);
// - profit: revenue − cost;
// - roi: profit / cost × 100;
// - roi_confirmed: (revenue_confirmed − cost) / cost × 100;
// - cr: conversions / (clicks + leads) × 100 — a campaign has clicks (tracker) or leads (API), not both;
// - epc: revenue / (clicks + leads);
// - cpc: cost / (clicks + leads);
// - cpa: cost / conversions.
// Conversions are counted, in the state they are in now, at their click's (or lead's) time (event_at) —
// the default, as the traffic source bills the click — or with `attribution=postback` at their first
// postback's (created_at), as the network's own statistics count them; clicks and leads at theirs.
// Conversions are never read from a rollup: from the columnar store when it holds them, else from their
// table (through an index on campaign and each time).
// Amounts are summed as stored, whatever their currency.

import {
  type CustomMetricDefinition,
  evaluateFormula,
  type FormulaNode,
  isReportTimeGroup,
  parseFormula,
  type ReportFigures,
  type ReportFilterGroup,
  type ReportGroup,
  type ReportResponse,
  type TReportQuery,
  WEEKDAYS,
  type Weekday,
} from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { type Scope, scopeCondition, scopeWorkspace } from '../store/scope.js';
import {
  type AggregatePlan,
  type AggregateRow,
  COUNT_NAMES,
  type CountName,
  type Counts,
  NONE_LABEL,
  type PagedPlan,
  type PagedRows,
  type Source,
} from './plan.js';
import { aggregateEvents } from './render-sql.js';
import {
  type ConfigNames,
  FROM_ORIGIN,
  groupExpression,
  type Narrowing,
  planOf,
  REPORT_COLUMNS,
  type ReportRange,
} from './report-plans.js';

export { FROM_ORIGIN, groupExpression, REPORT_COLUMNS };

import { aggregateFromRollups, type DimensionFilters, isRollupDimension, rollupsHold } from './rollup-query.js';
import { compareValues, type Listed, shownRow, sortKeyOf } from './rows.js';
import { localBucket, nextDay, startOfLocalDay } from './time.js';

/** The weekday (`mon` … `sun`, the rules' words) of a local day `YYYY-MM-DD`. */
function weekdayOf(day: string): Weekday {
  // getUTCDay counts from Sunday; WEEKDAYS from Monday.
  return WEEKDAYS[(new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7]!;
}

/** The config kinds whose names label each group. */
const NAME_KINDS: Partial<Record<ReportGroup, readonly string[]>> = {
  campaign: ['campaigns', 'tracker-campaigns'],
  flow: ['flows', 'tracker-flows'],
  offer: ['offers', 'tracker-offers'],
  lander: ['tracker-landers'],
  traffic_source: ['traffic-sources'],
  affiliate_network: ['affiliate-networks'],
};

function emptyCounts(): Counts {
  return {
    clicks: 0,
    unique_clicks: 0,
    leads: 0,
    conversions: 0,
    approved: 0,
    pending: 0,
    rejected: 0,
    revenue: 0,
    revenue_confirmed: 0,
    cost: 0,
    bot_clicks: 0,
    lp_clicks: 0,
    lander_clicks: 0,
  };
}

function round(value: number): number {
  // `|| 0`: a sum of costs set back to 0 may be -0 on one backend and 0 on another; both show 0.
  return Math.round(value * 1e6) / 1e6 || 0;
}

function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

/** Issue 40: a sum that is not finite (an amount stored before they were checked) is shown as 0, never null. */
function finiteCounts(counts: Counts): Counts {
  const finite = { ...counts };
  for (const name of Object.keys(finite) as (keyof Counts)[]) {
    if (!Number.isFinite(finite[name])) finite[name] = 0;
  }
  return finite;
}

/** The derived figures of §Figures above. */
export function figures(summed: Counts): ReportFigures {
  const counts = finiteCounts(summed);
  const revenue = round(counts.revenue);
  const revenueConfirmed = round(counts.revenue_confirmed);
  const cost = round(counts.cost);
  const profit = round(counts.revenue - counts.cost);
  const profitConfirmed = round(counts.revenue_confirmed - counts.cost);
  const entries = counts.clicks + counts.leads;
  return {
    clicks: counts.clicks,
    unique_clicks: counts.unique_clicks,
    leads: counts.leads,
    conversions: counts.conversions,
    approved: counts.approved,
    pending: counts.pending,
    rejected: counts.rejected,
    revenue,
    revenue_confirmed: revenueConfirmed,
    cost,
    profit,
    roi: round(ratio(profit, cost) * 100),
    roi_confirmed: round(ratio(profitConfirmed, cost) * 100),
    cr: round(ratio(counts.conversions, entries) * 100),
    epc: round(ratio(revenue, entries)),
    cpc: round(ratio(cost, entries)),
    cpa: round(ratio(cost, counts.conversions)),
    bot_clicks: counts.bot_clicks,
    lp_clicks: counts.lp_clicks,
    lp_ctr: round(ratio(counts.lp_clicks, counts.lander_clicks) * 100),
  };
}

function text(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

/**
 * Who a report is for (issue 40: required): a workspace's events only, or the whole instance's, and the
 * workspace's custom metrics.
 */
export type ReportScope = Scope & {
  /** Issue 20: each is computed from a row's figures (and the totals'), under its key. */
  metrics?: readonly CustomMetricDefinition[];
};

/** The figures of §Figures above, and each custom metric computed from them. */
function withCustomMetrics(
  built: ReportFigures,
  metrics: readonly { key: string; ast: FormulaNode }[],
): ReportFigures & Record<string, number> {
  const result: ReportFigures & Record<string, number> = { ...built };
  for (const metric of metrics) result[metric.key] = evaluateFormula(metric.ast, built);
  return result;
}

/** The custom metrics whose formulas parse (they were checked when saved). */
function parsedMetrics(metrics: readonly CustomMetricDefinition[] = []): { key: string; ast: FormulaNode }[] {
  return metrics.flatMap((metric) => {
    const parsed = parseFormula(metric.formula);
    return parsed.ok ? [{ key: metric.key, ast: parsed.ast }] : [];
  });
}

/**
 * The group filters as cube dimension filters (an affiliate network as the list of its offers), or null
 * when one has no cube dimension (subaff, var1…var10, or events of no network: the event scan does those).
 */
async function rollupFilters(
  filters: Partial<Record<ReportFilterGroup, string | null>>,
  config: Promise<ConfigNames>,
): Promise<DimensionFilters | null> {
  const result: DimensionFilters = {};
  for (const [group, value] of Object.entries(filters) as [ReportFilterGroup, string | null][]) {
    if (group === 'affiliate_network') {
      if (value === null || 'offer' in filters) return null;
      const { offerNetworks } = await config;
      result.offer = [...offerNetworks].filter(([, owner]) => owner === value).map(([offer]) => offer);
      continue;
    }
    if (!isRollupDimension(group)) return null;
    result[group] = value;
  }
  return result;
}

/**
 * Issue 23: a columnar store a report's clicks and leads (and conversions, when it holds them) are read
 * from when no cube holds them, once it holds every event (`ready`); `catchUp` copies what the event
 * tables gained since, before each read.
 */
export interface ColumnarReader {
  readonly ready: boolean;
  /** Whether it holds conversions too; else they are read from their table. */
  readonly conversions?: boolean;
  catchUp(): Promise<unknown>;
  aggregate(plan: AggregatePlan): Promise<AggregateRow[]>;
  /** A whole report merged, ordered and paged in the store (one that holds conversions too). */
  report?(paged: PagedPlan): Promise<PagedRows>;
}

export class ReportsService {
  constructor(
    private readonly db: Kysely<Database>,
    /** `rollups: false` reads every figure from the events (tests compare the ways). */
    private readonly options: { rollups?: boolean; columnar?: ColumnarReader } = {},
  ) {}

  async run(query: TReportQuery, scope: ReportScope): Promise<ReportResponse> {
    const groups = query.group_by;
    const metrics = parsedMetrics(scope.metrics);
    const range = {
      from: query.date_from ? startOfLocalDay(query.date_from, query.timezone).toISOString() : null,
      to: query.date_to ? startOfLocalDay(nextDay(query.date_to), query.timezone).toISOString() : null,
      timezone: query.timezone,
      attribution: query.attribution,
      includeBots: query.include_bots,
    };
    // A filter on affiliate_network needs the offers' networks before the queries are built.
    const configuring = this.configNames(
      scope,
      groups,
      Object.keys(query.filters).includes('affiliate_network') ? ['affiliate_network'] : [],
    );
    const workspace = scopeWorkspace(scope);
    const narrowing: Narrowing = {
      vars: query.vars,
      filters: query.filters,
      config: configuring,
      workspace,
    };
    const inStore = await this.reportInStore(query, range, narrowing, metrics);
    if (inStore) return inStore;
    const [clicks, leads, conversions, config] = await Promise.all([
      this.aggregate('clicks', groups, range, narrowing),
      this.aggregate('leads', groups, range, narrowing),
      this.aggregate('conversions', groups, range, narrowing),
      configuring,
    ]);

    // Merge the three tables' rows by the groups' (local) values.
    const merged = new Map<string, { values: (string | null)[]; counts: Counts }>();
    const buckets = new Map<string, { day: string; hour: string }>();
    const add = (row: AggregateRow, into: (counts: Counts) => void) => {
      // A columnar store buckets local days and hours itself (columnar/duckdb-sql.ts).
      const local =
        row.g_local_day !== undefined
          ? { day: String(row.g_local_day), hour: row.g_local_hour === undefined ? '00' : String(row.g_local_hour) }
          : row.g_utc_day !== undefined
            ? { day: String(row.g_utc_day), hour: '00' }
            : row.g_utc_hour !== undefined
              ? localBucket(String(row.g_utc_hour), Number(row.g_quarter ?? 0), query.timezone, buckets)
              : null;
      const values = groups.map((group): string | null => {
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
      const key = JSON.stringify(values);
      let entry = merged.get(key);
      if (!entry) {
        entry = { values, counts: emptyCounts() };
        merged.set(key, entry);
      }
      into(entry.counts);
    };
    for (const row of clicks) {
      add(row, (counts) => {
        counts.clicks += Number(row.clicks);
        counts.unique_clicks += Number(row.unique_clicks);
        counts.cost += Number(row.cost);
        counts.bot_clicks += Number(row.bot_clicks);
        counts.lp_clicks += Number(row.lp_clicks);
        counts.lander_clicks += Number(row.lander_clicks);
      });
    }
    for (const row of leads) {
      add(row, (counts) => {
        counts.leads += Number(row.leads);
      });
    }
    for (const row of conversions) {
      add(row, (counts) => {
        counts.conversions += Number(row.conversions);
        counts.approved += Number(row.approved);
        counts.pending += Number(row.pending);
        counts.rejected += Number(row.rejected);
        counts.revenue += Number(row.revenue);
        counts.revenue_confirmed += Number(row.revenue_confirmed);
      });
    }

    // Label, search, order, page. Sort keys are computed once per row, and a row's figures only when it
    // is ordered by one or shown: a report of half a million groups shows forty.
    const needle = query.search_text.toLowerCase();
    const orderBy = query.order_by ?? groups[0] ?? 'label';
    const direction = query.order === 'desc' ? -1 : 1;
    const groupIndex = groups.indexOf(orderBy as ReportGroup);
    const byFigure = orderBy !== 'label' && groupIndex < 0;
    const rows: Listed[] = [];
    for (const { values, counts } of merged.values()) {
      const labels = groups.map((group, index) => this.label(group, values[index] ?? null, config));
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
    rows.sort((a, b) => {
      const left = a.sortKey;
      const right = b.sortKey;
      // Rows without a value come last either way.
      if (left === null && right !== null) return 1;
      if (right === null && left !== null) return -1;
      if (left !== null && right !== null && left !== right) return (left < right ? -1 : 1) * direction;
      return compareValues(a.values, b.values);
    });

    const totals = emptyCounts();
    for (const { counts } of rows) {
      for (const name of Object.keys(totals) as (keyof Counts)[]) totals[name] += counts[name];
    }
    const page =
      query.limit === 0
        ? rows
        : rows.slice((query.page - 1) * query.limit, (query.page - 1) * query.limit + query.limit);
    return {
      list: page.map((entry) =>
        shownRow(groups, entry.labels, entry.values, entry.shown ?? withCustomMetrics(figures(entry.counts), metrics)),
      ),
      total: rows.length,
      totals: withCustomMetrics(figures(totals), metrics),
    };
  }

  /**
   * Issue 23: the report merged, ordered and paged in the embedded store, when it holds all three tables
   * and no cube holds the report; null when it is asked here instead (a search, an order by a derived
   * figure or custom metric, the affiliate network, time groups without a range).
   */
  private async reportInStore(
    query: TReportQuery,
    range: ReportRange,
    narrowing: Narrowing,
    metrics: readonly { key: string; ast: FormulaNode }[],
  ): Promise<ReportResponse | null> {
    const columnar = this.options.columnar;
    const groups = query.group_by;
    if (!columnar?.report || !columnar.ready || !columnar.conversions || query.search_text) return null;
    if (groups.includes('affiliate_network') || 'affiliate_network' in query.filters) return null;
    if (groups.some(isReportTimeGroup) && (range.from === null || range.to === null)) return null;
    const cubes = this.options.rollups !== false && Object.keys(query.vars).length === 0;
    if (cubes && rollupsHold(groups, Object.keys(query.filters))) return null;
    const orderBy = query.order_by ?? groups[0] ?? 'label';
    const order: PagedPlan['order'] | null =
      orderBy === 'label'
        ? { by: 'label' }
        : groups.includes(orderBy as ReportGroup)
          ? { by: 'group', index: groups.indexOf(orderBy as ReportGroup) }
          : (COUNT_NAMES as readonly string[]).includes(orderBy)
            ? { by: 'count', name: orderBy as CountName }
            : null;
    if (!order) return null;
    const config = await narrowing.config;
    const plans = {
      clicks: await planOf('clicks', groups, range, narrowing),
      leads: await planOf('leads', groups, range, narrowing),
      conversions: await planOf('conversions', groups, range, narrowing),
    };
    await columnar.catchUp();
    const page = await columnar.report({
      plans,
      groups,
      names: groups.map((group) =>
        group === 'path_group'
          ? config.pathGroups
          : group === 'path'
            ? config.paths
            : (config.names.get(group) ?? null),
      ),
      order,
      descending: query.order === 'desc',
      limit: query.limit,
      offset: query.limit === 0 ? 0 : (query.page - 1) * query.limit,
    });
    return {
      list: page.rows.map(({ values, counts }) =>
        shownRow(
          groups,
          groups.map((group, index) => this.label(group, values[index] ?? null, config)),
          values,
          withCustomMetrics(figures(counts), metrics),
        ),
      ),
      total: page.total,
      totals: withCustomMetrics(figures(page.totals), metrics),
    };
  }

  private label(group: ReportGroup, value: string | null, config: ConfigNames): string {
    if (value === null) return NONE_LABEL;
    if (group === 'hour') return `${value}:00`;
    if (group === 'path_group') return config.pathGroups.get(value) ?? value;
    if (group === 'path') return config.paths.get(value) ?? value;
    return config.names.get(group)?.get(value) ?? value;
  }

  /** One table's rows grouped by the asked columns, with its figures: from a cube when one holds them. */
  private async aggregate(
    source: Source,
    groups: readonly ReportGroup[],
    range: ReportRange,
    narrowing: Narrowing,
  ): Promise<AggregateRow[]> {
    if (this.options.rollups !== false && source !== 'conversions' && Object.keys(narrowing.vars).length === 0) {
      const dimensionFilters = await rollupFilters(narrowing.filters, narrowing.config);
      const scope: Scope = narrowing.workspace === null ? { instance: true } : { workspaceId: narrowing.workspace };
      const rows =
        dimensionFilters &&
        (await aggregateFromRollups(this.db, source, groups, range, range.timezone, dimensionFilters, scope, {
          includeBots: range.includeBots,
        }));
      if (rows) return rows;
    }
    const plan = await planOf(source, groups, range, narrowing);
    const columnar = this.options.columnar;
    if (columnar?.ready && (source !== 'conversions' || columnar.conversions)) {
      await columnar.catchUp();
      return columnar.aggregate(plan);
    }
    return aggregateEvents(this.db, plan);
  }

  /**
   * Names for the groups asked: config records, path groups and paths from flows, offers' networks (also
   * loaded for the groups only filtered on).
   */
  private async configNames(
    scope: Scope,
    groups: readonly ReportGroup[],
    filtered: readonly ReportFilterGroup[] = [],
  ): Promise<ConfigNames> {
    const config: ConfigNames = {
      names: new Map(),
      pathGroups: new Map(),
      paths: new Map(),
      offerNetworks: new Map(),
    };
    const kinds = new Set<string>();
    for (const group of groups) for (const kind of NAME_KINDS[group] ?? []) kinds.add(kind);
    const needsFlows = groups.includes('path_group') || groups.includes('path');
    if (needsFlows) for (const kind of ['flows', 'tracker-flows']) kinds.add(kind);
    if (groups.includes('affiliate_network') || filtered.includes('affiliate_network')) {
      for (const kind of ['offers', 'tracker-offers']) kinds.add(kind);
    }
    if (kinds.size === 0) return config;
    const records = await this.db
      .selectFrom('config_records')
      .select(['kind', 'external_id', 'name', 'body'])
      .where('kind', 'in', [...kinds])
      .where(scopeCondition(scope, 'workspace_id'))
      .execute();
    for (const record of records) {
      for (const group of groups) {
        if (!NAME_KINDS[group]?.includes(record.kind)) continue;
        let names = config.names.get(group);
        if (!names) {
          names = new Map();
          config.names.set(group, names);
        }
        names.set(record.external_id, record.name);
      }
      const isFlow = record.kind === 'flows' || record.kind === 'tracker-flows';
      const isOffer = record.kind === 'offers' || record.kind === 'tracker-offers';
      if (!isFlow && !isOffer) continue;
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(record.body) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (isOffer && typeof body.affiliate_network_external_id === 'string' && body.affiliate_network_external_id) {
        config.offerNetworks.set(record.external_id, body.affiliate_network_external_id);
      }
      if (isFlow && Array.isArray(body.path_groups)) {
        for (const pathGroup of body.path_groups as { id?: unknown; name?: unknown; paths?: unknown }[]) {
          if (typeof pathGroup?.id === 'string' && typeof pathGroup.name === 'string') {
            config.pathGroups.set(pathGroup.id, pathGroup.name);
          }
          if (!Array.isArray(pathGroup?.paths)) continue;
          for (const path of pathGroup.paths as { id?: unknown; name?: unknown }[]) {
            if (typeof path?.id === 'string' && typeof path.name === 'string' && path.name) {
              config.paths.set(path.id, path.name);
            }
          }
        }
      }
    }
    return config;
  }
}
