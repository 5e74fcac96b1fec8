// Report rollups: clicks and leads counted per UTC quarter-hour along a few
// fixed sets of dimensions ("cubes"), so that a report over millions of events reads thousands of rows.
//
// Each cube row holds what its events add up to: clicks, unique clicks, cost and leads for one
// quarter-hour and one value of each of the cube's dimensions. Rows are written in the same transaction
// as the events they count (EventWriter), so a report read from a cube agrees exactly with one read from
// the events. Quarter-hours, not hours: every timezone's offset is a whole number of quarter-hours, so a
// local day or hour is always a whole number of buckets (as reports/merge.ts folds).
//
// A report uses the smallest cube holding every dimension it groups or filters by; reports that group or
// filter by subaff or var1…var10 read the events themselves (those values are unbounded).
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from './schema.js';
import type { NewTrackerClick, NewTrackerLead } from './tracker-events.js';

/** The dimensions a cube can hold, named as the report groups; each is a column of both event tables. */
export const ROLLUP_DIMENSIONS = [
  'campaign',
  'flow',
  'path_group',
  'path',
  'offer',
  'lander',
  'traffic_source',
  'country',
  'device',
  'platform',
  'browser',
] as const;
export type RollupDimension = (typeof ROLLUP_DIMENSIONS)[number];

/** The event column of each dimension. */
export const DIMENSION_COLUMNS = {
  campaign: 'campaign_external_id',
  flow: 'flow_external_id',
  path_group: 'path_group_id',
  path: 'path_id',
  offer: 'offer_external_id',
  lander: 'lander_external_id',
  traffic_source: 'traffic_source_external_id',
  country: 'country',
  device: 'device',
  platform: 'platform',
  browser: 'browser',
} as const satisfies Record<RollupDimension, string>;

/**
 * A cube's time grain: UTC quarter-hours (any timezone's days and hours are whole numbers of them) or
 * UTC days (a month's report over one campaign per offer reads 30 rows per pair, not 2,880).
 */
export type Grain = 'quarter' | 'day';

export interface Cube {
  /** Stored in each row: the dimensions joined with `+` (or `all`), and `/day` for the day grain. */
  id: string;
  dimensions: readonly RollupDimension[];
  grain: Grain;
}

/** The same dimensions in both grains. */
function cubes(...dimensions: RollupDimension[]): Cube[] {
  const id = dimensions.length === 0 ? 'all' : dimensions.join('+');
  return [
    { id, dimensions, grain: 'quarter' },
    { id: `${id}/day`, dimensions, grain: 'day' },
  ];
}

/**
 * Every cube: the totals (for day and hour alone, and the dashboard), each dimension alone, and the
 * pairs a drill-down from a campaign or an offer asks for, each in both grains. Each cube costs one
 * upsert per distinct key in a written batch, so pairs are few; a report no cube holds reads the events.
 * Adding a cube needs a migration that fills it from the stored events (see `backfillRollups`, report-rollups-repair.ts).
 */
export const CUBES: readonly Cube[] = [
  ...cubes(),
  ...ROLLUP_DIMENSIONS.flatMap((dimension) => cubes(dimension)),
  ...cubes('campaign', 'offer'),
  ...cubes('campaign', 'country'),
  ...cubes('campaign', 'lander'),
  ...cubes('offer', 'country'),
];

/** Most dimensions a cube holds (columns k1…k2). */
export const KEY_COLUMNS = ['k1', 'k2'] as const;

/** Stored for a dimension without a value (keys are part of the primary key, which refuses null). */
export const NO_VALUE = '';

export interface ReportRollupTable {
  /** Migration 0023: the events' workspace; a scoped report reads its own rows of any cube. */
  workspace_id: number;
  cube: string;
  /** The UTC quarter-hour, `YYYY-MM-DDTHH:MM` (minutes 00, 15, 30 or 45), or day, `YYYY-MM-DD`. */
  bucket: string;
  k1: string;
  k2: string;
  clicks: number;
  unique_clicks: number;
  cost: number;
  leads: number;
  /** Migration 0039: of `clicks` and `unique_clicks`, those with a bot verdict. */
  bot_clicks: number;
  bot_unique_clicks: number;
  /** Migration 0040: of `clicks`, those whose visitor went on from the lander to the offer; and of those, bots'. */
  lp_clicks: number;
  bot_lp_clicks: number;
  /** Of `clicks`, those sent to a lander (lp_ctr's divisor); and of those, bots'. */
  lander_clicks: number;
  bot_lander_clicks: number;
}

