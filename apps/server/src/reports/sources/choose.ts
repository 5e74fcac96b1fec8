// Which source answers a report, and why: one pure function of the query and of what each source can do
// now, so the rule lives in one place and is tested without a database (test/report-sources.test.ts).
//
// - The rollups answer clicks and leads when a cube holds every group and filter of the report and it
//   filters by no var (rollup-query.ts, rollupsHold); never conversions.
// - A columnar store that holds every event (`ready`: DuckDB caught up, ClickHouse's copy complete) and
//   conversions merges, orders and pages the whole report itself when no cube holds it — unless the
//   report searches, is ordered by a derived figure or custom metric, groups or filters by the affiliate
//   network, or groups by time over an open range: then its tables are read from the store one by one
//   and merged in the service.
// - Otherwise each table not read from the rollups comes from the columnar store when ready (conversions
//   only when it holds them), else from the event tables.
import { isReportTimeGroup, type ReportGroup, type ReportSourceName, type TReportQuery } from '@switchyard/domain';
import { COUNT_NAMES, type CountName, type PagedPlan, type Source } from '../../report-plan/plan.js';
import { type RollupsHold, rollupsHold } from '../rollup-query.js';
import type { SourceName } from './source.js';

/** What the sources can do as a report starts. */
export interface SourceCapabilities {
  /** Whether the rollups may answer (off: every figure from the events, as tests compare them). */
  rollups: boolean;
  /** The columnar store set up, if any. */
  columnar: {
    name: 'duckdb' | 'clickhouse';
    /** It holds every event now. */
    ready: boolean;
    /** It holds conversions too. */
    conversions: boolean;
    /** It merges, orders and pages a whole report itself. */
    pages: boolean;
  } | null;
}

export interface SourceChoice {
  /** The source the answer names: the whole report's, else the one clicks and leads came from. */
  source: SourceName;
  /** Why, as a short English sentence (the answer's meta.source_reason). */
  reason: string;
  /** The source merges, orders and pages the whole report; else each table is read and merged here. */
  whole: boolean;
  /** Each table's source. */
  tables: Record<Source, SourceName>;
}

const SHOWN: Record<ReportSourceName, string> = {
  rollups: 'the rollups',
  events: 'the event tables',
  duckdb: 'DuckDB',
  clickhouse: 'ClickHouse',
};

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A paged report's order: by the joined labels, one group, or a count; null for a derived figure or custom metric. */
export function pagedOrder(query: TReportQuery): PagedPlan['order'] | null {
  const groups = query.group_by;
  const orderBy = query.order_by ?? groups[0] ?? 'label';
  if (orderBy === 'label') return { by: 'label' };
  if (groups.includes(orderBy as ReportGroup)) return { by: 'group', index: groups.indexOf(orderBy as ReportGroup) };
  if ((COUNT_NAMES as readonly string[]).includes(orderBy)) return { by: 'count', name: orderBy as CountName };
  return null;
}

/** Whether the rollups hold the report, or why not (as words for the reason). */
function cubes(query: TReportQuery, capabilities: SourceCapabilities): { holds: true } | { holds: false; why: string } {
  if (!capabilities.rollups) return { holds: false, why: 'the rollups are off for this report' };
  if (Object.keys(query.vars).length > 0) return { holds: false, why: 'no rollup keeps vars' };
  const held: RollupsHold = rollupsHold(query.group_by, query.filters);
  if (held.holds) return held;
  return {
    holds: false,
    why: held.missing === null ? 'no rollup keeps these columns together' : `no rollup keeps ${held.missing}`,
  };
}

/** What keeps a report from being paged in a ready columnar store, or null. */
function outsideStore(query: TReportQuery, columnar: NonNullable<SourceCapabilities['columnar']>): string | null {
  const groups = query.group_by;
  if (!columnar.pages || !columnar.conversions) return 'the store does not page whole reports';
  if (query.search_text) return 'the search is applied here';
  if (groups.includes('affiliate_network') || 'affiliate_network' in query.filters) {
    return 'affiliate networks are resolved here';
  }
  if (groups.some(isReportTimeGroup) && (!query.date_from || !query.date_to)) {
    return 'time groups without a date range are bucketed here';
  }
  if (!pagedOrder(query)) return 'the order by a derived figure or custom metric is applied here';
  return null;
}

/** Which source answers `query` (see the top of this file). */
export function chooseSource(query: TReportQuery, capabilities: SourceCapabilities): SourceChoice {
  const held = cubes(query, capabilities);
  const store = capabilities.columnar;
  const ready = store?.ready ? store : null;
  if (ready && !held.holds) {
    const outside = outsideStore(query, ready);
    if (outside === null) {
      return {
        source: ready.name,
        reason: `${SHOWN[ready.name]} holds every event and paged the whole report: ${held.why}.`,
        whole: true,
        tables: { clicks: ready.name, leads: ready.name, conversions: ready.name },
      };
    }
  }
  const entries: SourceName = held.holds ? 'rollups' : (ready?.name ?? 'events');
  const conversions: SourceName = ready?.conversions ? ready.name : 'events';
  const tables = { clicks: entries, leads: entries, conversions };
  const apart = conversions === entries ? '' : `; conversions from ${SHOWN[conversions]}`;
  let reason: string;
  if (held.holds) {
    reason = `The rollups keep every column and filter of this report${apart}.`;
  } else if (ready) {
    reason = `${SHOWN[ready.name]} holds every event, read table by table: ${held.why}, and ${outsideStore(query, ready)}${apart}.`;
  } else {
    const why = !store
      ? 'no columnar store is set up'
      : store.name === 'duckdb'
        ? 'DuckDB is still catching up'
        : "ClickHouse's copy is not complete yet";
    reason = `${capitalized(SHOWN.events)} answered: ${held.why}, and ${why}.`;
  }
  return { source: entries, reason, whole: false, tables };
}
