// The one place a report's sources are put together: the rollups and the event tables over the engine's
// connection, and the columnar store the engine opened (DuckDB on SQLite, ClickHouse on PostgreSQL), with
// what each can do as a report starts (chooseSource reads it).
import type { Kysely } from 'kysely';
import type { ColumnarReader } from '../../report-plan/columnar-reader.js';
import type { Database } from '../../store/schema.js';
import type { SourceCapabilities } from './choose.js';
import { columnarSource } from './columnar.js';
import { eventsSource } from './events.js';
import { rollupsSource } from './rollups.js';
import type { ReportSource, SourceName } from './source.js';

export interface SourceOptions {
  /** `false` reads every figure from the events (tests compare the ways). */
  rollups?: boolean;
  /** The columnar store, when one is set up. */
  columnar?: ColumnarReader;
}

export interface ReportSources {
  /** Each source by its name; a columnar store's only when one is set up. */
  get(name: SourceName): ReportSource;
  /** What the sources can do now: a columnar store's readiness changes as it catches up. */
  capabilities(): SourceCapabilities;
}

export function reportSources(db: Kysely<Database>, options: SourceOptions = {}): ReportSources {
  const { columnar } = options;
  const list: ReportSource[] = [rollupsSource(db), eventsSource(db), ...(columnar ? [columnarSource(columnar)] : [])];
  const byName = new Map(list.map((source) => [source.name, source]));
  return {
    get(name) {
      const source = byName.get(name);
      if (!source) throw new Error(`no report source ${name} is set up`);
      return source;
    },
    capabilities: () => ({
      rollups: options.rollups !== false,
      columnar: columnar
        ? {
            name: columnar.kind,
            ready: columnar.ready,
            conversions: columnar.conversions === true,
            pages: columnar.report !== undefined,
          }
        : null,
    }),
  };
}
