// The DuckDB store's layout: its tables, the order a row's values are appended in (appendRow), and a
// store written in an older layout brought to this one at open (layOut).
import { type DuckDBAppender, type DuckDBConnection, DuckDBTimestampValue } from '@duckdb/node-api';
import { CODED_COLUMNS, CODES_DDL, type Codes, codeColumn } from './duckdb-codes.js';
import { COLUMNAR_TEXT_COLUMNS, CONVERSION_TEXT_COLUMNS, type ColumnarRow, type ColumnarTable } from './schema.js';

const TABLES: readonly ColumnarTable[] = ['clicks', 'leads'];

/**
 * Rows in the order the tables declare them, appended in the same order; the coded columns' numbers
 * (duckdb-codes.ts), then `lander_events` (`events` when the row's click had a lander, else 0: a count
 * summed as it is, where a lander's null cost a read of its column and a test per row), last.
 */
const DDL = (table: ColumnarTable) => `create table if not exists ${table} (
  row_key varchar not null,
  source_id bigint not null,
  workspace_id integer not null,
  created_at timestamp not null,
  events tinyint not null,
  unique_events tinyint not null,
  cost double not null,
  asn bigint,
  is_bot tinyint not null,
  lp_events tinyint not null,
  ${COLUMNAR_TEXT_COLUMNS.map((name) => `"${name}" varchar`).join(',\n  ')},
  ${CODED_COLUMNS.map((name) => `${codeColumn(name)} uinteger`).join(',\n  ')},
  lander_events tinyint not null
)`;

/**
 * The store's layout. A store written in an older one is emptied at start and copied again from the
 * event tables, as a store deleted by hand is: 1 (none recorded) had no coded columns; 2 took each
 * event's workspace from its campaign's, 3 from the event row's own workspace_id; 4 (issue 43) has
 * `lp_events`; 5 `lander_events`, added to a store of 4 in place (LANDER_EVENTS).
 */
export const FORMAT = 5;

/**
 * Layout 4 to 5: the column added last, as DDL has it, and filled from each row's lander (0.5 s at 10M
 * clicks). Not one transaction (DuckDB refuses the constraint beside uncommitted updates), so each
 * statement may run again after a crash between them; the layout is recorded after the last.
 */
const LANDER_EVENTS = (table: ColumnarTable) => [
  `alter table ${table} add column if not exists lander_events tinyint`,
  `update ${table} set lander_events = case when "lander_external_id" is not null then events else 0 end`,
  `alter table ${table} alter column lander_events set not null`,
];

/**
 * Conversions as they are now: one row each, replaced when it changes (store/conversion-changes.ts);
 * the columns a conversion reads from its click or lead (FROM_ORIGIN) copied from it.
 */
const CONVERSIONS_DDL = `create table if not exists conversions (
  conversion_id varchar not null,
  workspace_id integer not null,
  created_at timestamp not null,
  event_at timestamp,
  is_conversion tinyint not null,
  state varchar not null,
  payout double not null,
  asn bigint,
  is_bot tinyint,
  ${CONVERSION_TEXT_COLUMNS.map((name) => `"${name}" varchar`).join(',\n  ')}
)`;

/** The conversions a pass replaces, and where following the change log resumes. */
const HELPER_DDL = [
  'create table if not exists conversions_changed (conversion_id varchar not null)',
  'create table if not exists progress (name varchar not null, value bigint not null)',
  CODES_DDL,
];
const ALL_TABLES = [...TABLES, 'conversions', 'conversions_changed', 'progress', 'codes'];

export function appendRow(appender: DuckDBAppender, row: ColumnarRow, codes: Codes): void {
  appender.appendVarchar(row.row_key);
  appender.appendBigInt(BigInt(row.source_id));
  appender.appendInteger(row.workspace_id);
  appender.appendTimestamp(new DuckDBTimestampValue(BigInt(Date.parse(row.created_at)) * 1000n));
  appender.appendTinyInt(row.events);
  appender.appendTinyInt(row.unique_events);
  appender.appendDouble(row.cost);
  if (row.asn === null) appender.appendNull();
  else appender.appendBigInt(BigInt(row.asn));
  appender.appendTinyInt(row.is_bot);
  appender.appendTinyInt(row.lp_events);
  for (const name of COLUMNAR_TEXT_COLUMNS) {
    const value = row[name];
    if (value === null) appender.appendNull();
    else appender.appendVarchar(value);
  }
  for (const name of CODED_COLUMNS) codes.append(appender, name, row[name]);
  appender.appendTinyInt(row.lander_external_id === null ? 0 : row.events);
  appender.endRow();
}

/**
 * Brings the store at `connection` to FORMAT, its tables created if missing. Answers whether it was
 * emptied, to be copied again from the event tables; the caller records FORMAT once the store is open.
 */
export async function layOut(connection: DuckDBConnection): Promise<{ relaid: boolean }> {
  const layout = await layoutOf(connection);
  if (layout === 4) {
    for (const table of TABLES) for (const statement of LANDER_EVENTS(table)) await connection.run(statement);
  } else if (layout !== FORMAT) {
    for (const table of ALL_TABLES) await connection.run(`drop table if exists ${table}`);
  }
  for (const table of TABLES) await connection.run(DDL(table));
  await connection.run(CONVERSIONS_DDL);
  for (const statement of HELPER_DDL) await connection.run(statement);
  return { relaid: layout !== 0 && layout !== 4 && layout !== FORMAT };
}

/** The layout of the store at `connection`: 0 for an empty one, 1 for one written before it was recorded. */
async function layoutOf(connection: DuckDBConnection): Promise<number> {
  const tables = await connection.runAndReadAll(
    "select table_name from information_schema.tables where table_name in ('clicks', 'progress') and table_schema = 'main'",
  );
  const names = tables.getRows().map((row) => String(row[0]));
  if (names.length === 0) return 0;
  if (!names.includes('progress')) return 1;
  const reader = await connection.runAndReadAll("select max(value) from progress where name = 'format'");
  return Number(reader.getRows()[0]?.[0] ?? 1);
}
