// Money masking. A user without `/tracker/reports/money` (Keitaro's "reports restrictions",
// Binom's column rights) gets reports, the dashboard's figures and the postback log without cost,
// revenue, profit, ROI, EPC or payouts: the keys are left out, not set to zero, so nothing reads a masked
// figure as a real zero. The routes apply withoutMoney to the services' answers (reports, events and
// their CSV export, the postback log, the live stream, replay and the inspector); the services stay
// unaware.

import {
  can,
  isMoneyMetric,
  MONEY_METRICS,
  PAYOUT_PARAMETERS,
  type PermissionHolder,
  type TReportQuery,
} from '@switchyard/domain';
import { ValidationError } from '../errors.js';

export function seesMoney(actor: PermissionHolder): boolean {
  return can(actor, 'tracker', 'reports', 'money');
}

/**
 * A report without its money figures can neither be sorted by one (the order would tell them), nor by a
 * custom metric whose formula reads one (`moneyKeys`).
 */
export function refuseMoneyOrder(query: Pick<TReportQuery, 'order_by'>, moneyKeys: readonly string[] = []): void {
  if (query.order_by && (isMoneyMetric(query.order_by) || moneyKeys.includes(query.order_by))) {
    throw new ValidationError({
      order_by: [`Sorting by ${query.order_by} needs the permission to see money (/tracker/reports/money).`],
    });
  }
}

/** Keys that carry an amount, wherever they sit in an answer (the report's money figures among them). */
const MONEY_KEYS: ReadonlySet<string> = new Set<string>(['payout', 'revenue', 'cost', 'profit', ...MONEY_METRICS]);

/**
 * Parameters of a network's raw postback that carry its amount: the names the tracker reads a payout
 * from (postback-rules.ts), and the usual others (a network's `amount`, `commission`, `aff_payout`...).
 */
const AMOUNT_NAME = /payout|revenue|amount|commission|profit|^(sum|cost|price)$/i;

export function isAmountParameter(name: string): boolean {
  return AMOUNT_NAME.test(name) || PAYOUT_PARAMETERS.includes(name.toLowerCase());
}

function withoutAmountParameters(raw: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).filter(([name]) => !isAmountParameter(name)));
}

/**
 * The one money mask. `value` (an answer, a page, a live message) without any money at any
 * depth: every money key left out (not zeroed, so nothing reads a masked figure as a real zero), and a
 * `raw` payload's amount parameters left out of it. `moneyKeys`: more keys to leave out, a report's
 * custom metrics made of money.
 */
export function withoutMoney<T>(value: T, moneyKeys: readonly string[] = []): T {
  const more = new Set(moneyKeys);
  const strip = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(strip);
    if (typeof item !== 'object' || item === null) return item;
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(item)) {
      if (MONEY_KEYS.has(key) || more.has(key)) continue;
      copy[key] =
        key === 'raw' && typeof child === 'object' && child !== null && !Array.isArray(child)
          ? withoutAmountParameters(child as Record<string, unknown>)
          : strip(child);
    }
    return copy;
  };
  return strip(value) as T;
}

/** `value` as `actor` may see it: whole with the money permission, else without money (withoutMoney). */
export function moneyFor<T>(actor: PermissionHolder, value: T): T {
  return seesMoney(actor) ? value : withoutMoney(value);
}
