// A current ClickHouse in the test process: the npm package chdb (ClickHouse 26.7, in-process), behind the
// same client the ClickHouse store uses over HTTP (columnar/clickhouse-client.ts), so that every statement
// the store sends to Debian's 18.16 is also run by a current release. Tests only: the server talks HTTP.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Session } from 'chdb';
import { ClickHouseClient, ClickHouseError } from '../src/columnar/clickhouse-client.js';
import { announce, describeNeeding, type Service } from './services.js';

/** chdb's module, or why it did not load (its native library comes as an optional dependency). */
const loaded: { chdb: typeof import('chdb') } | { error: string } = await import('chdb').then(
  (chdb) => ({ chdb }),
  (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
);

const chdbService: Service = {
  missing: 'chdb (ClickHouse in-process) did NOT load',
  problem: 'error' in loaded ? loaded.error : null,
  suites: 'the ClickHouse-26 compatibility tests',
  fix: 'Run `npm ci` (it installs chdb).',
};
announce(chdbService);

/** Runs the suite with chdb; without it, skipped loudly, or under CI=true failed. */
export const onChdb = describeNeeding(chdbService, 'chdb');

/** Longer statements need `max_query_size` raised, as the HTTP client raises it per request. */
const DEFAULT_MAX_QUERY_SIZE = 262_144;

/**
 * The ClickHouse client's statements run by chdb's session instead of sent over HTTP: the same `execute`
 * (an INSERT's rows follow its statement, as the HTTP body does), so `select`, `answer` and `insert` are
 * the client's own. A refusal is a ClickHouseError, as a server's 4xx/5xx is.
 */
export class ChdbClient extends ClickHouseClient {
  private constructor(
    private readonly session: Session,
    private readonly directory: string,
    database: string,
  ) {
    super({ endpoint: 'chdb:', user: null, password: '', database });
  }

  /** A session of its own in a temporary directory, on database `database` (created by the store). */
  static async open(database: string): Promise<ChdbClient> {
    if ('error' in loaded) throw new Error(`chdb did not load: ${loaded.error}`);
    const directory = await mkdtemp(path.join(tmpdir(), 'switchyard-chdb-'));
    // As the HTTP interface answers: 64-bit integers in JSON as strings.
    const session = new loaded.chdb.Session(directory, {
      connectionArgs: ['--output_format_json_quote_64bit_integers=1'],
    });
    return new ChdbClient(session, directory, database);
  }

  /** The server's version, e.g. 26.7.2.1. */
  version(): Promise<string> {
    return this.execute('SELECT version()', { inDatabase: false }).then((text) => text.trim());
  }

  override async execute(
    statement: string,
    { inDatabase = true, body }: { inDatabase?: boolean; body?: string } = {},
  ): Promise<string> {
    const run = async (query: string) => (await this.session.queryAsync(query, { format: 'TabSeparated' })).text();
    try {
      if (inDatabase) await run(`USE ${this.target.database}`);
      const size = Buffer.byteLength(statement);
      if (size >= DEFAULT_MAX_QUERY_SIZE) await run(`SET max_query_size = ${size + 1}`);
      return await run(body === undefined ? statement : `${statement}\n${body}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ClickHouseError(`ClickHouse (chdb) refused: ${message.slice(0, 2_000)}`, 500);
    }
  }

  override async ping(): Promise<boolean> {
    return this.session.open;
  }

  async close(): Promise<void> {
    this.session.close();
    await rm(this.directory, { recursive: true, force: true });
  }
}
