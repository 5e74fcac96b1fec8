// A campaign's cost set after the fact (the traffic source's invoice). The total cost of the
// campaign's clicks over a range of local days — of one parameter value, if asked — becomes exactly the
// amount given, spread evenly over those clicks — the human ones: a click with a bot verdict
// costs nothing of it. The report rollups hold the clicks' cost per bucket, so
// each bucket's cost moves by what its clicks' cost moved, in the same transaction: a report read from
// the cubes agrees with one read from the events, before and after.
import { COST_FILTER_KEYS, type TCostUpdate } from '@switchyard/domain';
import type { ExpressionBuilder, Kysely, SelectExpression } from 'kysely';
import { NotFoundError, ValidationError } from '../errors.js';
import { nextDay, startOfLocalDay } from '../report-plan/time.js';
import { bulkTransaction } from '../store/bulk-transaction.js';
import { originalCost, recordCostChanges } from '../store/click-cost-changes.js';
import type { Store } from '../store/database.js';
import {
  applyRollupDeltas,
  costOnly,
  DIMENSION_COLUMNS,
  type RollupDelta,
  rollupDeltas,
} from '../store/report-rollups.js';
import type { Database } from '../store/schema.js';
import { type Scope, scopeCondition } from '../store/scope.js';
import { freshStatistics } from '../store/statistics.js';
import { STEP, sortInTurns, turn } from './turns.js';

/** Costs are stored to the millionth: each click gets amount / N so rounded, the remainder on the last. */
export const MICROS = 1_000_000;

/** Ids per UPDATE … WHERE id IN (…): well under SQLite's and PostgreSQL's parameter limits. */
const ID_CHUNK = 900;

export const NO_CLICKS_MESSAGE = 'No clicks in this range';

/** Each click's share of `amount`, in millionths: equal shares, the rounding remainder on the last click. */
export function spread(amount: number, count: number): number[] {
  const total = Math.round(amount * MICROS);
  const share = Math.floor(total / count);
  const shares = new Array<number>(count).fill(share);
  shares[count - 1] = total - share * (count - 1);
  return shares;
}

/** Whether a click read for a cost update has a bot verdict (it gets no share of the amount). */
export function isBot(click: Record<string, unknown>): boolean {
  return Number(click.is_bot) === 1;
}

/** The tracker campaign `externalId` of the workspace, or a 404. */
export async function campaignOf(db: Kysely<Database>, workspaceId: number, externalId: string) {
  const campaign = await db
    .selectFrom('config_records')
    .select(['external_id', 'name'])
    .where('kind', '=', 'tracker-campaigns')
    .where('workspace_id', '=', workspaceId)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
  if (!campaign) throw new NotFoundError();
  return campaign;
}

/**
 * Clicks read per page, with a turn of the event loop between pages (and between writes): a page of 5,000
 * held it for 23–28 ms on SQLite.
 */
const PAGE = 1_000;

/** A click as a cost update reads it. */
type Click = { id: number; click_id: string; created_at: string; cost: number; is_unique: number } & Record<
  string,
  unknown
>;

/** What a click's cost move needs: its figures and its cubes' dimensions. */
const MOVED_COLUMNS = [
  'id',
  'click_id',
  'created_at',
  'cost',
  'is_unique',
  'is_bot',
  'workspace_id',
  ...Object.values(DIMENSION_COLUMNS),
] as const;

/** The last click a page read: the next page starts after it in the campaign index's order. */
export type ClickCursor = { at: string; id: number };

/**
 * A page's clicks from `from` on, after `after` in the order (created_at, id) of the campaign's index.
 * One lower bound, the page's own: given two, SQLite bounds its index scan by the range's start, and every
 * page would read the range again up to where it begins.
 */
export function clicksAfter(
  eb: ExpressionBuilder<Database, 'tracker_clicks'>,
  from: string,
  after: ClickCursor | null,
) {
  if (!after) return eb('created_at', '>=', from);
  return eb.and([eb('created_at', '>=', after.at), eb.or([eb('created_at', '>', after.at), eb('id', '>', after.id)])]);
}

/**
 * Sets the cost of the campaign's clicks in the range (and filter) to `input.amount` in total; answers
 * how many clicks changed. No clicks in the range: a 400 on `start`, since nothing could be set.
 */
