// The five columnar reports of part (b) on a synthetic store (bench/columnar-duckdb.ts,
// bench/columnar-clickhouse-synthetic.ts): each planned as service.ts plans it (first page of 40, ordered by
// its first group), timed in turns with its plain GROUP BY, medians printed. Asserts nothing.

import type { ReportGroup } from '@switchyard/domain';
import type { PagedPlan, PagedRows } from '../apps/server/src/report-plan/plan.js';
import { startOfLocalDay } from '../apps/server/src/report-plan/time.js';
import type { ConfigNames, ReportRange } from '../apps/server/src/reports/report-plans.js';
import { firstPagePlan, type PlainGroup, type PlainReport } from './plain-group-by.js';

/** The synthetic stores' 20 campaigns, `camp-1`… named `Campaign 1`…. */
export const SYNTHETIC_CONFIG: ConfigNames = {
  names: new Map([
    ['campaign', new Map(Array.from({ length: 20 }, (_, index) => [`camp-${index + 1}`, `Campaign ${index + 1}`]))],
  ]),
  pathGroups: new Map(),
  paths: new Map(),
  offerNetworks: new Map(),
};

const REPORTS: [string, PlainGroup[], string | undefined][] = [
  ['campaign × offer × country × day', ['campaign', 'offer', 'country', 'day'], undefined],
  ['by subaff', ['subaff'], undefined],
  ['var1 × country', ['var1', 'country'], undefined],
  ['one campaign by var1', ['var1'], 'camp-1'],
  ['subaff × day, America/New_York', ['subaff', 'day'], undefined],
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const day = (at: number) => new Date(at).toISOString().slice(0, 10);

export interface SyntheticRun {
  /** The clicks' first and last instants (ms): the reports' range is their days. */
  start: number;
  now: number;
  runs: number;
  includeBots: boolean;
  /** Only the reports whose title contains it. */
  only?: string;
  report(paged: PagedPlan): Promise<PagedRows>;
  /** Runs the plain GROUP BY; answers its number of groups. */
  plain(report: PlainReport): Promise<number>;
}

export async function timeSyntheticReports(run: SyntheticRun): Promise<void> {
  for (const [title, groups, campaign] of REPORTS) {
    if (run.only && !title.includes(run.only)) continue;
    const timezone = title.includes('New_York') ? 'America/New_York' : 'UTC';
    const range: ReportRange = {
      from: startOfLocalDay(day(run.start), timezone).toISOString(),
      to: startOfLocalDay(day(run.now + 86_400_000), timezone).toISOString(),
      timezone,
      attribution: 'click',
      includeBots: run.includeBots,
    };
    const narrowing = {
      vars: {},
      filters: campaign ? { campaign } : {},
      config: Promise.resolve(SYNTHETIC_CONFIG),
      workspace: 1,
    };
    const paged = await firstPagePlan(groups as ReportGroup[], range, narrowing, SYNTHETIC_CONFIG.names);
    const plain: PlainReport = { groups, campaign, from: range.from!, to: range.to!, timezone, workspace: 1 };
    const plainTimes: number[] = [];
    const reportTimes: number[] = [];
    let groupsFound = 0;
    let answer = await run.report(paged);
    for (let index = 0; index < run.runs; index += 1) {
      let began = performance.now();
      groupsFound = await run.plain(plain);
      plainTimes.push(performance.now() - began);
      began = performance.now();
      answer = await run.report(paged);
      reportTimes.push(performance.now() - began);
    }
    const report = median(reportTimes);
    const bare = median(plainTimes);
    console.log(
      `${title}: report ${report.toFixed(1)} ms, plain GROUP BY ${bare.toFixed(1)} ms (${groupsFound} groups), ` +
        `${(report / bare).toFixed(2)}×; ${answer.total} rows, ${answer.totals.clicks} clicks, ${answer.totals.conversions} conversions`,
    );
  }
}
