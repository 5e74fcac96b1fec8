// What the cost models and report attribution need stored.
// - tracker_clicks.cost_flag: why an Auto-cost click costs 0 — its traffic source's cost parameter was
//   `missing` from the click URL or held an `invalid` value (not a number from 0 to 1,000,000); null
//   otherwise. A click is never refused for its cost: it is routed, and the flag says why it is free.
// - conversions.cost: what a CPA or RevShare conversion added to its click's cost while it is approved,
//   so that a rejection takes back exactly that, whatever the campaign's price is by then.
// - conversions.event_at: the time of the click (or lead) a conversion converts, so that reports can
//   count conversions at click time (the default) as well as at postback time (created_at), each read
//   through an index on (campaign, time).
import { readNetworkAmount } from '@switchyard/domain';
import type { Transaction } from 'kysely';
import { sql } from 'kysely';
import type { DatabaseDialect } from '../config.js';
import { originalCost, recordCostChanges } from './click-cost-changes.js';
import { applyRollupDeltas, costOnly, rollupDeltas } from './report-rollups.js';
import type { Database } from './schema.js';
import type { TrackerClickTable } from './tracker-events.js';

/** Why an Auto-cost click costs 0. */
export const COST_FLAGS = ['missing', 'invalid'] as const;
export type CostFlag = (typeof COST_FLAGS)[number];

/** The most one click may cost (a bigger value is a typo or an attack, flagged and counted as 0). */
export const MAX_CLICK_COST = 1_000_000;

/**
 * A click's cost read off its URL for the Auto model: an amount by the rule every amount a source or a
 * network sends is read by (readNetworkAmount: `1,000` reads two ways and is not taken as 1),
 * from 0 to MAX_CLICK_COST; else 0 with the reason it is not.
 */
export function autoCost(value: string | undefined): { cost: number; flag: CostFlag | null } {
  if (value === undefined || value === '') return { cost: 0, flag: 'missing' };
  const cost = readNetworkAmount(value);
  if (cost === undefined || !(cost >= 0 && cost <= MAX_CLICK_COST)) return { cost: 0, flag: 'invalid' };
  return { cost, flag: null };
}

/**
 * A click's conversion as moveConversion (conversions/move-conversion.ts) costs it: under CPA or RevShare
 * an approved conversion adds to the click's cost; under any other model (null) it adds nothing, and a
 * cost added before is taken back when the conversion leaves approved.
 */
export interface ConversionCost {
  model: 'CPA' | 'RevShare' | null;
  /** CPA: the price of one approved conversion; RevShare: the percent of its payout. */
  cost: number;
  /** The click converted (its bucket and dimensions are where the rollups move). */
  click: Pick<
    TrackerClickTable,
    | 'click_id'
    | 'created_at'
    | 'campaign_external_id'
    | 'flow_external_id'
    | 'path_group_id'
    | 'path_id'
    | 'offer_external_id'
    | 'lander_external_id'
    | 'traffic_source_external_id'
    | 'country'
    | 'device'
    | 'platform'
    | 'browser'
    | 'workspace_id'
  >;
}

/** What an approved conversion of `payout` costs under `model`, to the millionth. */
export function conversionCost({ model, cost }: Pick<ConversionCost, 'model' | 'cost'>, payout: number): number {
  if (model === null) return 0;
  const value = model === 'CPA' ? cost : (cost / 100) * payout;
  return Math.round(value * 1e6) / 1e6;
}

/**
 * Moves the click's cost by `delta` (what its conversions now add, less what they added), in the row and
 * in every cube row holding it, inside the conversion's transaction: reports from the cubes and from the
 * events agree.
 */
export async function moveClickCost(
  trx: Transaction<Database>,
  click: ConversionCost['click'],
  delta: number,
  dialect: DatabaseDialect,
): Promise<void> {
  if (delta === 0) return;
  await trx
    .updateTable('tracker_clicks')
    .set({ cost: sql`cost + ${delta}`, ...originalCost(dialect) })
    .where('click_id', '=', click.click_id)
    .execute();
  await recordCostChanges(trx, [{ click_id: click.click_id, cost: delta }]);
  const deltas = rollupDeltas<object, object>([{ ...click, cost: delta, is_unique: 0 }], []).map(costOnly);
  await applyRollupDeltas(trx, deltas);
}
