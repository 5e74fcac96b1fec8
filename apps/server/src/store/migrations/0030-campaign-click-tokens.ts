// Migration 0030_campaign_click_tokens, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0030: campaign_click_tokens. */
export function campaignClickTokensMigration(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('campaign_click_tokens')
        .addColumn('campaign_external_id', 'text', (column: ColumnDefinitionBuilder) => column.primaryKey())
        .addColumn('workspace_id', 'integer', (column) =>
          column.notNull().references('workspaces.id').onDelete('cascade'),
        )
        .addColumn('token_hash', 'text', (column) => column.notNull().unique())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .execute();
    },
  };
}
