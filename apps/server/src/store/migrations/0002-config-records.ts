// Migration 0002_config_records, frozen: it imports only Kysely and the table shapes frozen with it
// (frozen/tables.ts), so that a later change elsewhere never changes what it does.
import type { Migration } from 'kysely';
import { type AnyDb, type Dialect, withId, withRecordColumns } from './frozen/tables.js';

/**
 * Config entities (offers, flows, campaigns, …): one table, a row per record with the columns lists
 * filter and sort on, and the rest of the record as JSON text in `body`.
 */
export function configRecordsMigration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await withRecordColumns(
        withId(db.schema.createTable('config_records'), dialect)
          .addColumn('kind', 'text', (column) => column.notNull())
          .addColumn('external_id', 'text', (column) => column.notNull())
          .addColumn('workspace_id', 'integer', (column) => column.references('workspaces.id').onDelete('set null'))
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('body', 'text', (column) => column.notNull().defaultTo('{}'))
          .addUniqueConstraint('config_records_kind_external_id_key', ['kind', 'external_id']),
      ).execute();
      await db.schema
        .createIndex('config_records_kind_status_idx')
        .on('config_records')
        .columns(['kind', 'status'])
        .execute();
      await db.schema
        .createIndex('config_records_workspace_id_idx')
        .on('config_records')
        .column('workspace_id')
        .execute();
    },
  };
}
