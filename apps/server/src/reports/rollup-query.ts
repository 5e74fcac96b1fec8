// Clicks and leads for a report from the rollup cubes (store/report-rollups.ts) when one holds every
// dimension asked, in the same shape as the event scan (render-sql.ts): `g_<group>` per grouped name,
// `g_network_offer` for the affiliate network (the offer's), `g_utc_hour` and `g_quarter` for day and
// hour, then the figures.
import { isReportTimeGroup, type ReportFilterGroup, type ReportGroup } from '@switchyard/domain';
import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import {
  type Cube,
  cubeFor,
  keyColumn,
  NO_VALUE,
  ROLLUP_DIMENSIONS,
  type RollupDimension,
} from '../store/report-rollups.js';
import type { Database } from '../store/schema.js';
import { type Scope, scopeCondition } from '../store/scope.js';

export type RollupSource = 'clicks' | 'leads';

/** Dimension values a report keeps (`null`: events without a value). */
export type DimensionFilters = Partial<Record<RollupDimension, string | null | readonly string[]>>;

export function isRollupDimension(name: string): name is RollupDimension {
  return (ROLLUP_DIMENSIONS as readonly string[]).includes(name);
}

/** The dimension a group reads from a cube; null for the time groups; undefined when no cube has it. */
function dimensionOf(group: ReportGroup): RollupDimension | null | undefined {
  if (isReportTimeGroup(group)) return null;
  // Clicks and leads belong to the affiliate network of their offer.
  if (group === 'affiliate_network') return 'offer';
  return isRollupDimension(group) ? group : undefined;
}

/** Whether a cube holds a report's groups and filters, or the first one no cube keeps (null: none alone). */
export type RollupsHold = { holds: true } | { holds: false; missing: string | null };

/**
 * Whether a cube holds every group and filter of a report (its vars aside): aggregateFromRollups answers
 * its clicks and leads from far fewer rows. An affiliate network filter is read as its offers, except
 * "no network" or one beside an offer filter (rollupFilters).
 */
export function rollupsHold(
  groups: readonly ReportGroup[],
  filters: Partial<Record<ReportFilterGroup, string | null>>,
): RollupsHold {
  const dimensions = new Set<RollupDimension>();
  for (const group of groups) {
    const dimension = dimensionOf(group);
    if (dimension === undefined) return { holds: false, missing: group };
    if (dimension) dimensions.add(dimension);
  }
  for (const [name, value] of Object.entries(filters) as [ReportFilterGroup, string | null][]) {
    if (name === 'affiliate_network') {
      if (value === null || 'offer' in filters) return { holds: false, missing: name };
      dimensions.add('offer');
      continue;
    }
    if (!isRollupDimension(name)) return { holds: false, missing: name };
    dimensions.add(name);
  }
  return cubeFor(dimensions, 'quarter') !== null ? { holds: true } : { holds: false, missing: null };
}

/** A stretch of time read from one cube: buckets from `from` (included) to `to` (excluded). */
interface Stretch {
  cube: Cube;
  from: string | null;
  to: string | null;
}

const DAY_MS = 86_400_000;

/** The cube columns a clicks branch reads: every click count, and each one's bots. */
const CLICK_ROLLUP_FIGURES = [
  'clicks',
  'unique_clicks',
  'cost',
  'bot_clicks',
  'bot_unique_clicks',
  'lp_clicks',
  'bot_lp_clicks',
  'lander_clicks',
  'bot_lander_clicks',
] as const;

/**
 * The cubes and bucket ranges covering `range`: whole UTC days from the day cube and the edges (a
 * timezone's midnight is not UTC's) from the quarter-hour cube — or quarter-hours throughout when the
 * report groups by hour, or by day in a zone whose days are not UTC's.
 */
function stretches(
  dimensions: Set<RollupDimension>,
  range: { from: string | null; to: string | null },
  quarterOnly: boolean,
): Stretch[] | null {
  const quarter = cubeFor(dimensions, 'quarter');
  const day = cubeFor(dimensions, 'day');
  if (!quarter) return null;
  // Range ends are local midnights, always on a quarter-hour: compared as quarter buckets.
  const asQuarter = (iso: string | null) => (iso === null ? null : iso.slice(0, 16));
  const whole = [{ cube: quarter, from: asQuarter(range.from), to: asQuarter(range.to) }];
  if (quarterOnly || !day) return whole;
  const from = range.from === null ? null : Math.ceil(Date.parse(range.from) / DAY_MS) * DAY_MS;
  const to = range.to === null ? null : Math.floor(Date.parse(range.to) / DAY_MS) * DAY_MS;
  if (from !== null && to !== null && from >= to) return whole;
  const iso = (time: number) => new Date(time).toISOString();
  const result: Stretch[] = [
    {
      cube: day,
      from: from === null ? null : iso(from).slice(0, 10),
      to: to === null ? null : iso(to).slice(0, 10),
    },
  ];
  if (from !== null && range.from !== null && Date.parse(range.from) < from) {
    result.push({ cube: quarter, from: asQuarter(range.from), to: asQuarter(iso(from)) });
  }
  if (to !== null && range.to !== null && to < Date.parse(range.to)) {
    result.push({ cube: quarter, from: asQuarter(iso(to)), to: asQuarter(range.to) });
  }
  return result;
}

