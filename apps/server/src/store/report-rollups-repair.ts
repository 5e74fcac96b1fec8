// The report rollups filled again from the stored events: how to repair them by hand (DEVELOPERS.md,
// "Report rollups"). Migrations keep frozen copies of their own (migrations/frozen/rollup-backfill.ts), so
// this one may follow the rollups as they are now.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { CUBES, DIMENSION_COLUMNS, FIGURES, FIGURES_0039, KEY_COLUMNS, KEYS, NO_VALUE } from './report-rollups.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** The figures of each cube row before migration 0039 (what migrations 0006 and 0023 write). */
export const FIGURES_0006 = ['clicks', 'unique_clicks', 'cost', 'leads'] as const;

/**
 * Fills every cube from the stored events (after the migration that adds them). `byWorkspace`: the
 * rollups and events of migration 0023 on, which keep each event's workspace. `bots` (migration 0039 on):
 * `with` fills the bot counts too; `only` adds the bot counts alone to the rows already there (each bot
 * click was counted in its row's clicks, so only those columns move).
 */
export async function backfillRollups(
  db: AnyDb,
  byWorkspace = true,
  bots: 'without' | 'with' | 'only' | 'landers' = 'without',
): Promise<void> {
  // The quarter-hour or day of created_at, in both dialects.
  const day = sql`substr(created_at, 1, 10)`;
  const quarter = sql`substr(created_at, 1, 14) || case
      when substr(created_at, 15, 2) < '15' then '00'
      when substr(created_at, 15, 2) < '30' then '15'
      when substr(created_at, 15, 2) < '45' then '30'
      else '45' end`;
  // `only` runs in migration 0039, before the lp columns of 0040 exist.
  const names =
    bots === 'without'
      ? FIGURES_0006
      : bots === 'only'
        ? FIGURES_0039
        : bots === 'landers'
          ? (['lander_clicks', 'bot_lander_clicks'] as const)
          : FIGURES;
  const columns = [...(byWorkspace ? KEYS : KEYS.slice(1)), ...names];
  const summed = names.map((name) => sql`sum(${sql.ref(name)})`);
  const added = names.map((name) => sql.raw(`${name} = report_rollups.${name} + excluded.${name}`));
  for (const { id, dimensions, grain } of CUBES) {
    const bucket = grain === 'day' ? day : quarter;
    const quarters = CUBES.find((cube) => cube.grain === 'quarter' && cube.id === id.replace(/\/day$/, ''));
    // `only` and `landers` add to rows already there: each cube from the events.
    if (byWorkspace && grain === 'day' && quarters && bots !== 'only' && bots !== 'landers') {
      // Folded from its quarter-hour cube, filled just before (CUBES lists it first), as rollupDeltas folds
      // them: a read of the cube's rows rather than of every event.
      await sql`insert into report_rollups (${sql.raw(columns.join(', '))})
        select workspace_id, ${id}, substr(bucket, 1, 10), k1, k2, ${sql.join(summed)}
        from report_rollups where cube = ${quarters.id}
        group by workspace_id, substr(bucket, 1, 10), k1, k2`.execute(db);
      continue;
    }
    for (const table of ['tracker_clicks', 'tracker_leads'] as const) {
      if ((bots === 'only' || bots === 'landers') && table === 'tracker_leads') continue;
      // Each key: its column (null turned into NO_VALUE), or NO_VALUE where the cube or table has none
      // (leads have no lander). Literals, not parameters: PostgreSQL matches a selected expression to its
      // GROUP BY text, two parameters are two expressions to it, and it refuses constants in GROUP BY.
      const keyColumns = KEY_COLUMNS.map((_, index) => {
        const dimension = dimensions[index];
        if (!dimension || (table === 'tracker_leads' && dimension === 'lander')) return null;
        return sql`coalesce(${sql.ref(DIMENSION_COLUMNS[dimension])}, ${sql.lit(NO_VALUE)})`;
      });
      const keys = keyColumns.map((column) => column ?? sql.lit(NO_VALUE));
      const workspace = sql`coalesce(${sql.ref('workspace_id')}, 0)`;
      const grouped = [...(byWorkspace ? [workspace] : []), bucket, ...keyColumns.filter((column) => column !== null)];
      const botFigures =
        bots === 'without' || bots === 'landers'
          ? sql``
          : table === 'tracker_clicks'
            ? sql`, coalesce(sum(is_bot), 0), coalesce(sum(is_bot * is_unique), 0)${bots === 'with' ? LP_SUMS : sql``}`
            : bots === 'with'
              ? sql`, 0, 0, 0, 0, 0, 0`
              : sql`, 0, 0`;
      const figures =
        bots === 'landers'
          ? sql`count(*), coalesce(sum(is_bot), 0)`
          : bots === 'only'
            ? sql`0, 0, 0, 0`
            : table === 'tracker_clicks'
              ? sql`count(*), coalesce(sum(is_unique), 0), coalesce(sum(cost), 0), 0`
              : sql`0, 0, 0, count(*)`;
      await sql`insert into report_rollups (${sql.raw(columns.join(', '))})
        select ${byWorkspace ? sql`${workspace}, ` : sql``}${id}, ${bucket}, ${sql.join(keys)}, ${figures}${botFigures}
        from ${sql.table(table)}
        where ${bots === 'only' ? sql`is_bot = 1` : bots === 'landers' ? sql`lander_external_id is not null` : sql`true`}
        group by ${sql.join(grouped)}
        on conflict (${sql.raw(byWorkspace ? KEYS.join(', ') : 'cube, bucket, k1, k2')}) do update set
          ${sql.join(added)}`.execute(db);
    }
  }
}

/** Clicks' lp and lander counts (lp_clicks, bot_lp_clicks, lander_clicks, bot_lander_clicks) summed, as rollupDeltas counts them. */
const LP_SUMS = sql`, coalesce(sum(case when lp_clicked_at is null then 0 else 1 end), 0),
  coalesce(sum(case when lp_clicked_at is null then 0 else is_bot end), 0),
  coalesce(sum(case when lander_external_id is null then 0 else 1 end), 0),
  coalesce(sum(case when lander_external_id is null then 0 else is_bot end), 0)`;

/**
 * Migration 0039's fill: the bot counts of rows that counted none, from the bot clicks alone (none
 * stored, nothing to read). Also how to repair them by hand: zero both columns, then run this.
 */
export async function rollupBotsBackfill(db: AnyDb): Promise<void> {
  const bot = await sql`select 1 as found from tracker_clicks where is_bot = 1 limit 1`.execute(db);
  if (bot.rows.length > 0) await backfillRollups(db, true, 'only');
}