/** The smallest cube of `grain` holding all of `dimensions`, or null (then the report reads the events). */
export function cubeFor(dimensions: Iterable<RollupDimension>, grain: Grain = 'quarter'): Cube | null {
  const wanted = new Set(dimensions);
  let best: Cube | null = null;
  for (const candidate of CUBES) {
    if (candidate.grain !== grain) continue;
    if (![...wanted].every((dimension) => candidate.dimensions.includes(dimension))) continue;
    if (!best || candidate.dimensions.length < best.dimensions.length) best = candidate;
  }
  return best;
}

/** The key column (`k1`, `k2`) holding `dimension` in `cube`. */
export function keyColumn(of: Cube, dimension: RollupDimension): 'k1' | 'k2' {
  const index = of.dimensions.indexOf(dimension);
  const column = KEY_COLUMNS[index];
  if (!column) throw new Error(`cube ${of.id} does not hold ${dimension}`);
  return column;
}

/** The quarter-hour (or day) bucket of an ISO-8601 UTC time. */
export function bucketOf(createdAt: string, grain: Grain = 'quarter'): string {
  if (grain === 'day') return createdAt.slice(0, 10);
  const minute = Number(createdAt.slice(14, 16));
  return `${createdAt.slice(0, 14)}${String(minute - (minute % 15)).padStart(2, '0')}`;
}

/** One cube row's increments, keyed by everything but the figures. */
export type RollupDelta = ReportRollupTable;

/** Reads one column of an event row (rows are objects, or arrays in a fixed column order). */
export type ColumnReader<TRow> = (row: TRow, column: string) => unknown;

const readProperty = (row: object, column: string): unknown => (row as Record<string, unknown>)[column];

/** The cubes grouped by their dimensions: each set is counted per quarter-hour once, its day cube folded from that. */
const DIMENSION_SETS = (() => {
  const sets = new Map<string, { positions: number[]; quarter: string | null; day: string | null }>();
  for (const cube of CUBES) {
    const name = cube.dimensions.join('+');
    let set = sets.get(name);
    if (!set) {
      set = {
        positions: cube.dimensions.map((dimension) => ROLLUP_DIMENSIONS.indexOf(dimension)),
        quarter: null,
        day: null,
      };
      sets.set(name, set);
    }
    set[cube.grain] = cube.id;
  }
  return [...sets.values()];
})();

type Figures = Pick<RollupDelta, (typeof FIGURES)[number]>;
/** k1 → k2 → figures, for one dimension set in one bucket. */
type KeyMap = Map<string, Map<string, Figures>>;

/** The map under `key`, made empty if there is none yet. */
function innerMap<K, V>(outer: Map<string, Map<K, V>>, key: string): Map<K, V> {
  let inner = outer.get(key);
  if (!inner) {
    inner = new Map();
    outer.set(key, inner);
  }
  return inner;
}

function figuresAt(keys: KeyMap, k1: string, k2: string): Figures {
  const seconds = innerMap(keys, k1);
  let figures = seconds.get(k2);
  if (!figures) {
    figures = { ...NO_CLICKS };
    seconds.set(k2, figures);
  }
  return figures;
}

const byKey = <T>(map: Map<string, T>): [string, T][] => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * What `clicks` and `leads` add to every cube, one delta per distinct cube row, in key order (so that
 * concurrent writers — several nodes on one PostgreSQL — lock rows in the same order). Called for every
 * written batch, so each event's columns are read once, each set of dimensions is counted once per
 * quarter-hour, and the day cubes are folded from those counts.
 */
