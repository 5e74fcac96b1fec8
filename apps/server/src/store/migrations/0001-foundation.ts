// Migration 0001_foundation, frozen: it imports only Kysely and the table shapes frozen with it
// (frozen/tables.ts), so that a later change elsewhere never changes what it does.
import type { Migration } from 'kysely';
import { type AnyDb, type Dialect, withId, withRecordColumns } from './frozen/tables.js';

export function foundationMigration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await withRecordColumns(
        withId(db.schema.createTable('workspaces'), dialect).addColumn('name', 'text', (column) => column.notNull()),
      ).execute();

      await withRecordColumns(
        withId(db.schema.createTable('roles'), dialect)
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('permissions', 'text', (column) => column.notNull().defaultTo('[]')),
      ).execute();

      await withRecordColumns(
        withId(db.schema.createTable('users'), dialect)
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('email', 'text', (column) => column.notNull().unique())
          .addColumn('password_hash', 'text', (column) => column.notNull())
          .addColumn('active', 'integer', (column) => column.notNull().defaultTo(1))
          .addColumn('email_verified', 'integer', (column) => column.notNull().defaultTo(0))
          .addColumn('permissions', 'text', (column) => column.notNull().defaultTo('[]'))
          .addColumn('invited_by', 'integer', (column) => column.references('users.id').onDelete('set null')),
      ).execute();

      await db.schema
        .createTable('user_roles')
        .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role_id', 'integer', (column) => column.notNull().references('roles.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
        .execute();

      await db.schema
        .createTable('user_workspaces')
        .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
        .addColumn('workspace_id', 'integer', (column) =>
          column.notNull().references('workspaces.id').onDelete('cascade'),
        )
        .addPrimaryKeyConstraint('user_workspaces_pk', ['user_id', 'workspace_id'])
        .execute();

      await withId(db.schema.createTable('sessions'), dialect)
        .addColumn('token_hash', 'text', (column) => column.notNull().unique())
        .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('last_used_at', 'text', (column) => column.notNull())
        .addColumn('expires_at', 'text', (column) => column.notNull())
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();
      await db.schema.createIndex('user_roles_role_id_idx').on('user_roles').column('role_id').execute();
      await db.schema
        .createIndex('user_workspaces_workspace_id_idx')
        .on('user_workspaces')
        .column('workspace_id')
        .execute();
    },
  };
}
