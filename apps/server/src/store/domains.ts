// Domains the tracker answers on (workspace-owned), their certificates, and the ACME challenges being
// answered. Certificates and challenge tokens live in the database so every node serves every domain
// and answers any challenge, whichever node ordered it.
import type { ColumnDefinitionBuilder, Generated, Kysely, Migration } from 'kysely';
import type { DatabaseDialect } from '../config.js';

export interface DomainTable {
  id: Generated<number>;
  workspace_id: number;
  /** Punycode, lower case: what DNS, SNI and the Host header carry. */
  name: string;
  index_campaign: string | null;
  not_found: string;
  https_only: number;
  dashboard: number;
  noindex: number;
  status: string;
  created_at: string;
  updated_at: string;
  /** JSON array of the addresses the name resolved to at the last look. */
  dns_addresses: string;
  dns_error: string | null;
  dns_checked_at: string | null;
  cert_status: Generated<string>;
  cert_source: string | null;
  cert_pem: string | null;
  /** The certificate's private key (PEM); never answered by the API. */
  cert_key: string | null;
  cert_expires_at: string | null;
  cert_issuer: string | null;
  cert_reason: string | null;
  cert_retry_at: string | null;
  /** Failures in a row, for the backoff. */
  cert_failures: Generated<number>;
  /** A node ordering a certificate holds the domain until then, so two nodes never order at once. */
  cert_lock_until: string | null;
  cert_updated_at: string | null;
}

export interface AcmeChallengeTable {
  token: string;
  key_authorization: string;
  created_at: string;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** The domains and acme_challenges tables. */
export function domainsMigration(dialect: DatabaseDialect): Migration {
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
