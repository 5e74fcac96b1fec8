// ClickHouse over its HTTP interface (port 8123) with Node's fetch, as Debian's 18.16 and
// current releases both serve it. `CLICKHOUSE_URL` is `http://user:password@host:8123/database`.

/** Where the store's database is, and who it is read and written as. */
export interface ClickHouseTarget {
  /** The server's base address, without credentials or path (`http://host:8123`). */
  endpoint: string;
  user: string | null;
  password: string;
  database: string;
}

/**
 * A database name is written into `CREATE DATABASE`, so it is held to plain identifier characters rather
 * than quoted.
 */
const DATABASE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function parseClickHouseUrl(url: string): ClickHouseTarget {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`CLICKHOUSE_URL must be http:// or https://, not ${parsed.protocol}`);
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\/+|\/+$/g, '')) || 'default';
  if (!DATABASE_NAME.test(database)) {
    throw new Error(`CLICKHOUSE_URL names the database "${database}": use letters, digits and _ only`);
  }
  return {
    endpoint: `${parsed.protocol}//${parsed.host}`,
    user: parsed.username ? decodeURIComponent(parsed.username) : null,
    password: decodeURIComponent(parsed.password),
    database,
  };
}

export class ClickHouseError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ClickHouseError';
  }
}

/** Longer queries are refused by the server's parser unless `max_query_size` is raised for them. */
const DEFAULT_MAX_QUERY_SIZE = 262_144;

/** The bytes of a server error worth showing: its message, not a megabyte of echoed query. */
const ERROR_SHOWN = 2_000;

const STALE_CONNECTION = new Set(['EPIPE', 'ECONNRESET', 'UND_ERR_SOCKET']);

function causeCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return cause?.code;
}

/**
 * The server closes idle kept-alive connections (after 3 s on 18.16), and one closed while the event loop
 * was busy is only found dead when written to — several, when the pool kept several. Each is tried in
 * turn: every statement here may run twice (inserts count a row key once, DDL is IF NOT EXISTS).
 */
async function sendFresh(send: () => Promise<Response>): Promise<Response> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await send();
    } catch (error) {
      if (attempt >= STALE_ATTEMPTS || !STALE_CONNECTION.has(causeCode(error) ?? '')) throw error;
    }
  }
}

const STALE_ATTEMPTS = 4;

export interface JsonAnswer {
  data: Record<string, unknown>[];
  totals?: Record<string, unknown>;
  rows_before_limit_at_least?: number;
}

export class ClickHouseClient {
  private readonly authorization: string | null;

  constructor(readonly target: ClickHouseTarget) {
    // Basic auth: 18.16 and current releases both take it (and X-ClickHouse-User/Key), and it keeps the
    // password out of the address.
    this.authorization =
      target.user === null ? null : `Basic ${Buffer.from(`${target.user}:${target.password}`).toString('base64')}`;
  }

  /**
   * Runs one statement. `inDatabase` false for statements that must run before the database exists.
   * `body` (an INSERT's rows) follows the statement, which then goes in the address.
   */
  async execute(statement: string, { inDatabase = true, body }: { inDatabase?: boolean; body?: string } = {}) {
    const params = new URLSearchParams();
    if (inDatabase) params.set('database', this.target.database);
    // The whole answer is computed before it is sent, so an error comes back as an error status and
    // never after a 200 with half an answer.
    params.set('wait_end_of_query', '1');
    let payload: string;
    if (body === undefined) {
      const size = Buffer.byteLength(statement);
      if (size >= DEFAULT_MAX_QUERY_SIZE) params.set('max_query_size', String(size + 1));
      payload = statement;
    } else {
      params.set('query', statement);
      payload = body;
    }
    const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
    if (this.authorization) headers.authorization = this.authorization;
    const send = () => fetch(`${this.target.endpoint}/?${params}`, { method: 'POST', headers, body: payload });
    let response: Response;
    try {
      response = await sendFresh(send);
    } catch (error) {
      const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : error;
      throw new ClickHouseError(`ClickHouse at ${this.target.endpoint} is not reachable (${cause})`, 0);
    }
    const text = await response.text();
    if (!response.ok) {
      throw new ClickHouseError(
        `ClickHouse answered ${response.status}: ${text.slice(0, ERROR_SHOWN).trim()}`,
        response.status,
      );
    }
    return text;
  }

  /** The rows of a SELECT (sent with `FORMAT JSON`): 64-bit integers arrive as numeric strings. */
  async select(statement: string): Promise<Record<string, unknown>[]> {
    return (await this.answer(statement)).data;
  }

  /** A SELECT's whole answer: its rows, and `WITH TOTALS`' row and the rows before its LIMIT when asked. */
  async answer(statement: string): Promise<JsonAnswer> {
    return JSON.parse(await this.execute(`${statement}\nFORMAT JSON`)) as JsonAnswer;
  }

  /** Rows sent as the body of `INSERT … FORMAT JSONEachRow`: the data never enters the SQL text. */
  async insert(table: string, columns: readonly string[], rows: readonly Record<string, unknown>[]): Promise<void> {
    if (rows.length === 0) return;
    let body = '';
    for (const row of rows) body += `${JSON.stringify(row)}\n`;
    await this.execute(`INSERT INTO ${table} (${columns.join(', ')}) FORMAT JSONEachRow`, { body });
  }

  /** Whether the server answers `/ping`. */
  async ping(): Promise<boolean> {
    try {
      const response = await fetch(`${this.target.endpoint}/ping`);
      return response.ok && (await response.text()).trim() === 'Ok.';
    } catch {
      return false;
    }
  }
}
