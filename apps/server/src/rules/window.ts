// A rule's window in the report layer: reports take whole days, so the rule reads its group by day and
// hour and keeps the hours inside the window (rounded out to the hour), then adds them up per value and
// computes the figures and custom metrics from the sums, as a report row would.
import { evaluateFormula, parseFormula, type ReportRow, type TRuleForm, ZReportQuery } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import { COUNT_NAMES, type Counts } from '../report-plan/plan.js';
import { customMetricsOf, definitionsOf } from '../reports/custom-metrics.js';
import { figures } from '../reports/figures.js';
import type { ReportRunner } from '../reports/runner.js';
import type { Database } from '../store/schema.js';

const HOUR_MS = 3_600_000;

/** One row per value of the rule's group_by, over the last `rule.window` minutes. */
export async function windowRows(
  db: Kysely<Database>,
  reports: Pick<ReportRunner, 'run'>,
  workspaceId: number,
  rule: TRuleForm,
  now: Date,
): Promise<ReportRow[]> {
  const start = Math.floor((now.getTime() - rule.window * 60_000) / HOUR_MS) * HOUR_MS;
  const filters: Record<string, string> = {};
  if (rule.scope.kind === 'campaign' && rule.scope.id) filters.campaign = rule.scope.id;
  if (rule.scope.kind === 'traffic_source' && rule.scope.id) filters.traffic_source = rule.scope.id;
  const query = ZReportQuery.parse({
    group_by: [rule.group_by, 'day', 'hour'],
    date_from: new Date(start).toISOString().slice(0, 10),
    date_to: now.toISOString().slice(0, 10),
    filters,
    limit: 0,
  });
  const report = await reports.run(query, { workspaceId });
  const sums = new Map<string, { label: string; counts: Counts }>();
  for (const row of report.list) {
    const value = row[rule.group_by];
    if (value === null || value === undefined || value === '') continue;
    const hour = Date.parse(`${String(row.day)}T00:00:00.000Z`) + Number(row.hour) * HOUR_MS;
    if (!(hour >= start)) continue;
    const key = String(value);
    let sum = sums.get(key);
    if (!sum) {
      const name = row[`${rule.group_by}_name`];
      sum = {
        label: name === null || name === undefined || name === '' ? key : String(name),
        counts: Object.fromEntries(COUNT_NAMES.map((count) => [count, 0])) as Counts,
      };
      sums.set(key, sum);
    }
    for (const count of COUNT_NAMES) sum.counts[count] += Number(row[count] ?? 0);
  }
  const metrics = definitionsOf(await customMetricsOf(db, workspaceId)).flatMap((metric) => {
    const parsed = parseFormula(metric.formula);
    return parsed.ok ? [{ key: metric.key, ast: parsed.ast }] : [];
  });
  return [...sums].map(([value, { label, counts }]) => {
    const built = figures(counts);
    const custom: Record<string, number> = {};
    for (const metric of metrics) custom[metric.key] = evaluateFormula(metric.ast, built);
    return { ...built, ...custom, [rule.group_by]: value, label } as ReportRow;
  });
}