/** The rows, or null when no cube holds what the report groups and filters by. */
export async function aggregateFromRollups(
  db: Kysely<Database>,
  source: RollupSource,
  groups: readonly ReportGroup[],
  range: { from: string | null; to: string | null },
  timezone: string,
  filters: DimensionFilters,
  /** Whose rows of each cube are read. */
  scope: Scope,
  /** Whether clicks and unique clicks count bots' clicks (else the cube's bot counts come off). */
  { includeBots }: { includeBots: boolean } = { includeBots: true },
): Promise<Record<string, unknown>[] | null> {
  const dimensions = new Set<RollupDimension>();
  for (const group of groups) {
    const dimension = dimensionOf(group);
    if (dimension === undefined) return null;
    if (dimension) dimensions.add(dimension);
  }
  for (const name of Object.keys(filters)) {
    if (!isRollupDimension(name)) return null;
    dimensions.add(name);
  }
  const byTime = groups.some(isReportTimeGroup);
  const utc = new Intl.DateTimeFormat('en', { timeZone: timezone }).resolvedOptions().timeZone === 'UTC';
  const byLocalDay = groups.includes('day') || groups.includes('weekday');
  const parts = stretches(dimensions, range, groups.includes('hour') || (byLocalDay && !utc));
  if (!parts) return null;

  // Each stretch's rows with their keys, UTC hour and quarter (a day cube's rows: the day's first).
  const branches = parts.map(({ cube, from, to }) => {
    const columns: RawBuilder<unknown>[] = [];
    for (const dimension of dimensions) {
      columns.push(sql`${sql.ref(keyColumn(cube, dimension))} as ${sql.ref(`d_${dimension}`)}`);
    }
    if (byTime) {
      if (cube.grain === 'day') {
        columns.push(sql`${sql.ref('bucket')} || ${sql.lit('T00')} as ${sql.ref('utc_hour')}`);
        columns.push(sql`0 as ${sql.ref('quarter')}`);
      } else {
        columns.push(sql`substr(${sql.ref('bucket')}, 1, 13) as ${sql.ref('utc_hour')}`);
        columns.push(sql`cast(substr(${sql.ref('bucket')}, 15, 2) as integer) / 15 as ${sql.ref('quarter')}`);
      }
    }
    const where: Expression<SqlBool>[] = [
      scopeCondition(scope, 'workspace_id'),
      sql<SqlBool>`${sql.ref('cube')} = ${cube.id}`,
    ];
    if (from) where.push(sql<SqlBool>`${sql.ref('bucket')} >= ${from}`);
    if (to) where.push(sql<SqlBool>`${sql.ref('bucket')} < ${to}`);
    for (const [name, value] of Object.entries(filters) as [RollupDimension, string | null | readonly string[]][]) {
      const key = sql.ref(keyColumn(cube, name));
      if (value === null) where.push(sql<SqlBool>`${key} = ${NO_VALUE}`);
      else if (typeof value === 'string') where.push(sql<SqlBool>`${key} = ${value}`);
      else if (value.length === 0) where.push(sql<SqlBool>`1 = 0`);
      else where.push(sql<SqlBool>`${key} in (${sql.join(value.map((item) => sql`${item}`))})`);
    }
    const counted = source === 'clicks' ? sql.ref('clicks') : sql.ref('leads');
    where.push(sql<SqlBool>`${counted} > 0`);
    const figures =
      source === 'clicks'
        ? sql.join(
            [...CLICK_ROLLUP_FIGURES].map((name) => sql.ref(name)),
            sql`, `,
          )
        : sql`${sql.ref('leads')}`;
    return sql`select ${sql.join([...columns, figures])} from ${sql.table('report_rollups')}
      where ${sql.join(where, sql` and `)}`;
  });

  const selections: RawBuilder<unknown>[] = [];
  const groupings: RawBuilder<unknown>[] = [];
  const select = (expression: RawBuilder<unknown>, alias: string) => {
    selections.push(sql`${expression} as ${sql.ref(alias)}`);
    groupings.push(expression);
  };
  for (const group of groups) {
    const dimension = dimensionOf(group);
    if (!dimension) continue;
    // Leads have no lander: their rows hold none, as their events do. A literal: PostgreSQL matches the
    // selected expression to the GROUP BY one by its text.
    select(
      sql`nullif(${sql.ref(`r.d_${dimension}`)}, ${sql.lit(NO_VALUE)})`,
      group === 'affiliate_network' ? 'g_network_offer' : `g_${group}`,
    );
  }
  if (byTime) {
    select(sql.ref('r.utc_hour'), 'g_utc_hour');
    select(sql.ref('r.quarter'), 'g_quarter');
  }
  const humans = (all: string, bots: string) =>
    includeBots ? sql`${sql.ref(all)}` : sql`${sql.ref(all)} - ${sql.ref(bots)}`;
  const figures =
    source === 'clicks'
      ? [
          sql`coalesce(sum(${humans('r.clicks', 'r.bot_clicks')}), 0) as ${sql.ref('clicks')}`,
          sql`coalesce(sum(${humans('r.unique_clicks', 'r.bot_unique_clicks')}), 0) as ${sql.ref('unique_clicks')}`,
          sql`coalesce(sum(${sql.ref('r.cost')}), 0) as ${sql.ref('cost')}`,
          sql`coalesce(sum(${sql.ref('r.bot_clicks')}), 0) as ${sql.ref('bot_clicks')}`,
          sql`coalesce(sum(${humans('r.lp_clicks', 'r.bot_lp_clicks')}), 0) as ${sql.ref('lp_clicks')}`,
          sql`coalesce(sum(${humans('r.lander_clicks', 'r.bot_lander_clicks')}), 0) as ${sql.ref('lander_clicks')}`,
        ]
      : [sql`coalesce(sum(${sql.ref('r.leads')}), 0) as ${sql.ref('leads')}`];
  const statement = sql<Record<string, unknown>>`select ${sql.join([...selections, ...figures])}
    from (${sql.join(branches, sql` union all `)}) as ${sql.table('r')}
    ${groupings.length > 0 ? sql`group by ${sql.join(groupings)}` : sql``}
    having count(*) > 0`;
  const result = await statement.execute(db);
  return result.rows;
}
