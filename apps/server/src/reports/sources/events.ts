// The event tables as a report source: each table's plan as SQL (render-sql.ts), on SQLite or PostgreSQL.
// Always there, and always exact: the source every other one is compared with.
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { aggregateEvents } from '../render-sql.js';
import type { ReportSource } from './source.js';

export function eventsSource(db: Kysely<Database>): ReportSource {
  return {
    name: 'events',
    aggregate: ({ plan }) => aggregateEvents(db, plan),
  };
}
