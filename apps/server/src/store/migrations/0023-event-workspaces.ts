// Migration 0023_event_workspaces, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import { type Kysely, type Migration, sql } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** The dimensions a cube can hold, named as the report groups; each is a column of both event tables. */
const ROLLUP_DIMENSIONS = [
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

type RollupDimension = (typeof ROLLUP_DIMENSIONS)[number];

/** The event column of each dimension. */
const DIMENSION_COLUMNS = {
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
type Grain = 'quarter' | 'day';

interface Cube {
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
 * Adding a cube needs a migration that fills it from the stored events (see `backfillRollups`).
 */
const CUBES: readonly Cube[] = [
  ...cubes(),
  ...ROLLUP_DIMENSIONS.flatMap((dimension) => cubes(dimension)),
  ...cubes('campaign', 'offer'),
  ...cubes('campaign', 'country'),
  ...cubes('campaign', 'lander'),
  ...cubes('offer', 'country'),
];

/** Most dimensions a cube holds (columns k1…k2). */
const KEY_COLUMNS = ['k1', 'k2'] as const;

/** Stored for a dimension without a value (keys are part of the primary key, which refuses null). */
const NO_VALUE = '';

/** The figures of each cube row from migration 0039 to 0040. */
const FIGURES_0039 = ['clicks', 'unique_clicks', 'cost', 'leads', 'bot_clicks', 'bot_unique_clicks'] as const;

const FIGURES = [...FIGURES_0039, 'lp_clicks', 'bot_lp_clicks', 'lander_clicks', 'bot_lander_clicks'] as const;

/** A cube row's key, and every column of it (the workspace first). */
const KEYS = ['workspace_id', 'cube', 'bucket', 'k1', 'k2'] as const;

/** The figures of each cube row before migration 0039 (what migrations 0006 and 0023 write). */
const FIGURES_0006 = ['clicks', 'unique_clicks', 'cost', 'leads'] as const;

/**
 * Fills every cube from the stored events (after the migration that adds them). `byWorkspace`: the
 * rollups and events of migration 0023 on, which keep each event's workspace. `bots` (migration 0039 on):
 * `with` fills the bot counts too; `only` adds the bot counts alone to the rows already there (each bot
 * click was counted in its row's clicks, so only those columns move).
 */
async function backfillRollups(
  db: AnyDb,
  byWorkspace = true,
  bots: 'without' | 'with' | 'only' | 'landers' = 'without',
): Promise<void> {
  // The quarter-hour or day of created_at, in both dialects.
  const day = sql`substr(created_at, 1, 10)`;
  const quarter = sql`substr(created_at, 1, 14) || case
      when substr(created_at, 15, 2) < '15' then '00'
      when substr(created_at, 15, 2) < '30' then '15'
      when substr(created_at, 15, 2) < '45' then '30'
      else '45' end`;
  // `only` runs in migration 0039, before the lp columns of 0040 exist.
  const names =
    bots === 'without'
      ? FIGURES_0006
      : bots === 'only'
        ? FIGURES_0039
        : bots === 'landers'
          ? (['lander_clicks', 'bot_lander_clicks'] as const)
          : FIGURES;
  const columns = [...(byWorkspace ? KEYS : KEYS.slice(1)), ...names];
  const summed = names.map((name) => sql`sum(${sql.ref(name)})`);
  const added = names.map((name) => sql.raw(`${name} = report_rollups.${name} + excluded.${name}`));
  for (const { id, dimensions, grain } of CUBES) {
    const bucket = grain === 'day' ? day : quarter;
    const quarters = CUBES.find((cube) => cube.grain === 'quarter' && cube.id === id.replace(/\/day$/, ''));
    // `only` and `landers` add to rows already there: each cube from the events.
    if (byWorkspace && grain === 'day' && quarters && bots !== 'only' && bots !== 'landers') {
      // Folded from its quarter-hour cube, filled just before (CUBES lists it first), as rollupDeltas folds
      // them: a read of the cube's rows rather than of every event.
      await sql`insert into report_rollups (${sql.raw(columns.join(', '))})
        select workspace_id, ${id}, substr(bucket, 1, 10), k1, k2, ${sql.join(summed)}
        from report_rollups where cube = ${quarters.id}
        group by workspace_id, substr(bucket, 1, 10), k1, k2`.execute(db);
      continue;
    }
    for (const table of ['tracker_clicks', 'tracker_leads'] as const) {
      if ((bots === 'only' || bots === 'landers') && table === 'tracker_leads') continue;
      // Each key: its column (null turned into NO_VALUE), or NO_VALUE where the cube or table has none
      // (leads have no lander). Literals, not parameters: PostgreSQL matches a selected expression to its
      // GROUP BY text, two parameters are two expressions to it, and it refuses constants in GROUP BY.
      const keyColumns = KEY_COLUMNS.map((_, index) => {
        const dimension = dimensions[index];
        if (!dimension || (table === 'tracker_leads' && dimension === 'lander')) return null;
        return sql`coalesce(${sql.ref(DIMENSION_COLUMNS[dimension])}, ${sql.lit(NO_VALUE)})`;
      });
      const keys = keyColumns.map((column) => column ?? sql.lit(NO_VALUE));
      const workspace = sql`coalesce(${sql.ref('workspace_id')}, 0)`;
      const grouped = [...(byWorkspace ? [workspace] : []), bucket, ...keyColumns.filter((column) => column !== null)];
      const botFigures =
        bots === 'without' || bots === 'landers'
          ? sql``
          : table === 'tracker_clicks'
            ? sql`, coalesce(sum(is_bot), 0), coalesce(sum(is_bot * is_unique), 0)${bots === 'with' ? LP_SUMS : sql``}`
            : bots === 'with'
              ? sql`, 0, 0, 0, 0, 0, 0`
              : sql`, 0, 0`;
      const figures =
        bots === 'landers'
          ? sql`count(*), coalesce(sum(is_bot), 0)`
          : bots === 'only'
            ? sql`0, 0, 0, 0`
            : table === 'tracker_clicks'
              ? sql`count(*), coalesce(sum(is_unique), 0), coalesce(sum(cost), 0), 0`
              : sql`0, 0, 0, count(*)`;
      await sql`insert into report_rollups (${sql.raw(columns.join(', '))})
        select ${byWorkspace ? sql`${workspace}, ` : sql``}${id}, ${bucket}, ${sql.join(keys)}, ${figures}${botFigures}
        from ${sql.table(table)}
        where ${bots === 'only' ? sql`is_bot = 1` : bots === 'landers' ? sql`lander_external_id is not null` : sql`true`}
        group by ${sql.join(grouped)}
        on conflict (${sql.raw(byWorkspace ? KEYS.join(', ') : 'cube, bucket, k1, k2')}) do update set
          ${sql.join(added)}`.execute(db);
    }
  }
}

/** Clicks' lp and lander counts (lp_clicks, bot_lp_clicks, lander_clicks, bot_lander_clicks) summed, as rollupDeltas counts them. */
const LP_SUMS = sql`, coalesce(sum(case when lp_clicked_at is null then 0 else 1 end), 0),
  coalesce(sum(case when lp_clicked_at is null then 0 else is_bot end), 0),
  coalesce(sum(case when lander_external_id is null then 0 else 1 end), 0),
  coalesce(sum(case when lander_external_id is null then 0 else is_bot end), 0)`;

type EventTable = 'tracker_clicks' | 'tracker_leads';

/** The config kind of each event table's campaigns. */
const CAMPAIGN_KIND: Readonly<Record<EventTable, string>> = {
  tracker_clicks: 'tracker-campaigns',
  tracker_leads: 'campaigns',
};

/** Each event's workspace: its campaign's, else the default one. `e`: the event row. */
function workspaceOf(table: EventTable) {
  return sql`coalesce(
    (select c.workspace_id from config_records c
      where c.kind = ${CAMPAIGN_KIND[table]} and c.external_id = ${sql.ref('e.campaign_external_id')}),
    (select min(w.id) from workspaces w))`;
}

/**
 * SQLite: the column added (no row rewritten), then filled in one UPDATE, each row's campaign looked up
 * on config_records' unique (kind, external_id) index.
 */
async function fillInPlace(db: AnyDb, table: EventTable): Promise<void> {
  await db.schema.alterTable(table).addColumn('workspace_id', 'integer').execute();
  await sql`update ${sql.table(table)} as e set workspace_id = ${workspaceOf(table)}`.execute(db);
}

/**
 * PostgreSQL: an UPDATE of every row writes a new version of it into every index, ten times the time of
 * copying the rows once into a table without indexes (measured: bench/migrate-workspace.ts). So the
 * table is copied with its workspace into a new one like it (columns, defaults, identity), which then
 * takes its place, its constraints and indexes made again as they were, by their names.
 */
async function copyWithWorkspace(db: AnyDb, table: EventTable): Promise<void> {
  const copy = `${table}_0023`;
  const { rows: constraints } = await sql<{ name: string; definition: string }>`
    select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
    where conrelid = ${table}::regclass and contype in ('p', 'u')`.execute(db);
  const { rows: indexes } = await sql<{ definition: string }>`
    select pg_get_indexdef(x.indexrelid) as definition from pg_index x
    where x.indrelid = ${table}::regclass
      and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)`.execute(db);
  await sql`create table ${sql.table(copy)} (like ${sql.table(table)}
    including defaults including identity including constraints including generated)`.execute(db);
  await db.schema.alterTable(copy).addColumn('workspace_id', 'integer').execute();
  await sql`insert into ${sql.table(copy)} overriding system value
    select e.*, ${workspaceOf(table)} from ${sql.table(table)} as e`.execute(db);
  await db.schema.dropTable(table).execute();
  await db.schema.alterTable(copy).renameTo(table).execute();
  // The identity's sequence was made for the copy: named as the table's own, and past the copied ids.
  await sql`alter sequence ${sql.table(`${copy}_id_seq`)} rename to ${sql.table(`${table}_id_seq`)}`.execute(db);
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce(max(id), 0) + 1, false)
    from ${sql.table(table)}`.execute(db);
  for (const { name, definition } of constraints) {
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(name)} ${sql.raw(definition)}`.execute(db);
  }
  for (const { definition } of indexes) await sql.raw(definition).execute(db);
  await sql`analyze ${sql.table(table)}`.execute(db);
}

/**
 * 0023: the cubes kept per workspace, workspace_id first in the key (a scoped report reads its
 * own rows of a cube). When every stored event is of one workspace (an instance with one, the most of
 * them), the rows are copied with it; else the cubes are built again from the events, which carry their
 * workspace from that migration on (a scan of the events per cube: half a minute per million clicks).
 */
async function rollupsByWorkspace(db: AnyDb, dialect: Dialect): Promise<void> {
  const money = dialect === 'postgres' ? 'double precision' : 'real';
  const count = dialect === 'postgres' ? 'bigint' : 'integer';
  const old = 'report_rollups_0006';
  await db.schema.alterTable('report_rollups').renameTo(old).execute();
  // Its key's name is free for the new table's (PostgreSQL names the key's index after it).
  if (dialect === 'postgres') {
    await sql`alter table ${sql.table(old)} rename constraint report_rollups_pk to report_rollups_0006_pk`.execute(db);
  }
  await db.schema
    .createTable('report_rollups')
    .addColumn('workspace_id', 'integer', (column) => column.notNull())
    .addColumn('cube', 'text', (column) => column.notNull())
    .addColumn('bucket', 'text', (column) => column.notNull())
    .addColumn('k1', 'text', (column) => column.notNull())
    .addColumn('k2', 'text', (column) => column.notNull())
    .addColumn('clicks', count, (column) => column.notNull().defaultTo(0))
    .addColumn('unique_clicks', count, (column) => column.notNull().defaultTo(0))
    .addColumn('cost', money, (column) => column.notNull().defaultTo(0))
    .addColumn('leads', count, (column) => column.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('report_rollups_pk', [...KEYS])
    .execute();
  // The lowest and highest workspace of clicks and leads, each read off their (workspace_id, created_at)
  // index (SQLite does so for a query of one min or max only).
  const workspaces = new Set<number>();
  for (const table of ['tracker_clicks', 'tracker_leads']) {
    for (const bound of [sql`min(workspace_id)`, sql`max(workspace_id)`]) {
      const { rows } = await sql<{
        id: number | string | null;
      }>`select ${bound} as id from ${sql.table(table)}`.execute(db);
      if (rows[0]?.id !== null && rows[0]?.id !== undefined) workspaces.add(Number(rows[0].id));
    }
  }
  // The columns as they were then (migration 0039 adds the bot counts).
  const COLUMNS = [...KEYS, ...FIGURES_0006];
  if (workspaces.size <= 1) {
    await sql`insert into report_rollups (${sql.raw(COLUMNS.join(', '))})
      select ${sql.lit([...workspaces][0] ?? 0)}, ${sql.raw(COLUMNS.slice(1).join(', '))} from ${sql.table(old)}`.execute(
      db,
    );
  } else await backfillRollups(db, true);
  await db.schema.dropTable(old).execute();
}

/**
 * 0023: workspace_id on clicks and leads, filled from their campaigns; scoped reads by workspace and time;
 * the rollups rebuilt per workspace.
 */
export function eventWorkspacesMigration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      for (const table of ['tracker_clicks', 'tracker_leads'] as const) {
        await (dialect === 'postgres' ? copyWithWorkspace(db, table) : fillInPlace(db, table));
        await db.schema
          .createIndex(`${table}_workspace_created_at_idx`)
          .on(table)
          .columns(['workspace_id', 'created_at'])
          .execute();
      }
      await rollupsByWorkspace(db, dialect);
    },
  };
}
