// Migration 0015_api_tokens, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0015: api_tokens. */
export function apiTokensMigration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('api_tokens')
        .addColumn('id', 'integer', (column: ColumnDefinitionBuilder) =>
          dialect === 'postgres'
            ? column.generatedByDefaultAsIdentity().primaryKey()
            : column.primaryKey().autoIncrement(),
        )
        .addColumn('token_hash', 'text', (column) => column.notNull().unique())
        .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
        .addColumn('workspace_id', 'integer', (column) =>
          column.notNull().references('workspaces.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('permissions', 'text', (column) => column.notNull().defaultTo('[]'))
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('expires_at', 'text', (column) => column.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('last_used_ip', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema
        .createIndex('api_tokens_user_idx')
        .on('api_tokens')
        .columns(['user_id', 'workspace_id'])
        .execute();
    },
  };
}
