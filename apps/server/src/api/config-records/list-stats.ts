// `?stats=<period>` on the lists of campaigns, offers, landers, traffic sources and networks: each row's
// clicks, conversions, revenue, cost, profit and ROI over the period, from one report grouped by the
// listed record (so the figures are a report's, to the cent). Money only for those who see it.
import {
  can,
  isMoneyMetric,
  LIST_STATS_FIGURES,
  LIST_STATS_GROUPS,
  listStatsRange,
  type ReportResponse,
  type ResourceDefinition,
  type TReportQuery,
  ZListStatsQuery,
  ZReportQuery,
} from '@switchyard/domain';
import { workspaceOf } from '../../auth/workspace.js';
import { ForbiddenError } from '../../errors.js';
import { seesMoney } from '../../reports/money.js';
import type { ReportScope } from '../../reports/service.js';
import { parseInput } from '../parse.js';
import type { ResourceService } from '../resource-routes.js';

export type RunReport = (query: TReportQuery, scope: ReportScope) => Promise<ReportResponse>;

type Figures = Record<string, number>;

export function withListStats<TRecord extends Record<string, unknown>, TForm>(
  service: ResourceService<TRecord, TForm, TForm>,
  definition: ResourceDefinition,
  run: RunReport | undefined,
  now: () => Date = () => new Date(),
): ResourceService<TRecord, TForm, TForm> {
  const group = LIST_STATS_GROUPS[definition.name];
  if (!group || !run) return service;
  return Object.assign(Object.create(service) as ResourceService<TRecord, TForm, TForm>, {
    list: async (...args: Parameters<ResourceService<TRecord, TForm, TForm>['list']>) => {
      const [query, actor, rawQuery] = args;
      const { stats, stats_timezone: timezone } = parseInput(ZListStatsQuery, {
        stats: rawQuery.stats,
        stats_timezone: rawQuery.stats_timezone,
      });
      const listed = await service.list(query, actor, rawQuery);
      if (!stats) return listed;
      if (!can(actor, 'tracker', 'reports', 'get')) {
        throw new ForbiddenError({ stats: ['Figures need the right to read reports.'] });
      }
      const report = await run(
        ZReportQuery.parse({ group_by: group, timezone, limit: 0, ...listStatsRange(stats, now(), timezone) }),
        { workspaceId: workspaceOf(actor) },
      );
      const byId = new Map(report.list.map((row) => [String(row[group]), row as unknown as Figures]));
      const figures = LIST_STATS_FIGURES.filter((name) => seesMoney(actor) || !isMoneyMetric(name));
      const id = definition.idField;
      return {
        ...listed,
        list: listed.list.map((record) => {
          const row = byId.get(String(record[id]));
          return { ...record, stats: Object.fromEntries(figures.map((name) => [name, row?.[name] ?? 0])) };
        }),
      };
    },
  });
}
