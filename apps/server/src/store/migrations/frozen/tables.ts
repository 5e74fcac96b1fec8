// Table shapes the first migrations (0001–0003) share, frozen with them: it imports only Kysely.
import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
export type AnyDb = Kysely<any>;

export type AnyTable = CreateTableBuilder<string, string>;

export function withId(table: AnyTable, dialect: Dialect): AnyTable {
  return table.addColumn('id', 'integer', (column: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement(),
  );
}

export function withRecordColumns(table: AnyTable): AnyTable {
  return table
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('active'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull());
}
