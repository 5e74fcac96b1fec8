// What a rule does to one matching row: pause or reweigh a path, offer or lander in its flows, exclude a
// var value from a campaign. Each change is an update through the flows' or campaigns' own service, as a
// person's would be, kept in history with the rule as its author and undone there.
import { type TRuleAction, type TRuleForm, ZTrackerCampaignForm, ZTrackerFlowForm } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { ConfigForm, ConfigRecordsService } from '../api/config-records/service.js';
import type { Actor } from '../auth/actor.js';
import type { Database } from '../store/schema.js';
import { scopeCondition } from '../store/scope.js';

type FlowForm = ReturnType<(typeof ZTrackerFlowForm)['parse']>;
type Path = FlowForm['path_groups'][number]['paths'][number];

export interface RuleServices {
  flows: ConfigRecordsService;
  campaigns: ConfigRecordsService;
}

/** The rule as the author of its changes: acting in its workspace, named in history. */
export function ruleActor(workspaceId: number, name: string): Actor {
  return { userId: 0, sessionId: 0, permissions: ['/'], workspaceId, author: `Rule: ${name}` };
}

/** The tracker flows the rule's scope reaches: a campaign's flow, a source's campaigns' flows, or all. */
async function flowsInScope(db: Kysely<Database>, workspaceId: number, rule: TRuleForm) {
  const scope = { workspaceId };
  let ids: string[] | null = null;
  if (rule.scope.kind !== 'workspace') {
    const campaigns = await db
      .selectFrom('config_records')
      .select(['external_id', 'body'])
      .where('kind', '=', 'tracker-campaigns')
      .where('status', '=', 'active')
      .where(scopeCondition(scope, 'workspace_id'))
      .execute();
    ids = campaigns
      .map((row) => ({ id: row.external_id, body: JSON.parse(row.body) as Record<string, unknown> }))
      .filter((row) =>
        rule.scope.kind === 'campaign'
          ? row.id === rule.scope.id
          : row.body.traffic_source_external_id === rule.scope.id,
      )
      .map((row) => String(row.body.flow_external_id));
    if (ids.length === 0) return [];
  }
  let query = db
    .selectFrom('config_records')
    .select(['external_id', 'name', 'body'])
    .where('kind', '=', 'tracker-flows')
    .where('status', '=', 'active')
    .where(scopeCondition(scope, 'workspace_id'));
  if (ids) query = query.where('external_id', 'in', ids);
  const rows = await query.execute();
  return rows.flatMap((row) => {
    const parsed = ZTrackerFlowForm.safeParse({ ...(JSON.parse(row.body) as object), name: row.name });
    return parsed.success ? [{ id: row.external_id, form: parsed.data }] : [];
  });
}

export interface ActionOutcome {
  done: boolean;
  detail: string;
  /** The guard held: the rule notifies instead. */
  guarded?: boolean;
}

/**
 * Applies (or, with `apply` false, describes) a pause or a weight to `value`, the path id, offer or lander
 * external id of the row. Never pauses the last enabled path of a group, or the last enabled offer or
 * lander of a path.
 */
export async function changeFlows(
  db: Kysely<Database>,
  services: RuleServices,
  workspaceId: number,
  rule: TRuleForm,
  action: Extract<TRuleAction, { type: 'pause' | 'set_weight' }>,
  value: string,
  apply: boolean,
): Promise<ActionOutcome> {
  const changes: string[] = [];
  const guarded: string[] = [];
  for (const flow of await flowsInScope(db, workspaceId, rule)) {
    let changed = false;
    for (const group of flow.form.path_groups) {
      for (const path of group.paths as Path[]) {
        if (rule.group_by === 'path') {
          if (path.id !== value) continue;
          if (action.type === 'pause') {
            if (!path.enabled) continue;
            if (group.paths.filter((other) => other.enabled).length <= 1) {
              guarded.push(`path ${path.name || path.id} is the last enabled path of its group`);
              continue;
            }
            path.enabled = false;
          } else {
            if (path.weight === action.weight) continue;
            path.weight = action.weight;
          }
          changed = true;
          changes.push(`${flow.form.name}: path ${path.name || path.id}`);
          continue;
        }
        const rows =
          rule.group_by === 'offer'
            ? path.offers.map((row) => ({ row, ref: row.offer_external_id }))
            : path.landers.map((row) => ({ row, ref: row.lander_external_id }));
        for (const { row, ref } of rows) {
          if (ref !== value) continue;
          if (action.type === 'pause') {
            if (!row.enabled) continue;
            if (rows.filter((other) => other.row.enabled).length <= 1) {
              guarded.push(
                `${rule.group_by} ${value} is the last enabled ${rule.group_by} of path ${path.name || path.id}`,
              );
              continue;
            }
            row.enabled = false;
          } else {
            if (row.weight === action.weight) continue;
            row.weight = action.weight;
          }
          changed = true;
          changes.push(`${flow.form.name}: path ${path.name || path.id}`);
        }
      }
    }
    if (changed && apply) {
      await services.flows.update(flow.id, flow.form as unknown as ConfigForm, ruleActor(workspaceId, rule.name));
    }
  }
  const verb =
    action.type === 'pause' ? 'paused' : `weight set to ${action.type === 'set_weight' ? action.weight : ''}`;
  const parts = [];
  if (changes.length) parts.push(`${verb} in ${changes.join('; ')}`);
  if (guarded.length) parts.push(`not paused: ${guarded.join('; ')}`);
  return {
    done: changes.length > 0 && apply,
    detail: parts.join('. ') || 'nothing to change',
    ...(guarded.length ? { guarded: true } : {}),
  };
}

/** Adds `value` of the rule's var to its campaign's exclusions, so those clicks take the fallback group. */
export async function excludeValue(
  db: Kysely<Database>,
  services: RuleServices,
  workspaceId: number,
  rule: TRuleForm,
  value: string,
  apply: boolean,
): Promise<ActionOutcome> {
  const campaignId = rule.scope.id ?? '';
  const row = await db
    .selectFrom('config_records')
    .select(['external_id', 'name', 'body'])
    .where('kind', '=', 'tracker-campaigns')
    .where('external_id', '=', campaignId)
    .where(scopeCondition({ workspaceId }, 'workspace_id'))
    .executeTakeFirst();
  if (!row) return { done: false, detail: 'the campaign is gone' };
  const form = ZTrackerCampaignForm.safeParse({ ...(JSON.parse(row.body) as object), name: row.name });
  if (!form.success) return { done: false, detail: 'the campaign does not read' };
  const name = rule.group_by as keyof typeof form.data.excluded;
  const values = form.data.excluded[name] ?? [];
  if (values.includes(value)) return { done: false, detail: `${name}=${value} is already excluded` };
  if (apply) {
    const excluded = { ...form.data.excluded, [name]: [...values, value] };
    await services.campaigns.update(
      row.external_id,
      { ...form.data, excluded } as unknown as ConfigForm,
      ruleActor(workspaceId, rule.name),
    );
  }
  return { done: apply, detail: `${name}=${value} excluded from ${row.name}` };
}
