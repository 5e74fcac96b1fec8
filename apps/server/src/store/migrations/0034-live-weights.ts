// Migration 0034_live_weights, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

export function liveWeightsMigration(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('live_weights')
        .addColumn('workspace_id', 'integer', (column) => column.references('workspaces.id').onDelete('cascade'))
        .addColumn('flow_kind', 'text', (column) => column.notNull())
        .addColumn('flow_external_id', 'text', (column) => column.notNull())
        .addColumn('group_id', 'text', (column) => column.notNull())
        .addColumn('arm', 'text', (column) => column.notNull())
        .addColumn('weight', 'double precision', (column) => column.notNull())
        .addColumn('mean', 'double precision', (column) => column.notNull())
        .addColumn('low', 'double precision', (column) => column.notNull())
        .addColumn('high', 'double precision', (column) => column.notNull())
        .addColumn('p_best', 'double precision', (column) => column.notNull())
        .addColumn('clicks', 'integer', (column) => column.notNull())
        .addColumn('conversions', 'integer', (column) => column.notNull())
        .addColumn('moved', 'integer', (column) => column.notNull())
        .addColumn('computed_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('live_weights_pk', ['flow_kind', 'flow_external_id', 'group_id', 'arm'])
        .execute();
    },
  };
}
