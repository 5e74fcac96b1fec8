// Weights that tune themselves: for each path group with `optimize: on`, read what each arm earned over
// the group's window from the report layer (rollups or the columnar store answer it, as for any report),
// choose the weights by Thompson sampling, store them, and have routing recompile. Nothing is computed
// per click: routing reads the stored weights like any compiled routing.
import {
  type ArmFigures,
  liveWeightKey,
  type ReportRow,
  type TReportQuery,
  thompsonWeights,
  ZFlowForm,
  ZReportQuery,
  ZTrackerFlowForm,
} from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { ReportRunner } from '../reports/runner.js';
import { dropOtherWeights, type LiveWeightRow, replaceGroupWeights } from '../store/live-weights.js';
import type { Database } from '../store/schema.js';
import { type Scope, scopeCondition } from '../store/scope.js';
import { LIVE_WEIGHTS_KIND } from '../traffic/rules/compile.js';

const FLOW_KINDS = { 'tracker-flows': ZTrackerFlowForm, flows: ZFlowForm } as const;
type FlowKind = keyof typeof FLOW_KINDS;

type GroupForm = ReturnType<(typeof ZTrackerFlowForm)['parse']>['path_groups'][number];
type PathForm = GroupForm['paths'][number] & { offer_external_id?: string };

/** One bandit: the arms that share one choice (a group's paths, or one path's offers, or its landers). */
interface Bandit {
  /** The report grouping that gives each arm's figures, and how a report row names its arm. */
  groupBy: TReportQuery['group_by'];
  arms: { arm: string; matches: (row: ReportRow) => boolean }[];
}

export interface TunerOptions {
  /** Today, for the window (tests pass one). */
  now?: () => Date;
  random?: () => number;
  log?: (message: string) => void;
}

export class WeightTuner {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly reports: Pick<ReportRunner, 'run'>,
    private readonly changed: (kind: typeof LIVE_WEIGHTS_KIND) => Promise<void>,
    private readonly options: TunerOptions = {},
  ) {}

  /** Recomputes every optimized group (of one workspace, or all); answers how many groups it weighed. */
  async runOnce(scope: Scope = { instance: true }): Promise<number> {
    const flows = await this.db
      .selectFrom('config_records')
      .select(['kind', 'external_id', 'workspace_id', 'body', 'name'])
      .where('kind', 'in', Object.keys(FLOW_KINDS))
      .where('status', '!=', 'archived')
      .where(scopeCondition(scope, 'workspace_id'))
      .execute();
    const kept = new Set<string>();
    let weighed = 0;
    for (const flow of flows) {
      const form = parseFlow(flow.kind as FlowKind, flow.body, flow.name);
      if (!form) continue;
      for (const group of form.path_groups) {
        if (group.optimize !== 'on' || !group.enabled) continue;
        kept.add(liveWeightKey(flow.kind, flow.external_id, group.id, ''));
        const rows = await this.weighGroup(flow.external_id, flow.workspace_id, group);
        await replaceGroupWeights(
          this.db,
          scope,
          { workspaceId: flow.workspace_id, flowKind: flow.kind, flow: flow.external_id, group: group.id },
          rows,
        );
        weighed += 1;
      }
    }
    const dropped = await dropOtherWeights(this.db, scope, kept);
    if (weighed > 0 || dropped > 0) await this.changed(LIVE_WEIGHTS_KIND);
    return weighed;
  }

  private async weighGroup(flow: string, workspaceId: number | null, group: GroupForm): Promise<LiveWeightRow[]> {
    const now = this.options.now?.() ?? new Date();
    const from = new Date(now.getTime() - (group.optimize_window_days - 1) * 86_400_000);
    const computedAt = now.toISOString();
    const result: LiveWeightRow[] = [];
    for (const bandit of bandits(group)) {
      if (bandit.arms.length < 2) continue;
      const query = ZReportQuery.parse({
        group_by: bandit.groupBy,
        date_from: from.toISOString().slice(0, 10),
        date_to: now.toISOString().slice(0, 10),
        filters: { flow, path_group: group.id },
        limit: 0,
        // Weights share out every routed click, bots' too: each offer's rate per routed click.
        include_bots: true,
      });
      const scope: Scope = workspaceId === null ? { instance: true } : { workspaceId };
      const report = await this.reports.run(query, scope);
      const figures: ArmFigures[] = bandit.arms.map(({ arm, matches }) => {
        const rows = report.list.filter(matches);
        const sum = (metric: 'clicks' | 'leads' | 'conversions' | 'revenue' | 'cost') =>
          rows.reduce((total, row) => total + Number(row[metric] ?? 0), 0);
        return {
          id: arm,
          clicks: sum('clicks') + sum('leads'),
          conversions: sum('conversions'),
          revenue: sum('revenue'),
          cost: sum('cost'),
        };
      });
      const answer = thompsonWeights(figures, {
        metric: group.optimize_metric,
        floor: group.optimize_floor / 100,
        minClicks: group.optimize_min_clicks,
        ...(this.options.random ? { random: this.options.random } : {}),
      });
      for (const estimate of answer.arms) {
        result.push({
          group_id: group.id,
          arm: estimate.id,
          weight: estimate.weight,
          mean: estimate.mean,
          low: estimate.low,
          high: estimate.high,
          p_best: estimate.p_best,
          clicks: estimate.clicks,
          conversions: estimate.conversions,
          moved: answer.moved ? 1 : 0,
          computed_at: computedAt,
        });
      }
    }
    return result;
  }
}

function parseFlow(kind: FlowKind, body: string, name: string): { path_groups: GroupForm[] } | null {
  try {
    const parsed = FLOW_KINDS[kind].safeParse({ ...(JSON.parse(body) as object), name });
    return parsed.success ? (parsed.data as { path_groups: GroupForm[] }) : null;
  } catch {
    return null;
  }
}

/** The bandits of a group: its paths as one, or each path's offer rows and lander rows. */
function bandits(group: GroupForm): Bandit[] {
  const paths = (group.paths as PathForm[]).filter((path) => path.enabled && path.weight > 0);
  if (group.optimize_target === 'paths') {
    return [
      {
        groupBy: ['path'],
        arms: paths.map((path) => ({ arm: `path:${path.id}`, matches: (row) => row.path === path.id })),
      },
    ];
  }
  return paths.flatMap((path): Bandit[] => {
    const onPath = (row: ReportRow) => row.path === path.id;
    const offers = (path.offers ?? []).filter((row) => row.enabled && row.weight > 0);
    const landers = (path.landers ?? []).filter((row) => row.enabled && row.weight > 0);
    return [
      {
        groupBy: ['path', 'offer'],
        arms: offers.map((offer) => ({
          arm: `offer:${path.id}:${offer.id}`,
          matches: (row) => onPath(row) && row.offer === offer.offer_external_id,
        })),
      },
      {
        groupBy: ['path', 'lander'],
        arms: landers.map((lander) => ({
          arm: `lander:${path.id}:${lander.id}`,
          matches: (row) => onPath(row) && row.lander === lander.lander_external_id,
        })),
      },
    ];
  });
}
