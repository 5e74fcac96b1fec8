// A report's figures (§Figures below) from the counts each group adds up, and the workspace's custom
// metrics computed from them.
//
// Figures (every division by zero gives 0):
// - clicks: rows of tracker_clicks without a bot verdict, or every row with `include_bots`;
// - unique_clicks: those clicks flagged unique (the visitor's first on the campaign in its window);
// - bot_clicks: rows of tracker_clicks with a bot verdict (is_bot = 1), whatever `include_bots` says;
// - lp_clicks: those clicks (bots' with `include_bots` only) whose visitor followed their lander's offer
//   link (lp_clicked_at set, once per click); lp_ctr: lp_clicks / those clicks sent to a lander × 100;
// - leads: rows of tracker_leads (the API side's entries);
// - conversions: conversion rows whose postback event counts as a conversion (is_conversion = 1) and
//   whose state is pending or approved — a rejected conversion no longer counts;
// - approved, pending, rejected: the conversion rows (is_conversion = 1) in that state;
// - revenue: the payout, after the campaign's payout rules, of every conversion row not rejected
//   (pending and approved; rows whose event is not a conversion included);
// - revenue_confirmed: the payout of the approved rows only;
// - cost: every click's cost, bots' included (they were routed and may have cost money);
// - profit: revenue − cost;
// - roi: profit / cost × 100;
// - roi_confirmed: (revenue_confirmed − cost) / cost × 100;
// - cr: conversions / (clicks + leads) × 100 — a campaign has clicks (tracker) or leads (API), not both;
// - epc: revenue / (clicks + leads);
// - cpc: cost / (clicks + leads);
// - cpa: cost / conversions.
// Conversions are counted, in the state they are in now, at their click's (or lead's) time (event_at) —
// the default, as the traffic source bills the click — or with `attribution=postback` at their first
// postback's (created_at), as the network's own statistics count them; clicks and leads at theirs.
// Conversions are never read from a rollup: from the columnar store when it holds them, else from their
// table (through an index on campaign and each time).
// Amounts are summed as stored, whatever their currency.

import {
  type CustomMetricDefinition,
  evaluateFormula,
  type FormulaNode,
  parseFormula,
  type ReportFigures,
} from '@switchyard/domain';
import type { Counts } from '../report-plan/plan.js';

export type ParsedMetric = { key: string; ast: FormulaNode };

export function emptyCounts(): Counts {
  return {
    clicks: 0,
    unique_clicks: 0,
    leads: 0,
    conversions: 0,
    approved: 0,
    pending: 0,
    rejected: 0,
    revenue: 0,
    revenue_confirmed: 0,
    cost: 0,
    bot_clicks: 0,
    lp_clicks: 0,
    lander_clicks: 0,
  };
}

function round(value: number): number {
  // `|| 0`: a sum of costs set back to 0 may be -0 on one backend and 0 on another; both show 0.
  return Math.round(value * 1e6) / 1e6 || 0;
}

function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

/** A sum that is not finite (an amount stored before they were checked) is shown as 0, never null. */
function finiteCounts(counts: Counts): Counts {
  const finite = { ...counts };
  for (const name of Object.keys(finite) as (keyof Counts)[]) {
    if (!Number.isFinite(finite[name])) finite[name] = 0;
  }
  return finite;
}

/** The derived figures of §Figures above. */
export function figures(summed: Counts): ReportFigures {
  const counts = finiteCounts(summed);
  const revenue = round(counts.revenue);
  const revenueConfirmed = round(counts.revenue_confirmed);
  const cost = round(counts.cost);
  const profit = round(counts.revenue - counts.cost);
  const profitConfirmed = round(counts.revenue_confirmed - counts.cost);
  const entries = counts.clicks + counts.leads;
  return {
    clicks: counts.clicks,
    unique_clicks: counts.unique_clicks,
    leads: counts.leads,
    conversions: counts.conversions,
    approved: counts.approved,
    pending: counts.pending,
    rejected: counts.rejected,
    revenue,
    revenue_confirmed: revenueConfirmed,
    cost,
    profit,
    roi: round(ratio(profit, cost) * 100),
    roi_confirmed: round(ratio(profitConfirmed, cost) * 100),
    cr: round(ratio(counts.conversions, entries) * 100),
    epc: round(ratio(revenue, entries)),
    cpc: round(ratio(cost, entries)),
    cpa: round(ratio(cost, counts.conversions)),
    bot_clicks: counts.bot_clicks,
    lp_clicks: counts.lp_clicks,
    lp_ctr: round(ratio(counts.lp_clicks, counts.lander_clicks) * 100),
  };
}

/** The figures of §Figures above, and each custom metric computed from them. */
export function withCustomMetrics(
  built: ReportFigures,
  metrics: readonly ParsedMetric[],
): ReportFigures & Record<string, number> {
  const result: ReportFigures & Record<string, number> = { ...built };
  for (const metric of metrics) result[metric.key] = evaluateFormula(metric.ast, built);
  return result;
}

/** The custom metrics whose formulas parse (they were checked when saved). */
export function parsedMetrics(metrics: readonly CustomMetricDefinition[] = []): ParsedMetric[] {
  return metrics.flatMap((metric) => {
    const parsed = parseFormula(metric.formula);
    return parsed.ok ? [{ key: metric.key, ast: parsed.ast }] : [];
  });
}
