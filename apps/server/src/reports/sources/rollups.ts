// The rollup cubes (store/report-rollups.ts) as a report source: clicks and leads from a cube that holds
// every group and filter of the report (chooseSource checks that first), never conversions.
import type { ReportFilterGroup } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { Scope } from '../../store/scope.js';
import type { ConfigNames } from '../report-plans.js';
import { aggregateFromRollups, type DimensionFilters, isRollupDimension } from '../rollup-query.js';
import type { ReportSource } from './source.js';

/**
 * The group filters as cube dimension filters (an affiliate network as the list of its offers), or null
 * when one has no cube dimension (subaff, var1…var10, or events of no network: the event scan does those).
 */
async function rollupFilters(
  filters: Partial<Record<ReportFilterGroup, string | null>>,
  config: Promise<ConfigNames>,
): Promise<DimensionFilters | null> {
  const result: DimensionFilters = {};
  for (const [group, value] of Object.entries(filters) as [ReportFilterGroup, string | null][]) {
    if (group === 'affiliate_network') {
      if (value === null || 'offer' in filters) return null;
      const { offerNetworks } = await config;
      result.offer = [...offerNetworks].filter(([, owner]) => owner === value).map(([offer]) => offer);
      continue;
    }
    if (!isRollupDimension(group)) return null;
    result[group] = value;
  }
  return result;
}

export function rollupsSource(db: Kysely<Database>): ReportSource {
  return {
    name: 'rollups',
    aggregate: async ({ plan, groups, range, narrowing }) => {
      const source = plan.source;
      if (source === 'conversions') throw new Error('the rollups hold no conversions');
      const filters = await rollupFilters(narrowing.filters, narrowing.config);
      const scope: Scope = narrowing.workspace === null ? { instance: true } : { workspaceId: narrowing.workspace };
      const rows =
        filters &&
        (await aggregateFromRollups(db, source, groups, range, range.timezone, filters, scope, {
          includeBots: range.includeBots,
        }));
      // chooseSource asks the rollups only for a report a cube holds (rollupsHold).
      if (!rows) throw new Error('no rollup holds this report, yet the rollups were asked for it');
      return rows;
    },
  };
}
