// The names a report shows for its groups' values: config records' names, path groups and paths from the
// flows' bodies, and each offer's affiliate network (also for a group only filtered on).
import { type ReportFilterGroup, type ReportGroup, WEEKDAYS, type Weekday } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import { NONE_LABEL } from '../report-plan/plan.js';
import type { Database } from '../store/schema.js';
import { type Scope, scopeCondition } from '../store/scope.js';
import type { ConfigNames } from './report-plans.js';

/** The config kinds whose names label each group. */
const NAME_KINDS: Partial<Record<ReportGroup, readonly string[]>> = {
  campaign: ['campaigns', 'tracker-campaigns'],
  flow: ['flows', 'tracker-flows'],
  offer: ['offers', 'tracker-offers'],
  lander: ['tracker-landers'],
  traffic_source: ['traffic-sources'],
  affiliate_network: ['affiliate-networks'],
};

/** The weekday (`mon` … `sun`, the rules' words) of a local day `YYYY-MM-DD`. */
export function weekdayOf(day: string): Weekday {
  // getUTCDay counts from Sunday; WEEKDAYS from Monday.
  return WEEKDAYS[(new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7]!;
}

/** The label of a group's value: its name, `HH:00` for an hour, NONE_LABEL for none. */
export function labelOf(group: ReportGroup, value: string | null, config: ConfigNames): string {
  if (value === null) return NONE_LABEL;
  if (group === 'hour') return `${value}:00`;
  if (group === 'path_group') return config.pathGroups.get(value) ?? value;
  if (group === 'path') return config.paths.get(value) ?? value;
  return config.names.get(group)?.get(value) ?? value;
}

/** Per group, the names a store shows (and orders by) instead of the values; null for none. */
export function namesOf(groups: readonly ReportGroup[], config: ConfigNames): (ReadonlyMap<string, string> | null)[] {
  return groups.map((group) =>
    group === 'path_group' ? config.pathGroups : group === 'path' ? config.paths : (config.names.get(group) ?? null),
  );
}

/**
 * Names for the groups asked: config records, path groups and paths from flows, offers' networks (also
 * loaded for the groups only filtered on).
 */
export async function configNames(
  db: Kysely<Database>,
  scope: Scope,
  groups: readonly ReportGroup[],
  filtered: readonly ReportFilterGroup[] = [],
): Promise<ConfigNames> {
  const config: ConfigNames = {
    names: new Map(),
    pathGroups: new Map(),
    paths: new Map(),
    offerNetworks: new Map(),
  };
  const kinds = new Set<string>();
  for (const group of groups) for (const kind of NAME_KINDS[group] ?? []) kinds.add(kind);
  const needsFlows = groups.includes('path_group') || groups.includes('path');
  if (needsFlows) for (const kind of ['flows', 'tracker-flows']) kinds.add(kind);
  if (groups.includes('affiliate_network') || filtered.includes('affiliate_network')) {
    for (const kind of ['offers', 'tracker-offers']) kinds.add(kind);
  }
  if (kinds.size === 0) return config;
  const records = await db
    .selectFrom('config_records')
    .select(['kind', 'external_id', 'name', 'body'])
    .where('kind', 'in', [...kinds])
    .where(scopeCondition(scope, 'workspace_id'))
    .execute();
  for (const record of records) {
    for (const group of groups) {
      if (!NAME_KINDS[group]?.includes(record.kind)) continue;
      let names = config.names.get(group);
      if (!names) {
        names = new Map();
        config.names.set(group, names);
      }
      names.set(record.external_id, record.name);
    }
    const isFlow = record.kind === 'flows' || record.kind === 'tracker-flows';
    const isOffer = record.kind === 'offers' || record.kind === 'tracker-offers';
    if (!isFlow && !isOffer) continue;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(record.body) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (isOffer && typeof body.affiliate_network_external_id === 'string' && body.affiliate_network_external_id) {
      config.offerNetworks.set(record.external_id, body.affiliate_network_external_id);
    }
    if (isFlow && Array.isArray(body.path_groups)) {
      for (const pathGroup of body.path_groups as { id?: unknown; name?: unknown; paths?: unknown }[]) {
        if (typeof pathGroup?.id === 'string' && typeof pathGroup.name === 'string') {
          config.pathGroups.set(pathGroup.id, pathGroup.name);
        }
        if (!Array.isArray(pathGroup?.paths)) continue;
        for (const path of pathGroup.paths as { id?: unknown; name?: unknown }[]) {
          if (typeof path?.id === 'string' && typeof path.name === 'string' && path.name) {
            config.paths.set(path.id, path.name);
          }
        }
      }
    }
  }
  return config;
}
