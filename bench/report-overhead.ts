// Part (b): each columnar report through the server beside the plain GROUP BY of the same clicks
// on the same engine (bench/plain-group-by.ts), and the ratio; the bar is 1.5×.
// - ClickHouse: the plain GROUP BY and the report's statement alone (ClickHouseStore.report) are sent by the
//   bench itself, in turns with the report over HTTP.
// - DuckDB: the server holds the store's file (one process at a time may open a DuckDB file), so the plain
//   GROUP BY is timed once the server has stopped, in the bench process on the same file with DuckDB's
//   default threads as the server's, in turns with the same report's statement alone
//   (DuckDBStore.report, no HTTP, no catch-up), which tells what the server adds from what the statement
//   costs.
import type { ReportGroup } from '@switchyard/domain';
import Database from 'better-sqlite3';
import pg from 'pg';
import { ClickHouseStore } from '../apps/server/src/columnar/clickhouse.js';
import { ClickHouseClient, parseClickHouseUrl } from '../apps/server/src/columnar/clickhouse-client.js';
import { DuckDBStore } from '../apps/server/src/columnar/duckdb.js';
import { nextDay, startOfLocalDay } from '../apps/server/src/report-plan/time.js';
import type { ConfigNames } from '../apps/server/src/reports/report-plans.js';
import { firstPagePlan, type PlainGroup, type PlainReport, plainClickhouse, plainDuckdb } from './plain-group-by.js';
import { ms, type TargetRow, table, verdict } from './support.js';

/** A columnar report takes at most this many times its plain GROUP BY. */
export const OVERHEAD_BAR = 1.5;

/** A columnar report of part (b), as the plain GROUP BY reads it. */
export interface ColumnarShape {
  label: string;
  groups: PlainGroup[];
  campaign?: string;
  timezone: string;
}

