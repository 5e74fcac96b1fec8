// ClickHouse keeps each row's bounded text values (schema.ts, BOUNDED_TEXT_COLUMNS) also as small whole
// numbers, as the embedded store does (duckdb-codes.ts): a whole report groups by the numbers and names the
// groups afterwards (clickhouse-report.ts). 18.16 groups by a Nullable(String) key by copying each into an
// arena and hashing it; fixed-width keys take its faster hash methods.
//
// Several nodes write to one ClickHouse at once, so a value's number is issued by PostgreSQL
// (`columnar_codes`, migration 0044), the same for every node; a node keeps what it learnt. Readers (the
// report engine) read ClickHouse alone: a writer copies each number it learnt into ClickHouse's `codes`
// before it sends a row that carries it. 0 stands for no value (null) and is never issued.
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { ClickHouseClient } from './clickhouse-client.js';
import { CODED_COLUMNS, type CodedColumn, codeColumn, literal } from './clickhouse-sql.js';

/** The dictionary as ClickHouse holds it: ReplacingMergeTree, so a number copied twice is kept once. */
export const CODES_TABLE =
  'CREATE TABLE IF NOT EXISTS codes (code UInt32, name String, value String) ENGINE = ReplacingMergeTree ORDER BY code';

/** Values per statement (PostgreSQL takes at most 65,535 parameters). */
const ISSUED_AT_ONCE = 1_000;

/** The numbers PostgreSQL issues, and those this node has learnt, per column. */
export class CodeIssuer {
  private readonly known = new Map<string, Map<string, number>>();

  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The codes of `values` in column `name`, each issued if no node had it: inserted (a value several nodes
   * insert at once is inserted once), then read back. Values this node knows are not asked for.
   */
  async issue(name: CodedColumn, values: Iterable<string>): Promise<ReadonlyMap<string, number>> {
    let known = this.known.get(name);
    if (!known) {
      known = new Map();
      this.known.set(name, known);
    }
    const asked = new Set(values);
    const unknown = [...asked].filter((value) => !known.has(value));
    for (let at = 0; at < unknown.length; at += ISSUED_AT_ONCE) {
      const part = unknown.slice(at, at + ISSUED_AT_ONCE);
      // Read first: inserting a value held already would still take a number from the sequence.
      await this.learn(name, part, known);
      // In one order everywhere: two nodes inserting the same values in different orders would each
      // wait for the other's (PostgreSQL finds the deadlock and fails one).
      const missing = part.filter((value) => !known.has(value)).sort();
      if (missing.length === 0) continue;
      await this.db
        .insertInto('columnar_codes')
        .values(missing.map((value) => ({ name, value })))
        .onConflict((conflict) => conflict.columns(['name', 'value']).doNothing())
        .execute();
      await this.learn(name, missing, known);
      const lost = missing.find((value) => !known.has(value));
      if (lost !== undefined) throw new Error(`No code for ${name} ${JSON.stringify(lost).slice(0, 80)}`);
    }
    return new Map([...asked].map((value) => [value, known.get(value)!]));
  }

  private async learn(name: string, values: readonly string[], known: Map<string, number>): Promise<void> {
    const rows = await this.db
      .selectFrom('columnar_codes')
      .select(['code', 'value'])
      .where('name', '=', name)
      .where('value', 'in', values)
      .execute();
    for (const row of rows) known.set(row.value, Number(row.code));
  }
}

/** A writer's side: the issuer, and which numbers this store has copied into ClickHouse's `codes`. */
export class CodeWriter {
  private readonly copied = new Set<number>();

  constructor(readonly issuer: CodeIssuer) {}

  /** After the tables were (re)made or an insert failed: `codes` may have lost what was copied. */
  forget(): void {
    this.copied.clear();
  }

  /** Sets each row's code columns from its values, the new numbers copied into `codes` first. */
  async code(client: ClickHouseClient, rows: Record<string, unknown>[]): Promise<void> {
    const copy: { code: number; name: string; value: string }[] = [];
    for (const name of CODED_COLUMNS) {
      const text = (row: Record<string, unknown>) => {
        const value = row[name];
        return value === null || value === undefined ? null : String(value);
      };
      const values = new Set<string>();
      for (const row of rows) {
        const value = text(row);
        if (value !== null) values.add(value);
      }
      const codes = values.size > 0 ? await this.issuer.issue(name, values) : new Map<string, number>();
      for (const [value, code] of codes) if (!this.copied.has(code)) copy.push({ code, name, value });
      for (const row of rows) {
        const value = text(row);
        row[codeColumn(name)] = value === null ? 0 : codes.get(value)!;
      }
    }
    if (copy.length === 0) return;
    await client.insert('codes', ['code', 'name', 'value'], copy);
    for (const { code } of copy) this.copied.add(code);
  }
}

/**
 * The dictionary as a report reads it, once per report: each column's codes and values, and which numbers
 * up to the highest it lacks (taken from the sequence by a value inserted twice at once, or issued and not
 * yet copied into `codes`).
 */
export class CodeDictionary {
  private readonly byColumn = new Map<string, { codes: number[]; values: string[] }>();
  private readonly held = new Set<number>();
  private max = 0;

  static async load(client: ClickHouseClient): Promise<CodeDictionary> {
    const rows = await client.select(
      'SELECT code, any(name) AS name, any(value) AS value FROM codes GROUP BY code ORDER BY code',
    );
    const dictionary = new CodeDictionary();
    for (const row of rows) {
      const code = Number(row.code);
      const entries = dictionary.byColumn.get(String(row.name)) ?? { codes: [], values: [] };
      dictionary.byColumn.set(String(row.name), entries);
      entries.codes.push(code);
      entries.values.push(String(row.value));
      dictionary.held.add(code);
      dictionary.max = Math.max(dictionary.max, code);
    }
    return dictionary;
  }

  /** A column's codes, ascending, and their values. */
  entries(name: CodedColumn): { codes: readonly number[]; values: readonly string[] } {
    return this.byColumn.get(name) ?? { codes: [], values: [] };
  }

  /**
   * The condition that keeps the column's codes to 0 and those held here: a row sent after the dictionary
   * was read may carry a number it lacks, and is left to the next report rather than shown unnamed.
   */
  known(name: CodedColumn): string {
    const column = codeColumn(name);
    const own = this.entries(name).codes;
    const gaps = this.max - this.held.size;
    if (gaps === 0) return `${column} <= ${literal(this.max)}`;
    if (gaps <= own.length) {
      const missing: string[] = [];
      for (let code = 1; code < this.max; code += 1) if (!this.held.has(code)) missing.push(literal(code));
      return `${column} <= ${literal(this.max)} AND ${column} NOT IN (${missing.join(', ')})`;
    }
    return `${column} IN (${[0, ...own].map(literal).join(', ')})`;
  }
}
