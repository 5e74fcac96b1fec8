// Personal API tokens, one row each: the SHA-256 of the secret (never the secret), the user and
// workspace it acts for, its permissions (JSON list), its expiry, when and from where it was last used,
// and when it was revoked (a revoked row is kept: the history says who revoked what).
import type { ColumnDefinitionBuilder, Generated, Kysely, Migration } from 'kysely';
import type { DatabaseDialect } from '../config.js';

export interface ApiTokenTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  workspace_id: number;
  name: string;
  permissions: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
  revoked_at: string | null;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0015: api_tokens. */
export function apiTokensMigration(dialect: DatabaseDialect): Migration {
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