/** The report's range as service.ts makes it: local midnights from `from` to the day after `to`. */
export function plainReport(shape: ColumnarShape, from: string, to: string, workspace: number): PlainReport {
  return {
    groups: shape.groups,
    ...(shape.campaign ? { campaign: shape.campaign } : {}),
    from: startOfLocalDay(from, shape.timezone).toISOString(),
    to: startOfLocalDay(nextDay(to), shape.timezone).toISOString(),
    timezone: shape.timezone,
    workspace,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * ClickHouse, beside the running server (ClickHouse is a server of its own): each report's plain GROUP BY
 * and then its statement alone (ClickHouseStore.report on the first page, as the server plans it, no HTTP,
 * no catch-up), timed in turn before the report is asked through the server. `databaseUrl` gives the
 * campaigns' names, as the server labels them.
 */
export function clickhousePlain(
  url: string,
  databaseUrl: string,
): (shape: ColumnarShape, report: PlainReport) => Promise<{ elapsed: number; groups: number; statement: number }> {
  const client = new ClickHouseClient(parseClickHouseUrl(url));
  const store = new ClickHouseStore(client);
  let config: Promise<ConfigNames> | null = null;
  const names = async (): Promise<ConfigNames> => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    try {
      const { rows } = await pool.query<{ external_id: string; name: string }>(
        "select external_id, name from config_records where kind = 'tracker-campaigns'",
      );
      return {
        names: new Map([['campaign', new Map(rows.map((row) => [row.external_id, row.name]))]]),
        pathGroups: new Map(),
        paths: new Map(),
        offerNetworks: new Map(),
      };
    } finally {
      await pool.end();
    }
  };
  return async (shape, report) => {
    config ??= names();
    const began = performance.now();
    const [row] = await client.select(plainClickhouse(report));
    const elapsed = performance.now() - began;
    const paged = await pagedOf(shape, report, await config);
    const statementBegan = performance.now();
    await store.report(paged);
    return { elapsed, groups: Number(row?.groups ?? 0), statement: performance.now() - statementBegan };
  };
}

/** The first page of a report of part (b), planned as the server plans the bench's query (bots out, its default). */
function pagedOf(shape: ColumnarShape, report: PlainReport, config: ConfigNames) {
  const range = {
    from: report.from,
    to: report.to,
    timezone: report.timezone,
    attribution: 'click' as const,
    includeBots: false,
  };
  const narrowing = {
    vars: {},
    filters: shape.campaign ? { campaign: shape.campaign } : {},
    config: Promise.resolve(config),
    workspace: report.workspace,
  };
  return firstPagePlan(shape.groups as ReportGroup[], range, narrowing, config.names);
}

/** What one report measured: through the server, and (DuckDB) its statement alone; its plain GROUP BY. */
export interface Overhead {
  label: string;
  server: number;
  statement: number | null;
  plain: number;
  groups: number;
}

/**
 * DuckDB, the server stopped: each report's plain GROUP BY and its statement alone, in turns, one warm-up
 * and `runs` each. `sqliteFile` gives the campaigns' names, as the server labels them.
 */
export async function embeddedPlain(
  columnarFile: string,
  sqliteFile: string,
  shapes: readonly { shape: ColumnarShape; report: PlainReport }[],
  runs: number,
): Promise<{ statement: number; plain: number; groups: number }[]> {
  const sqlite = new Database(sqliteFile, { readonly: true });
  const names = new Map(
    (
      sqlite.prepare("select external_id, name from config_records where kind = 'tracker-campaigns'").all() as {
        external_id: string;
        name: string;
      }[]
    ).map((row) => [row.external_id, row.name]),
  );
  sqlite.close();
  const config: ConfigNames = {
    names: new Map([['campaign', names]]),
    pathGroups: new Map(),
    paths: new Map(),
    offerNetworks: new Map(),
  };
  const store = await DuckDBStore.open(columnarFile);
  // The store's own connection: the plain GROUP BY runs where the reports run.
  const connection = store['connection'];
  const results: { statement: number; plain: number; groups: number }[] = [];
  try {
    for (const { shape, report } of shapes) {
      const paged = await pagedOf(shape, report, config);
      const sql = plainDuckdb(report);
      const plainTimes: number[] = [];
      const statementTimes: number[] = [];
      let found = 0;
      for (let run = 0; run <= runs; run += 1) {
        let began = performance.now();
        const [row] = (await connection.runAndReadAll(sql)).getRowObjectsJS();
        const plain = performance.now() - began;
        found = Number(row?.groups ?? 0);
        began = performance.now();
        await store.report(paged);
        const statement = performance.now() - began;
        if (run > 0) {
          plainTimes.push(plain);
          statementTimes.push(statement);
        }
      }
      results.push({ statement: median(statementTimes), plain: median(plainTimes), groups: found });
    }
  } finally {
    await store.close();
  }
  return results;
}

/** Prints each report beside its plain GROUP BY and answers the targets (≤ OVERHEAD_BAR× each). */
export function overheadTargets(engine: string, measured: readonly Overhead[]): TargetRow[] {
  const rows = measured.map((entry) => [
    entry.label,
    ms(entry.server),
    entry.statement === null ? '—' : ms(entry.statement),
    ms(entry.plain),
    entry.groups.toLocaleString('en-US'),
    `${(entry.server / entry.plain).toFixed(2)}×`,
    entry.statement === null ? '—' : `${(entry.statement / entry.plain).toFixed(2)}×`,
  ]);
  console.log(
    `\nColumnar reports beside the plain GROUP BY of the same clicks on ${engine} (medians; bar ${OVERHEAD_BAR}×):\n${table(
      [
        'report',
        'through the server',
        'statement alone',
        'plain GROUP BY',
        'groups',
        'server ÷ plain',
        'statement ÷ plain',
      ],
      rows,
    )}`,
  );
  return measured.map((entry) => [
    `report ${entry.label} ≤ ${OVERHEAD_BAR}× its plain GROUP BY on ${engine}`,
    `${(entry.server / entry.plain).toFixed(2)}× (${ms(entry.server)} / ${ms(entry.plain)})`,
    verdict(entry.server <= OVERHEAD_BAR * entry.plain),
  ]);
}

export { median };
