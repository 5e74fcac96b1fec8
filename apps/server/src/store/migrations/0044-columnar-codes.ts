// Migration 0044_columnar_codes, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

const identity = (dialect: Dialect) => (column: ColumnDefinitionBuilder) =>
  dialect === 'postgres' ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement();

/**
 * 0044: columnar_codes, the number of each bounded text value ClickHouse keeps (one code per column
 * name and value, the same on every node). Instance-wide: values, not a workspace's rows.
 */
export function columnarCodesMigration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('columnar_codes')
        .addColumn('code', 'integer', identity(dialect))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addUniqueConstraint('columnar_codes_value', ['name', 'value'])
        .execute();
    },
  };
}
