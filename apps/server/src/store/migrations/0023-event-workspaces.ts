// Migration 0023_event_workspaces, frozen: it imports only Kysely and the rollup backfill frozen with it
// (frozen/rollup-backfill.ts), so that a later change elsewhere never changes what it does.
import { type Migration, sql } from 'kysely';

import { type AnyDb, backfillRollups, type Dialect, FIGURES_0006, KEYS } from './frozen/rollup-backfill.js';

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
