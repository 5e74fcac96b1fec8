// A rate is refused when converting an amount the tracker holds or may be sent (a conversion's
// payout or revenue, an offer's payout, the largest payout a postback may carry) between its currency
// and any other rated one could give an amount too large to keep. A rate of 1e-300 once turned one
// legitimate postback into a payout of Infinity, and every report total of its workspace into null.
import { MAX_POSTBACK_PAYOUT } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../store/schema.js';
import { type Scope, scopeCondition } from '../../store/scope.js';

/** Every workspace's amounts: a rate is the instance's, and converts them all. */
const INSTANCE: Scope = { instance: true };

/** Amounts are rounded to millionths by multiplying first (traffic/postback.ts). */
const ROUNDING = 1e6;
/** Room left for reports to add up a billion such amounts without reaching infinity. */
const SUM_HEADROOM = 1e9;
/** Filters out stored non-finite values (PostgreSQL's Infinity and NaN, SQLite's Inf): they convert nothing. */
const FINITE_LIMIT = 1e308;

/** The largest absolute amount the tracker may convert: stored ones, and what a postback may send. */
export async function largestConvertibleAmount(db: Kysely<Database>): Promise<number> {
  let largest = MAX_POSTBACK_PAYOUT;
  for (const column of ['payout', 'revenue'] as const) {
    const row = await db
      .selectFrom('conversions')
      .select(sql<number | string | null>`max(abs(${sql.ref(column)}))`.as('largest'))
      .where(scopeCondition(INSTANCE, 'workspace_id'))
      .where(column, '<', FINITE_LIMIT)
      .where(column, '>', -FINITE_LIMIT)
      .executeTakeFirst();
    const value = Number(row?.largest ?? 0);
    if (Number.isFinite(value)) largest = Math.max(largest, value);
  }
  const offers = await db
    .selectFrom('config_records')
    .select('body')
    .where(scopeCondition(INSTANCE, 'workspace_id'))
    .where('kind', 'in', ['offers', 'tracker-offers'])
    .execute();
  for (const { body } of offers) {
    try {
      const payout = Number((JSON.parse(body) as { payout?: unknown }).payout);
      if (Number.isFinite(payout)) largest = Math.max(largest, Math.abs(payout));
    } catch {
      // A body that does not read has no payout to convert.
    }
  }
  return largest;
}

/**
 * The indexes of `entries` whose rate, against the other rates as they would be (`after`, by code),
 * could turn `amount` into a non-finite value when converted either way.
 */
export function overflowingRates(
  entries: readonly { code: string; rate: number }[],
  after: ReadonlyMap<string, number>,
  amount: number,
): number[] {
  const overflowing: number[] = [];
  entries.forEach((entry, index) => {
    const others = [...after].filter(([code]) => code !== entry.code).map(([, rate]) => rate);
    if (others.length === 0) return;
    const factor = Math.max(entry.rate / Math.min(...others), Math.max(...others) / entry.rate);
    if (!Number.isFinite(amount * factor * ROUNDING * SUM_HEADROOM)) overflowing.push(index);
  });
  return overflowing;
}
