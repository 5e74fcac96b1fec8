// Migration 0003_accounts, frozen: it imports only Kysely and the table shapes frozen with it
// (frozen/tables.ts), so that a later change elsewhere never changes what it does.
import type { Migration } from 'kysely';
import { type AnyDb, type Dialect, withId } from './frozen/tables.js';

/**
 * Accounts: invitations, single-use links (email verification, password reset), server
 * settings, and per-user language and pending email confirmation.
 */
export function accountsMigration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('users').addColumn('language', 'text').execute();
      await db.schema
        .alterTable('users')
        .addColumn('needs_verification', 'integer', (column) => column.notNull().defaultTo(0))
        .execute();

      await withId(db.schema.createTable('invitations'), dialect)
        .addColumn('token_hash', 'text', (column) => column.notNull().unique())
        .addColumn('email', 'text', (column) => column.notNull())
        .addColumn('name', 'text', (column) => column.notNull().defaultTo(''))
        .addColumn('roles', 'text', (column) => column.notNull().defaultTo('[]'))
        .addColumn('permissions', 'text', (column) => column.notNull().defaultTo('[]'))
        .addColumn('workspaces', 'text', (column) => column.notNull().defaultTo('[]'))
        .addColumn('language', 'text', (column) => column.notNull())
        .addColumn('invited_by', 'integer', (column) => column.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('expires_at', 'text', (column) => column.notNull())
        .addColumn('accepted_at', 'text')
        .addColumn('accepted_user_id', 'integer', (column) => column.references('users.id').onDelete('set null'))
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('invitations_email_idx').on('invitations').column('email').execute();

      await withId(db.schema.createTable('account_tokens'), dialect)
        .addColumn('token_hash', 'text', (column) => column.notNull().unique())
        .addColumn('purpose', 'text', (column) => column.notNull())
        .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('expires_at', 'text', (column) => column.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createIndex('account_tokens_user_id_purpose_idx')
        .on('account_tokens')
        .columns(['user_id', 'purpose'])
        .execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (column) => column.primaryKey())
        .addColumn('value', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
    },
  };
}