export function rollupDeltas<TClick = NewTrackerClick, TLead = NewTrackerLead>(
  clicks: readonly TClick[],
  leads: readonly TLead[],
  readClick: ColumnReader<TClick> = readProperty as ColumnReader<TClick>,
  readLead: ColumnReader<TLead> = readProperty as ColumnReader<TLead>,
): RollupDelta[] {
  // workspace → quarter-hour → one KeyMap per dimension set
  const workspaces = new Map<number, Map<string, KeyMap[]>>();
  const values = new Array<string>(ROLLUP_DIMENSIONS.length);
  const addRow = <TRow>(row: TRow, read: ColumnReader<TRow>, isClick: boolean) => {
    const workspace = Number(read(row, 'workspace_id') ?? 0) || 0;
    let quarters = workspaces.get(workspace);
    if (!quarters) {
      quarters = new Map();
      workspaces.set(workspace, quarters);
    }
    const quarter = bucketOf(read(row, 'created_at') as string);
    let sets = quarters.get(quarter);
    if (!sets) {
      sets = DIMENSION_SETS.map(() => new Map());
      quarters.set(quarter, sets);
    }
    for (let index = 0; index < ROLLUP_DIMENSIONS.length; index += 1) {
      values[index] = keyValue(read(row, DIMENSION_COLUMNS[ROLLUP_DIMENSIONS[index]!]));
    }
    const unique = isClick && read(row, 'is_unique') ? 1 : 0;
    const cost = isClick ? Number(read(row, 'cost') ?? 0) : 0;
    const bot = isClick && Number(read(row, 'is_bot') ?? 0) === 1 ? 1 : 0;
    // Set once the click's visitor followed the lander's offer link (lpOnly); a new click has none.
    const lp = isClick && read(row, 'lp_clicked_at') ? 1 : 0;
    const lander = isClick && read(row, 'lander_external_id') ? 1 : 0;
    for (let index = 0; index < DIMENSION_SETS.length; index += 1) {
      const { positions } = DIMENSION_SETS[index]!;
      const k1 = positions.length > 0 ? values[positions[0]!]! : NO_VALUE;
      const k2 = positions.length > 1 ? values[positions[1]!]! : NO_VALUE;
      const figures = figuresAt(sets[index]!, k1, k2);
      if (isClick) {
        figures.clicks += 1;
        figures.unique_clicks += unique;
        figures.cost += cost;
        figures.bot_clicks += bot;
        figures.bot_unique_clicks += bot & unique;
        figures.lp_clicks += lp;
        figures.bot_lp_clicks += bot & lp;
        figures.lander_clicks += lander;
        figures.bot_lander_clicks += bot & lander;
      } else {
        figures.leads += 1;
      }
    }
  };
  for (const row of clicks) addRow(row, readClick, true);
  for (const row of leads) addRow(row, readLead, false);

  const deltas: RollupDelta[] = [];
  for (const [workspace_id, quarters] of [...workspaces].sort(([a], [b]) => a - b)) {
    // cube id → bucket → KeyMap: the quarter cubes as counted, the day cubes folded from them.
    const cubes = new Map<string, Map<string, KeyMap>>();
    for (const [quarter, sets] of quarters) {
      const day = bucketOf(quarter, 'day');
      for (let index = 0; index < DIMENSION_SETS.length; index += 1) {
        const set = DIMENSION_SETS[index]!;
        const keys = sets[index]!;
        if (set.quarter !== null) innerMap(cubes, set.quarter).set(quarter, keys);
        if (set.day === null) continue;
        const dayKeys: KeyMap = innerMap(innerMap(cubes, set.day), day);
        for (const [k1, seconds] of keys) {
          for (const [k2, figures] of seconds) {
            const total = figuresAt(dayKeys, k1, k2);
            total.clicks += figures.clicks;
            total.unique_clicks += figures.unique_clicks;
            total.cost += figures.cost;
            total.leads += figures.leads;
            total.bot_clicks += figures.bot_clicks;
            total.bot_unique_clicks += figures.bot_unique_clicks;
            total.lp_clicks += figures.lp_clicks;
            total.bot_lp_clicks += figures.bot_lp_clicks;
            total.lander_clicks += figures.lander_clicks;
            total.bot_lander_clicks += figures.bot_lander_clicks;
          }
        }
      }
    }
    for (const [cube, buckets] of byKey(cubes)) {
      for (const [bucket, keys] of byKey(buckets)) {
        for (const [k1, seconds] of byKey(keys)) {
          for (const [k2, figures] of byKey(seconds)) deltas.push({ workspace_id, cube, bucket, k1, k2, ...figures });
        }
      }
    }
  }
  return deltas;
}