export async function updateCampaignCost(
  store: Store,
  campaignExternalId: string,
  input: TCostUpdate,
  /** Whose clicks; the campaign's workspace, or the instance's for the engine's own work. */
  scope: Scope,
  /** Makes the change durable off the event loop (the engine's); see bulkTransaction. */
  durable?: () => Promise<void>,
): Promise<number> {
  const from = startOfLocalDay(input.start, input.timezone).toISOString();
  const to = startOfLocalDay(nextDay(input.end), input.timezone).toISOString();
  await freshStatistics(store, 'tracker_clicks');
  return bulkTransaction(
    store,
    async (trx) => {
      // The clicks in the order of the campaign's index (created_at, then id), a page at a time, each page
      // after the last click read: a page is the next PAGE entries of that index. In id order each page
      // sorted every click left in the range, and SQLite's synchronous driver held the clicks up for seconds.
      async function* pages<C extends SelectExpression<Database, 'tracker_clicks'>>(
        columns: readonly C[],
        lock: boolean,
      ) {
        for (let after: ClickCursor | null = null; ; ) {
          let query = trx
            .selectFrom('tracker_clicks')
            .select(columns)
            .where(scopeCondition(scope, 'workspace_id'))
            .where('campaign_external_id', '=', campaignExternalId)
            .where((eb) => clicksAfter(eb, from, after))
            .where('created_at', '<', to);
          for (const key of COST_FILTER_KEYS) {
            const value = input.filter[key];
            if (value !== undefined) query = query.where(key, '=', value);
          }
          query = query.orderBy('created_at').orderBy('id').limit(PAGE);
          // SQLite's transaction holds the write lock from its start (BEGIN IMMEDIATE); PostgreSQL locks the rows.
          const page = (await (lock && store.dialect === 'postgres' ? query.forUpdate() : query).execute()) as Click[];
          yield page;
          if (page.length < PAGE) return;
          const last = page[page.length - 1]!;
          after = { at: last.created_at, id: Number(last.id) };
          await turn();
        }
      }

      // First each click's id and verdict: how many share the amount. Then the clicks again, a page at a
      // time, each page's costs set, recorded and summed into the cubes' deltas before the next is read:
      // a million clicks held until the end made collections of tens of milliseconds, each a wait for clicks.
      const ids: number[] = [];
      let humans = 0;
      for await (const page of pages(['id', 'created_at', 'is_bot'], true)) {
        for (const click of page) {
          ids.push(Number(click.id));
          if (!isBot(click)) humans += 1;
        }
      }
      if (humans === 0) throw new ValidationError({ start: [NO_CLICKS_MESSAGE] }, NO_CLICKS_MESSAGE);

      // Each human click's share (the last one's with the rounding remainder, as spread() gives them).
      const total = Math.round(input.amount * MICROS);
      const share = Math.floor(total / humans);
      const sums = new CostDeltaSums();
      let position = 0;
      let human = 0;
      for await (const page of pages(MOVED_COLUMNS, false)) {
        // Ids grouped by their new cost (bots' clicks 0), and the clicks whose cost moves.
        const byCost = new Map<number, number[]>();
        const moves: Click[] = [];
        for (const click of page) {
          // A click written since the first reading (PostgreSQL locks the rows it read, not the range) is not
          // one of those the amount was shared by.
          if (ids[position] !== Number(click.id)) continue;
          position += 1;
          const bot = isBot(click);
          if (bot && Number(click.cost) === 0) continue;
          if (!bot) human += 1;
          const cost = bot ? 0 : (human === humans ? total - share * (humans - 1) : share) / MICROS;
          let group = byCost.get(cost);
          if (!group) {
            group = [];
            byCost.set(cost, group);
          }
          group.push(click.id);
          // The click read now carries what its cost moved by.
          click.cost = cost - Number(click.cost);
          moves.push(click);
        }
        for (const [cost, group] of byCost) {
          for (let start = 0; start < group.length; start += ID_CHUNK) {
            await trx
              .updateTable('tracker_clicks')
              .set({ cost, ...originalCost(store.dialect) })
              .where('id', 'in', group.slice(start, start + ID_CHUNK))
              .execute();
            await turn();
          }
        }
        // Each click's change, for the columnar store.
        await recordCostChanges(trx, moves, turn);
        await sums.add(moves);
      }
      // Never so: the rows read first are locked (the write lock, or each row's) until the commit.
      if (position !== ids.length) throw new Error(`${ids.length - position} clicks went while their cost was set`);
      await applyRollupDeltas(trx, await sums.rows(), turn);
      return humans;
    },
    durable,
  );
}

/**
 * Clicks whose cube deltas are made and summed between two turns: a click in a quarter-hour of its own
 * makes a row in every cube, so these pages are smaller than the clicks' (bench/README.md).
 */
const DELTAS_PAGE = 250;

/**
 * What the clicks' cost moved, per cube row (the cost alone: the clicks are still counted once), each
 * row's deltas added together as moves are added, in the order rollupDeltas gives (workspace, cube,
 * bucket, k1, k2) so that concurrent writers lock rows alike. Summed a few clicks at a time with a turn
 * between: a million clicks' deltas summed in one go held the clicks up for a second.
 */
export class CostDeltaSums {
  private readonly merged = new Map<string, RollupDelta>();

  async add(moves: readonly Record<string, unknown>[]): Promise<void> {
    for (let start = 0; start < moves.length; start += DELTAS_PAGE) {
      await turn();
      for (const delta of rollupDeltas(moves.slice(start, start + DELTAS_PAGE), [])) {
        // Ordered as the fields are (a workspace id padded to be ordered as a number; NUL sorts first).
        const key = `${String(delta.workspace_id).padStart(16, '0')}\u0000${delta.cube}\u0000${delta.bucket}\u0000${delta.k1}\u0000${delta.k2}`;
        const found = this.merged.get(key);
        if (found) found.cost += delta.cost;
        else this.merged.set(key, costOnly(delta));
      }
    }
  }

  /** The rows, ordered. Sorted as strings (a comparator reading each row's fields was one long pause), in turns. */
  async rows(): Promise<RollupDelta[]> {
    const keys = await sortInTurns([...this.merged.keys()]);
    const rows: RollupDelta[] = [];
    for (const key of keys) {
      rows.push(this.merged.get(key)!);
      if (rows.length % STEP === 0) await turn();
    }
    return rows;
  }
}

/** The summed cube deltas of `moves` (CostDeltaSums), in order. */
export async function costDeltas(moves: readonly Record<string, unknown>[]): Promise<RollupDelta[]> {
  const sums = new CostDeltaSums();
  await sums.add(moves);
  return sums.rows();
}
