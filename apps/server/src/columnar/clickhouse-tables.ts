// The ClickHouse store's tables, made or brought up to date at every start of every node
// (ClickHouseStore.open): clicks and leads, conversions, the progress every node reads, and the codes'
// dictionary (clickhouse-codes.ts).
import type { ClickHouseClient } from './clickhouse-client.js';
import { CODES_TABLE } from './clickhouse-codes.js';
import {
  CODE_COLUMNS,
  createConversionsTable,
  createTable,
  DERIVED_COLUMNS,
  LP_COLUMN,
  literal,
} from './clickhouse-sql.js';
import type { ColumnarTable } from './schema.js';

export const EVENT_TABLES: readonly ColumnarTable[] = ['clicks', 'leads'];
/** Two hashes of each row's campaign, once matched against a workspace's list of campaigns. */
const OLD_HASH_COLUMNS = ['h_campaign', 'k_campaign'];

/**
 * Creates the database and the tables when missing. Answers whether clicks, leads and conversions were
 * all made now (none of them was there before): only then are all their rows sent with codes.
 */
export async function openTables(client: ClickHouseClient): Promise<{ made: boolean }> {
  await client.execute(`CREATE DATABASE IF NOT EXISTS ${client.target.database}`, { inDatabase: false });
  const before = await client.select(
    `SELECT name FROM system.tables WHERE database = ${literal(client.target.database)}
       AND name IN ('clicks', 'leads', 'conversions')`,
  );
  for (const table of EVENT_TABLES) {
    await client.execute(createTable(table));
    await dropHashColumns(client, table);
    await addColumns(client, table, [LP_COLUMN, ...DERIVED_COLUMNS, ...CODE_COLUMNS]);
  }
  await client.execute(createConversionsTable());
  await addColumns(client, 'conversions', CODE_COLUMNS);
  await client.execute(
    'CREATE TABLE IF NOT EXISTS progress (name String, value Int64, version UInt64) ENGINE = ReplacingMergeTree(version) ORDER BY name',
  );
  await client.execute(CODES_TABLE);
  return { made: before.length === 0 };
}

async function columnsOf(client: ClickHouseClient, table: string): Promise<Set<string>> {
  const present = await client.select(
    `SELECT name FROM system.columns WHERE database = ${literal(client.target.database)} AND table = ${literal(table)}`,
  );
  return new Set(present.map((row) => String(row.name)));
}

/**
 * A table made when reports kept to a workspace by its campaigns' hashes (before workspaces were enforced
 * by the store, migration 0023) loses those columns, which ClickHouse computed for every row sent: reports
 * read each row's workspace_id now.
 */
async function dropHashColumns(client: ClickHouseClient, table: ColumnarTable): Promise<void> {
  const held = async () => [...(await columnsOf(client, table))].filter((name) => OLD_HASH_COLUMNS.includes(name));
  const present = await held();
  if (present.length === 0) return;
  try {
    await client.execute(`ALTER TABLE ${table} ${present.map((name) => `DROP COLUMN ${name}`).join(', ')}`);
  } catch (error) {
    // 18.16 has no DROP COLUMN IF EXISTS: another node starting at the same time may have dropped them.
    if ((await held()).length > 0) throw error;
  }
}

/**
 * A table made before a column was added gains it, in this order: `lp_events` (made before lp clicks were
 * kept, migration 0040: 0 for the rows it holds, none had gone on yet), then the counts computed from it
 * and the others (DERIVED_COLUMNS), then the codes (0 for the rows it holds: the table stays read by its
 * text, ClickHouseStore.report). Older parts compute or default them as they are read.
 */
async function addColumns(
  client: ClickHouseClient,
  table: string,
  columns: readonly { name: string; type: string }[],
): Promise<void> {
  const present = await columnsOf(client, table);
  for (const column of columns) {
    if (present.has(column.name)) continue;
    try {
      await client.execute(`ALTER TABLE ${table} ADD COLUMN ${column.name} ${column.type}`);
    } catch (error) {
      // 18.16 has no ADD COLUMN IF NOT EXISTS: another node starting at the same time may have added it.
      if (!(await columnsOf(client, table)).has(column.name)) throw error;
    }
  }
}
