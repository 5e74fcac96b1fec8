// A side's flows compiled: each enabled path group's condition made into a test and its paths into
// weighted offers and landers, the live weights of an optimized group in place of the configured ones.
import { compileCondition, liveWeightKey, type RedirectMode, ZFlowForm, ZTrackerFlowForm } from '@switchyard/domain';
import { type ConfigRows, conditionTree, KINDS } from './config-rows.js';
import type { CompiledLander, CompiledPath, CompiledPathGroup, DisabledPathGroup, Side } from './snapshot.js';

/** A side's flows by external id: the enabled path groups and the disabled ones, each in priority order. */
export function compileFlows(
  side: Side,
  rows: ConfigRows,
  landers: ReadonlyMap<string, CompiledLander>,
  liveWeights: ReadonlyMap<string, number>,
): { flows: Map<string, CompiledPathGroup[]>; disabledGroups: Map<string, DisabledPathGroup[]> } {
  const kinds = KINDS[side];
  const flows = new Map<string, CompiledPathGroup[]>();
  const disabledGroups = new Map<string, DisabledPathGroup[]>();
  const flowForm = side === 'api' ? ZFlowForm : ZTrackerFlowForm;
  for (const { row, form } of rows.parsed(kinds.flow, flowForm)) {
    disabledGroups.set(
      row.external_id,
      form.path_groups
        .filter((group) => !group.enabled)
        .map(({ id, name, priority, condition }) => ({ id, name, priority, condition: conditionTree(condition) }))
        .sort((a, b) => a.priority - b.priority),
    );
    const groups = form.path_groups
      .filter((group) => group.enabled)
      .map((group): CompiledPathGroup => {
        const condition = conditionTree(group.condition);
        const live =
          group.optimize === 'on'
            ? (arm: string, configured: number) =>
                liveWeights.get(liveWeightKey(kinds.flow, row.external_id, group.id, arm)) ?? configured
            : null;
        return {
          id: group.id,
          name: group.name,
          priority: group.priority,
          matches: compileCondition(condition),
          condition,
          paths: group.paths
            .filter((path) => path.enabled && path.weight > 0)
            .map((path) => {
              const compiled = compilePath(path as PathForm, landers);
              if (!live) return compiled;
              if (group.optimize_target === 'paths') {
                return { ...compiled, weight: live(`path:${path.id}`, compiled.weight) };
              }
              return withLiveRows(compiled, path as PathForm, live);
            }),
        };
      })
      .sort((a, b) => a.priority - b.priority);
    flows.set(row.external_id, groups);
  }
  return { flows, disabledGroups };
}

/** A path whose offer and lander rows take their live weights (rows matched by position among the enabled). */
function withLiveRows(
  compiled: CompiledPath,
  path: PathForm,
  live: (arm: string, configured: number) => number,
): CompiledPath {
  const offerRows = (path.offers ?? []).filter((row) => row.enabled && row.weight > 0);
  const landerRows = (path.landers ?? []).filter((row) => row.enabled && row.weight > 0);
  return {
    ...compiled,
    offers: path.offers
      ? compiled.offers.map((offer, index) => {
          const row = offerRows[index];
          return row ? { ...offer, weight: live(`offer:${path.id}:${row.id}`, offer.weight) } : offer;
        })
      : compiled.offers,
    landers: compiled.landers.map((lander) => {
      const row = landerRows.find((candidate) => candidate.lander_external_id === lander.lander.externalId);
      return row ? { ...lander, weight: live(`lander:${path.id}:${row.id}`, lander.weight) } : lander;
    }),
  };
}

interface PathForm {
  id: string;
  name: string;
  weight: number;
  daily_cap: number;
  postback_daily_cap: number;
  subaff: string;
  offer_external_id?: string;
  offers?: { id: string; offer_external_id: string; weight: number; enabled: boolean }[];
  landers?: { id: string; lander_external_id: string; weight: number; enabled: boolean }[];
  redirect_mode?: RedirectMode | null;
}

function compilePath(path: PathForm, landers: ReadonlyMap<string, CompiledLander>): CompiledPath {
  const offers = path.offer_external_id
    ? [{ offerExternalId: path.offer_external_id, weight: 1 }]
    : (path.offers ?? [])
        .filter((row) => row.enabled && row.weight > 0)
        .map((row) => ({ offerExternalId: row.offer_external_id, weight: row.weight }));
  const landerRows = (path.landers ?? []).flatMap((row) => {
    const lander = landers.get(row.lander_external_id);
    return row.enabled && row.weight > 0 && lander ? [{ lander, weight: row.weight }] : [];
  });
  return {
    id: path.id,
    name: path.name,
    weight: path.weight,
    dailyCap: path.daily_cap,
    postbackDailyCap: path.postback_daily_cap,
    subaff: path.subaff,
    offers,
    landers: landerRows,
    redirectMode: path.redirect_mode ?? null,
  };
}
