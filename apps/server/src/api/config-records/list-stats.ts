// `?stats=<period>` on the lists of campaigns, offers, landers, traffic sources and networks: each row's
// clicks, conversions, revenue, cost, profit and ROI over the period, from one report grouped by the
// listed record (so the figures are a report's, to the cent). Money only for those who see it.
import {
  can,
  isMoneyMetric,
  LIST_STATS_FIGURES,
  LIST_STATS_GROUPS,
  type ListStatsFigure,
  listStatsRange,
  type ReportResponse,
  type ResourceDefinition,
  type TReportQuery,
  ZListStatsQuery,
  ZReportQuery,
} from '@switchyard/domain';
import { seesMoney } from '../../auth/money.js';
import { workspaceOf } from '../../auth/workspace.js';
import { ForbiddenError, ValidationError } from '../../errors.js';
import { figureOrder } from '../../http/list-order.js';
import { parseInput } from '../../http/parse.js';
import type { ResourceService } from '../../http/resource-routes.js';
import type { ReportScope } from '../../reports/service.js';

export type RunReport = (query: TReportQuery, scope: ReportScope) => Promise<ReportResponse>;

type Figures = Record<string, number>;

/** Rows by one figure (a row without figures counts 0); ties keep the name order they came in. */
function byFigure<T extends { stats: Figures }>(rows: T[], figure: ListStatsFigure, order: 'asc' | 'desc'): T[] {
  const sign = order === 'desc' ? -1 : 1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => sign * ((a.row.stats[figure] ?? 0) - (b.row.stats[figure] ?? 0)) || a.index - b.index)
    .map(({ row }) => row);
}

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
      const figure = figureOrder(definition, query, rawQuery);
      // Sorted by a figure, every record is read (in name order, for ties) and paged here.
      const listed = await service.list(
        figure ? { ...query, order_by: 'name', order: 'asc', page: 1, limit: 0 } : query,
        actor,
        rawQuery,
      );
      if (!stats) return listed;
      if (!can(actor, 'tracker', 'reports', 'get')) {
        throw new ForbiddenError({ stats: ['Figures need the right to read reports.'] });
      }
      const figures = LIST_STATS_FIGURES.filter((name) => seesMoney(actor) || !isMoneyMetric(name));
      if (figure && !figures.includes(figure)) {
        throw new ValidationError({
          order_by: [`Sorting by ${figure} needs the permission to see money (/tracker/reports/money).`],
        });
      }
      const report = await run(
        ZReportQuery.parse({ group_by: group, timezone, limit: 0, ...listStatsRange(stats, now(), timezone) }),
        { workspaceId: workspaceOf(actor) },
      );
      const byId = new Map(report.list.map((row) => [String(row[group]), row as unknown as Figures]));
      const id = definition.idField;
      const withStats = listed.list.map((record) => {
        const row = byId.get(String(record[id]));
        return { ...record, stats: Object.fromEntries(figures.map((name) => [name, row?.[name] ?? 0])) as Figures };
      });
      if (!figure) return { ...listed, list: withStats };
      const sorted = byFigure(withStats, figure, query.order);
      const start = (query.page - 1) * query.limit;
      return { ...listed, list: query.limit === 0 ? sorted : sorted.slice(start, start + query.limit) };
    },
  });
}
