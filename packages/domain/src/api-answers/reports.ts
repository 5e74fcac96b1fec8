// Answers of the reports screen's routes — the report itself, its notices, custom metrics and
// saved views.
import { z } from 'zod';
import { MONEY_METRICS, REPORT_METRICS, REPORT_SOURCES } from '../reports.js';
import { ZStoredId, ZTimestamp } from './common.js';

/** The figures every user sees; money figures are left out for a user without the money permission. */
const PLAIN_METRICS = REPORT_METRICS.filter((metric) => !(MONEY_METRICS as readonly string[]).includes(metric));
const MONEY = Object.fromEntries(MONEY_METRICS.map((metric) => [metric, z.number().optional()]));
const PLAIN = Object.fromEntries(PLAIN_METRICS.map((metric) => [metric, z.number()]));

/**
 * One report row: the figures, the joined `label`, and for each grouping its value and `<group>_name`
 * label. Groupings and custom metrics (`cm_…`) are open-ended, so other keys are let through as values.
 */
export const ZReportRowAnswer = z
  .object({ label: z.string(), ...PLAIN, ...MONEY })
  .catchall(z.union([z.string(), z.number(), z.null()]));

/** `GET /api/reports`: a page of rows, how many rows there are, and the figures of all of them. */
export const ZReportAnswer = z.object({
  list: z.array(ZReportRowAnswer),
  total: z.number().int().min(0),
  // A custom metric's formula can divide by zero: its total is then null.
  totals: z.object({ ...PLAIN, ...MONEY }).catchall(z.number().nullable()),
  meta: z
    .object({
      /** The traffic source's own names of the vars (`labels: { var2: "Zone" }`), where it names them. */
      labels: z.record(z.string(), z.string()),
      /** Which source answered (the rollups, the event tables, DuckDB or ClickHouse), and why. */
      source: z.enum(REPORT_SOURCES).optional(),
      source_reason: z.string().optional(),
    })
    .optional(),
});

/** `GET /api/reports/notices`: what the reports screen warns of. */
export const ZReportNotice = z.object({
  code: z.literal('untrusted_proxy'),
  /** The proxy's address, as the clicks came from it. */
  peer: z.string(),
  last_seen_at: ZTimestamp,
  setting: z.string(),
});
export type ReportNotice = z.infer<typeof ZReportNotice>;
export const ZReportNotices = z.object({ notices: z.array(ZReportNotice) });

/** A custom metric as the API lists it. */
export const ZCustomMetric = z.object({
  id: ZStoredId,
  key: z.string(),
  name: z.string(),
  formula: z.string(),
  /** True when the formula reads a money figure (cost, revenue, profit, ROI, EPC). */
  money: z.boolean(),
  created_at: ZTimestamp,
  updated_at: ZTimestamp,
});
export type CustomMetric = z.infer<typeof ZCustomMetric>;
export const ZCustomMetricList = z.object({ list: z.array(ZCustomMetric) });

/** A saved report view as the API answers it. */
export const ZReportView = z.object({
  id: ZStoredId,
  name: z.string(),
  /** The reports screen's URL query string, without `?`. */
  params: z.string(),
  /** The user who saved it; only they list, rename and delete it. */
  user_id: ZStoredId,
  created_at: ZTimestamp,
  updated_at: ZTimestamp,
});
export type ReportView = z.infer<typeof ZReportView>;
export const ZReportViewList = z.object({ list: z.array(ZReportView) });
