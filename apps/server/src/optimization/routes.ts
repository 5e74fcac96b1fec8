// The optimization panel of the flow editor: each optimized group's arms with their live weight, posterior
// mean and 95 % interval, and chance of being best; and "recompute now" for whoever may change the flow.
import {
  type OptimizationAnswer,
  type OptimizationArm,
  type OptimizationGroup,
  ZFlowForm,
  ZTrackerFlowForm,
} from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { workspaceOf } from '../auth/workspace.js';
import { NotFoundError } from '../errors.js';
import { authorize } from '../http/guard.js';
import { flowLiveWeights } from '../store/live-weights.js';
import type { Database } from '../store/schema.js';
import { type Scope, scopeCondition } from '../store/scope.js';
import type { WeightTuner } from './tuner.js';

type FlowParams = { Params: { id: string } };

const SIDES = [
  { kind: 'tracker-flows', path: '/tracker/flows', section: 'tracker', form: ZTrackerFlowForm },
  { kind: 'flows', path: '/flows', section: 'api', form: ZFlowForm },
] as const;

export function optimizationRoutes(app: FastifyInstance, db: Kysely<Database>, tuner: WeightTuner): void {
  for (const side of SIDES) {
    app.get<FlowParams>(`${side.path}/:id/optimization`, async (request): Promise<OptimizationAnswer> => {
      const actor = authorize(request, side.section, 'flow', 'get');
      return answer(db, { workspaceId: workspaceOf(actor) }, side, request.params.id);
    });
    app.post<FlowParams>(`${side.path}/:id/optimization/recompute`, async (request): Promise<OptimizationAnswer> => {
      const actor = authorize(request, side.section, 'flow', 'update');
      const scope: Scope = { workspaceId: workspaceOf(actor) };
      await answer(db, scope, side, request.params.id);
      await tuner.runOnce(scope);
      return answer(db, scope, side, request.params.id);
    });
  }
}

async function answer(
  db: Kysely<Database>,
  scope: Scope,
  side: (typeof SIDES)[number],
  id: string,
): Promise<OptimizationAnswer> {
  const record = await db
    .selectFrom('config_records')
    .select(['body', 'name'])
    .where('kind', '=', side.kind)
    .where('external_id', '=', id)
    .where('status', '!=', 'archived')
    .where(scopeCondition(scope, 'workspace_id'))
    .executeTakeFirst();
  if (!record) throw new NotFoundError();
  const parsed = side.form.safeParse({ ...(JSON.parse(record.body) as object), name: record.name });
  if (!parsed.success) return { groups: [] };
  const stored = await flowLiveWeights(db, scope, side.kind, id);
  const groups: OptimizationGroup[] = [];
  for (const group of parsed.data.path_groups) {
    if (group.optimize !== 'on') continue;
    const rows = new Map(stored.filter((row) => row.group_id === group.id).map((row) => [row.arm, row]));
    const arms: OptimizationArm[] = [];
    const choices = armsOf(group as GroupLike);
    for (const choice of choices) {
      const total = choice.reduce((sum, arm) => sum + arm.weight, 0);
      const moved = choice.every((arm) => rows.get(arm.arm)?.moved === 1);
      for (const arm of choice) {
        const row = rows.get(arm.arm);
        const configured = total > 0 ? arm.weight / total : 0;
        arms.push({
          arm: arm.arm,
          kind: arm.kind,
          path_id: arm.pathId,
          row_id: arm.rowId,
          configured_share: configured,
          live_share: moved && row ? Number(row.weight) : configured,
          mean: Number(row?.mean ?? 0),
          low: Number(row?.low ?? 0),
          high: Number(row?.high ?? 0),
          p_best: Number(row?.p_best ?? 0),
          clicks: Number(row?.clicks ?? 0),
          conversions: Number(row?.conversions ?? 0),
        });
      }
    }
    const computed = stored.find((row) => row.group_id === group.id)?.computed_at ?? null;
    groups.push({
      group_id: group.id,
      name: group.name,
      metric: group.optimize_metric,
      target: group.optimize_target,
      moved: arms.length > 0 && arms.every((arm) => rows.get(arm.arm)?.moved === 1),
      computed_at: computed,
      arms,
    });
  }
  return { groups };
}

interface GroupLike {
  optimize_target: 'paths' | 'offers_and_landers';
  paths: {
    id: string;
    enabled: boolean;
    weight: number;
    offers?: { id: string; enabled: boolean; weight: number }[];
    landers?: { id: string; enabled: boolean; weight: number }[];
  }[];
}

type Choice = { arm: string; kind: OptimizationArm['kind']; pathId: string; rowId: string | null; weight: number }[];

/** The arms of each choice the group's bandits make, with the operator's weights. */
function armsOf(group: GroupLike): Choice[] {
  const paths = group.paths.filter((path) => path.enabled && path.weight > 0);
  if (group.optimize_target === 'paths') {
    return [
      paths.map((path) => ({
        arm: `path:${path.id}`,
        kind: 'path',
        pathId: path.id,
        rowId: null,
        weight: path.weight,
      })),
    ];
  }
  return paths
    .flatMap((path) =>
      (['offer', 'lander'] as const).map((kind) =>
        (kind === 'offer' ? (path.offers ?? []) : (path.landers ?? []))
          .filter((row) => row.enabled && row.weight > 0)
          .map((row) => ({
            arm: `${kind}:${path.id}:${row.id}`,
            kind,
            pathId: path.id,
            rowId: row.id,
            weight: row.weight,
          })),
      ),
    )
    .filter((choice) => choice.length > 1);
}