/** A delta's cost alone: a click whose cost moved is still counted once. */
export function costOnly(delta: RollupDelta): RollupDelta {
  return { ...delta, ...NO_CLICKS, cost: delta.cost };
}

/** A delta's counts of clicks, all 0 (and a bucket's figures before its first event). */
const NO_CLICKS = {
  clicks: 0,
  unique_clicks: 0,
  cost: 0,
  leads: 0,
  bot_clicks: 0,
  bot_unique_clicks: 0,
  lp_clicks: 0,
  bot_lp_clicks: 0,
  lander_clicks: 0,
  bot_lander_clicks: 0,
};

/**
 * A delta of clicks (read with `lp_clicked_at` set) that just went on to their offer: their lp counts
 * alone, in their click's bucket, as the event tables' reports count them by the click's time.
 */
export function lpOnly(delta: RollupDelta): RollupDelta {
  return { ...delta, ...NO_CLICKS, lp_clicks: delta.lp_clicks, bot_lp_clicks: delta.bot_lp_clicks };
}

function keyValue(value: unknown): string {
  return value === null || value === undefined || value === '' ? NO_VALUE : String(value);
}

/** The figures of each cube row from migration 0039 to 0040. */
export const FIGURES_0039 = ['clicks', 'unique_clicks', 'cost', 'leads', 'bot_clicks', 'bot_unique_clicks'] as const;
export const FIGURES = [...FIGURES_0039, 'lp_clicks', 'bot_lp_clicks', 'lander_clicks', 'bot_lander_clicks'] as const;
/** A cube row's key, and every column of it (the workspace first). */
export const KEYS = ['workspace_id', 'cube', 'bucket', 'k1', 'k2'] as const;
export const COLUMNS = [...KEYS, ...FIGURES] as const;

/** `INSERT … ON CONFLICT DO UPDATE` adding one delta (the same text in both dialects). */
export const UPSERT_ONE = `insert into report_rollups (${COLUMNS.join(', ')}) values (${COLUMNS.map(() => '?').join(', ')})
  on conflict (${KEYS.join(', ')}) do update set ${FIGURES.map((name) => `${name} = report_rollups.${name} + excluded.${name}`).join(', ')}`;

/** A delta's values in UPSERT_ONE's parameter order. */
export function upsertParameters(delta: RollupDelta): unknown[] {
  return COLUMNS.map((column) => delta[column]);
}

/** Rows per multi-row upsert on PostgreSQL (9 parameters each). */
const UPSERT_CHUNK = 1000;

/** Adds `deltas` through Kysely (PostgreSQL, or SQLite without the prepared statement path). */
export async function applyRollupDeltas(
  db: Kysely<Database>,
  deltas: RollupDelta[],
  /** Awaited between chunks (a cost update lets the event loop run). */
  between?: () => Promise<void>,
) {
  for (let start = 0; start < deltas.length; start += UPSERT_CHUNK) {
    if (between && start > 0) await between();
    await db
      .insertInto('report_rollups')
      .values(deltas.slice(start, start + UPSERT_CHUNK))
      .onConflict((conflict) =>
        conflict.columns([...KEYS]).doUpdateSet({
          clicks: sql`report_rollups.clicks + excluded.clicks`,
          unique_clicks: sql`report_rollups.unique_clicks + excluded.unique_clicks`,
          cost: sql`report_rollups.cost + excluded.cost`,
          leads: sql`report_rollups.leads + excluded.leads`,
          bot_clicks: sql`report_rollups.bot_clicks + excluded.bot_clicks`,
          bot_unique_clicks: sql`report_rollups.bot_unique_clicks + excluded.bot_unique_clicks`,
          lp_clicks: sql`report_rollups.lp_clicks + excluded.lp_clicks`,
          bot_lp_clicks: sql`report_rollups.bot_lp_clicks + excluded.bot_lp_clicks`,
          lander_clicks: sql`report_rollups.lander_clicks + excluded.lander_clicks`,
          bot_lander_clicks: sql`report_rollups.bot_lander_clicks + excluded.bot_lander_clicks`,
        }),
      )
      .execute();
  }
}
