// Migration 0039_rollup_bots, frozen: it imports only Kysely and the rollup backfill frozen with it
// (frozen/rollup-backfill.ts), so that a later change elsewhere never changes what it does.
import { type Migration, sql } from 'kysely';

import { type AnyDb, backfillRollups, type Dialect } from './frozen/rollup-backfill.js';

/**
 * Migration 0039's fill: the bot counts of rows that counted none, from the bot clicks alone (none
 * stored, nothing to read). Also how to repair them by hand: zero both columns, then run this.
 */
async function rollupBotsBackfill(db: AnyDb): Promise<void> {
  const bot = await sql`select 1 as found from tracker_clicks where is_bot = 1 limit 1`.execute(db);
  if (bot.rows.length > 0) await backfillRollups(db, true, 'only');
}

/**
 * 0039: each cube row counts, of its clicks and unique clicks, those with a bot verdict, so a
 * report can leave bots out. The rows already stored get their bots added from the events.
 */
export function rollupBotsMigration(dialect: Dialect): Migration {
  const count = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: AnyDb) {
      for (const name of ['bot_clicks', 'bot_unique_clicks']) {
        await db.schema
          .alterTable('report_rollups')
          .addColumn(name, count, (column) => column.notNull().defaultTo(0))
          .execute();
      }
      await rollupBotsBackfill(db);
    },
  };
}
