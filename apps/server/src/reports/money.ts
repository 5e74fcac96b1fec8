// Issue 19: money masking. A user without `/tracker/reports/money` (Keitaro's "reports restrictions",
// Binom's column rights) gets reports, the dashboard's figures and the postback log without cost,
// revenue, profit, ROI, EPC or payouts: the keys are left out, not set to zero, so nothing reads a masked
// figure as a real zero. The routes apply these to the services' answers; the services stay unaware.

import {
  can,
  isMoneyMetric,
  MONEY_METRICS,
  type PermissionHolder,
  type PostbackLogEntry,
  type ReportResponse,
  type TReportQuery,
} from '@switchyard/domain';
import { ValidationError } from '../errors.js';

/** The postback parameters that carry the network's amount (the tracker's payout aliases). */
const AMOUNT_PARAMETERS = ['payout', 'revenue', 'sum'] as const;

export function seesMoney(actor: PermissionHolder): boolean {
  return can(actor, 'tracker', 'reports', 'money');
}

/**
 * A report without its money figures can neither be sorted by one (the order would tell them), nor by a
 * custom metric whose formula reads one (issue 20: `moneyKeys`).
 */
export function refuseMoneyOrder(query: Pick<TReportQuery, 'order_by'>, moneyKeys: readonly string[] = []): void {
  if (query.order_by && (isMoneyMetric(query.order_by) || moneyKeys.includes(query.order_by))) {
    throw new ValidationError({
      order_by: [`Sorting by ${query.order_by} needs the permission to see money (/tracker/reports/money).`],
    });
  }
}

function withoutMoney<T extends object>(figures: T, moneyKeys: readonly string[]): T {
  const copy = { ...figures } as Record<string, unknown>;
  for (const metric of [...MONEY_METRICS, ...moneyKeys]) delete copy[metric];
  return copy as T;
}

/** The report without money figures in its rows and totals, nor the custom metrics made of them. */
export function maskReport<T extends ReportResponse>(report: T, moneyKeys: readonly string[] = []): T {
  return {
    ...report,
    list: report.list.map((row) => withoutMoney(row, moneyKeys)),
    totals: withoutMoney(report.totals, moneyKeys),
  };
}

/** A postback log entry without the conversion's payout and revenue, nor the amount the network sent. */
export function maskPostbackLogEntry(entry: PostbackLogEntry): PostbackLogEntry {
  const raw: Record<string, string> = {};
  for (const [name, value] of Object.entries(entry.raw)) {
    if (!(AMOUNT_PARAMETERS as readonly string[]).includes(name.toLowerCase())) raw[name] = value;
  }
  if (!entry.conversion) return { ...entry, raw };
  const { payout: _payout, revenue: _revenue, ...conversion } = entry.conversion;
  return { ...entry, raw, conversion: conversion as PostbackLogEntry['conversion'] };
}

/** Drops any payout or revenue field of a list's entries (an outbound postback keeps its URL as sent). */
export function maskAmounts<T extends object>(entry: T): T {
  const copy = { ...entry } as Record<string, unknown>;
  for (const name of ['payout', 'revenue', 'cost', 'profit']) delete copy[name];
  return copy as T;
}
