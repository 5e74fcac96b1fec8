// Migration 0027_domains, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** The domains and acme_challenges tables. */
export function domainsMigration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('domains')
        .addColumn('id', 'integer', (column: ColumnDefinitionBuilder) =>
          dialect === 'postgres'
            ? column.generatedByDefaultAsIdentity().primaryKey()
            : column.primaryKey().autoIncrement(),
        )
        .addColumn('workspace_id', 'integer', (column) => column.notNull().references('workspaces.id'))
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('index_campaign', 'text')
        .addColumn('not_found', 'text', (column) => column.notNull().defaultTo('404'))
        .addColumn('https_only', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('dashboard', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('noindex', 'integer', (column) => column.notNull().defaultTo(1))
        .addColumn('status', 'text', (column) => column.notNull().defaultTo('active'))
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .addColumn('dns_addresses', 'text', (column) => column.notNull().defaultTo('[]'))
        .addColumn('dns_error', 'text')
        .addColumn('dns_checked_at', 'text')
        .addColumn('cert_status', 'text', (column) => column.notNull().defaultTo('none'))
        .addColumn('cert_source', 'text')
        .addColumn('cert_pem', 'text')
        .addColumn('cert_key', 'text')
        .addColumn('cert_expires_at', 'text')
        .addColumn('cert_issuer', 'text')
        .addColumn('cert_reason', 'text')
        .addColumn('cert_retry_at', 'text')
        .addColumn('cert_failures', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('cert_lock_until', 'text')
        .addColumn('cert_updated_at', 'text')
        .execute();
      // One workspace per name, archived or not: a name is claimed until the domain is removed.
      await db.schema.createIndex('domains_name_idx').on('domains').column('name').unique().execute();
      await db.schema.createIndex('domains_workspace_idx').on('domains').column('workspace_id').execute();
      await db.schema
        .createTable('acme_challenges')
        .addColumn('token', 'text', (column) => column.primaryKey())
        .addColumn('key_authorization', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .execute();
    },
  };
}
