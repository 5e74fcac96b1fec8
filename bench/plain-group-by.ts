// The bar of part (b)'s columnar reports: each report through the server takes at most 1.5× the
// plain GROUP BY of the same clicks on the same engine. This is that plain GROUP BY, for DuckDB and for
// ClickHouse: the clicks the report reads (its workspace, its range, its campaign filter) grouped by the
// report's columns as stored, with the click figures summed (events, unique events, cost), nothing
// merged, named, ordered or paged. The rows are read by a `count()` and sums around it, so that the
// engine computes every group and every sum (neither engine leaves out a sum that is read) without half
// a million rows being sent to the bench.
//
// A local day is the row's time shifted by the zone's offset at the start of the range, cast to a date:
// one offset for the whole range, what a person writing the query by hand would do (and cheaper than
// the report's, which follows a DST change inside the range).

import type { ReportGroup } from '@switchyard/domain';
import type { PagedPlan } from '../apps/server/src/report-plan/plan.js';
import { type ConfigNames, type Narrowing, planOf, type ReportRange } from '../apps/server/src/reports/report-plans.js';

export type PlainGroup = 'campaign' | 'offer' | 'country' | 'day' | 'subaff' | 'var1';

export interface PlainReport {
  groups: readonly PlainGroup[];
  /** One campaign's clicks only. */
  campaign?: string;
  /** The report's range, local midnights as ISO instants. */
  from: string;
  to: string;
  timezone: string;
  workspace: number;
}

const COLUMNS: Record<Exclude<PlainGroup, 'day'>, string> = {
  campaign: 'campaign_external_id',
  offer: 'offer_external_id',
  country: 'country',
  subaff: 'subaff',
  var1: 'var1',
};

/** The zone's offset from UTC at `iso`, in minutes. */
export function offsetMinutes(iso: string, timeZone: string): number {
  const at = new Date(iso);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return Math.round((local - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

function whole(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not a whole number: ${value}`);
  return String(value);
}

/** A campaign id written into the SQL: the bench's own ids only. */
function campaignLiteral(id: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`not a bench campaign id: ${id}`);
  return `'${id}'`;
}

/** The plain GROUP BY on DuckDB (the embedded store's `clicks`), wrapped as said above. */
export function plainDuckdb(report: PlainReport): string {
  const shift = offsetMinutes(report.from, report.timezone);
  const keys = report.groups.map((group) =>
    group === 'day' ? `cast(created_at + to_minutes(${whole(shift)}) as date)` : `"${COLUMNS[group]}"`,
  );
  const where = [
    `workspace_id = ${whole(report.workspace)}`,
    `created_at >= make_timestamp(${whole(Date.parse(report.from) * 1000)})`,
    `created_at < make_timestamp(${whole(Date.parse(report.to) * 1000)})`,
    ...(report.campaign ? [`campaign_external_id = ${campaignLiteral(report.campaign)}`] : []),
  ];
  const grouped = `select ${keys.map((key, index) => `${key} as k${index}`).join(', ')},
      sum(events) as clicks, sum(unique_events) as unique_clicks, sum(cost) as cost
    from clicks where ${where.join(' and ')}
    group by ${keys.map((_, index) => `k${index}`).join(', ')}`;
  return `select count(*) as groups, sum(clicks) as clicks, sum(unique_clicks) as unique_clicks, sum(cost) as cost from (${grouped})`;
}

/** The plain GROUP BY on ClickHouse (the store's `clicks`), wrapped as said above. */
export function plainClickhouse(report: PlainReport): string {
  const shift = offsetMinutes(report.from, report.timezone) * 60;
  const keys = report.groups.map((group) =>
    group === 'day' ? `toDate(created_at + (${whole(shift)}))` : COLUMNS[group],
  );
  const where = [
    `workspace_id = ${whole(report.workspace)}`,
    `created_at >= toDateTime(${whole(Math.floor(Date.parse(report.from) / 1000))})`,
    `created_at < toDateTime(${whole(Math.floor(Date.parse(report.to) / 1000))})`,
    // In the sorting key's form, as the server writes it, so that only the campaign's rows are read.
    ...(report.campaign ? [`ifNull(campaign_external_id, '') = ${campaignLiteral(report.campaign)}`] : []),
  ];
  const grouped = `SELECT ${keys.map((key, index) => `${key} AS k${index}`).join(', ')},
      sum(events) AS clicks, sum(unique_events) AS unique_clicks, sum(cost) AS cost
    FROM clicks WHERE ${where.join(' AND ')}
    GROUP BY ${keys.map((_, index) => `k${index}`).join(', ')}`;
  return `SELECT count() AS groups, sum(clicks) AS clicks, sum(unique_clicks) AS unique_clicks, sum(cost) AS cost FROM (${grouped})`;
}

/**
 * The first page (40 rows, ordered by the first group) of a columnar report, planned as the server plans
 * it: what a bench times against the plain `GROUP BY` of the same clicks.
 */
export async function firstPagePlan(
  groups: ReportGroup[],
  range: ReportRange,
  narrowing: Narrowing,
  names: ConfigNames['names'],
): Promise<PagedPlan> {
  return {
    plans: {
      clicks: await planOf('clicks', groups, range, narrowing),
      leads: await planOf('leads', groups, range, narrowing),
      conversions: await planOf('conversions', groups, range, narrowing),
    },
    groups,
    names: groups.map((group) => names.get(group) ?? null),
    order: { by: 'group', index: 0 },
    descending: false,
    limit: 40,
    offset: 0,
  };
}
