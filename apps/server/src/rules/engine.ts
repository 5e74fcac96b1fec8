// The rule engine: every round (on one node, under the lease) each enabled rule whose schedule is due
// reads the report grouped by its group_by over its window, and acts on each row where every condition
// holds on at least its minimum sample. A run is claimed by inserting its (rule, window start) row first,
// so two nodes never run one rule twice for one window, lease or not.
import {
  type ReportRow,
  type RuleRowOutcome,
  type TRuleCondition,
  type TRuleForm,
  ZRuleForm,
} from '@switchyard/domain';
import type { Kysely } from 'kysely';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, webhookSignature } from '../alerts/channels.js';
import type { Notifier } from '../alerts/notifier.js';
import { sendOutbound } from '../http/outbound-request.js';
import type { ReportRunner } from '../reports/runner.js';
import type { Database } from '../store/schema.js';
import { scopeCondition } from '../store/scope.js';
import { changeFlows, excludeValue, type RuleServices } from './actions.js';
import { windowRows } from './window.js';

const RUNS_KEPT_MS = 30 * 86_400_000;

export interface StoredRule {
  id: number;
  workspace_id: number;
  name: string;
  body: string;
  enabled: number;
  last_run_at: string | null;
}

export interface EngineOptions {
  allowPrivateTargets: boolean;
  now?: () => Date;
  timeoutMs?: number;
}

export function ruleForm(row: Pick<StoredRule, 'name' | 'body' | 'enabled'>): TRuleForm | null {
  const parsed = ZRuleForm.safeParse({
    ...(JSON.parse(row.body) as object),
    name: row.name,
    enabled: Number(row.enabled) === 1,
  });
  return parsed.success ? parsed.data : null;
}

function holds(actual: number, condition: TRuleCondition): boolean {
  switch (condition.operator) {
    case '>':
      return actual > condition.value;
    case '>=':
      return actual >= condition.value;
    case '<':
      return actual < condition.value;
    case '<=':
      return actual <= condition.value;
    default:
      return actual === condition.value;
  }
}

/** A row matches when each condition holds on at least its minimum number of clicks. */
export function rowMatches(row: ReportRow, conditions: readonly TRuleCondition[]): boolean {
  const clicks = Number(row.clicks ?? 0);
  return conditions.every(
    (condition) => clicks >= condition.min_clicks && holds(Number(row[condition.metric] ?? 0), condition),
  );
}

export class RuleEngine {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly reports: Pick<ReportRunner, 'run'>,
    private readonly notifier: Pick<Notifier, 'notify'>,
    private readonly services: RuleServices,
    private readonly options: EngineOptions,
  ) {}

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** Runs every due rule; answers how many ran. */
  async runOnce(): Promise<number> {
    const now = this.now();
    const rules = await this.db
      .selectFrom('rules')
      .select(['id', 'workspace_id', 'name', 'body', 'enabled', 'last_run_at'])
      .where('enabled', '=', 1)
      .where(scopeCondition({ instance: true }, 'workspace_id'))
      .orderBy('id')
      .execute();
    let ran = 0;
    for (const row of rules) {
      const rule = ruleForm(row);
      if (!rule) continue;
      const slot = rule.schedule * 60_000;
      const windowStart = new Date(Math.floor(now.getTime() / slot) * slot).toISOString();
      if (await this.runRule(row, rule, windowStart)) ran += 1;
    }
    // The runs log keeps 30 days.
    await this.db
      .deleteFrom('rule_runs')
      .where('started_at', '<', new Date(now.getTime() - RUNS_KEPT_MS).toISOString())
      .where(scopeCondition({ instance: true }, 'workspace_id'))
      .execute();
    return ran;
  }

  /** Claims the (rule, window start) run and applies it; false when another node already claimed it. */
  async runRule(row: StoredRule, rule: TRuleForm, windowStart: string): Promise<boolean> {
    const startedAt = this.now().toISOString();
    const claimed = await this.db
      .insertInto('rule_runs')
      .values({
        workspace_id: row.workspace_id,
        rule_id: row.id,
        window_start: windowStart,
        started_at: startedAt,
        matched: 0,
        rows: '[]',
        error: null,
      })
      .onConflict((conflict) => conflict.columns(['rule_id', 'window_start']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!claimed) return false;
    let rows: RuleRowOutcome[] = [];
    let error: string | null = null;
    try {
      rows = await this.evaluate(row.id, row.workspace_id, rule, true);
    } catch (caught) {
      error = caught instanceof Error ? caught.message.slice(0, 1000) : String(caught);
    }
    await this.db
      .updateTable('rule_runs')
      .set({ matched: rows.length, rows: JSON.stringify(rows), error })
      .where('id', '=', Number(claimed.id))
      .where(scopeCondition({ workspaceId: row.workspace_id }, 'workspace_id'))
      .execute();
    await this.db
      .updateTable('rules')
      .set({ last_run_at: startedAt })
      .where('id', '=', row.id)
      .where(scopeCondition({ workspaceId: row.workspace_id }, 'workspace_id'))
      .execute();
    return true;
  }

  /** The rows that match now, and what the rule does (`apply`) or would do to each. */
  async evaluate(ruleId: number, workspaceId: number, rule: TRuleForm, apply: boolean): Promise<RuleRowOutcome[]> {
    const now = this.now();
    const rows = await windowRows(this.db, this.reports, workspaceId, rule, now);
    const cooldownFrom = new Date(now.getTime() - rule.cooldown * 60_000).toISOString();
    const cooling = new Set(
      (
        await this.db
          .selectFrom('rule_cooldowns')
          .select('value')
          .where('rule_id', '=', ruleId)
          .where('acted_at', '>', cooldownFrom)
          .where(scopeCondition({ workspaceId }, 'workspace_id'))
          .execute()
      ).map((cooldown) => cooldown.value),
    );
    const outcomes: RuleRowOutcome[] = [];
    for (const row of rows) {
      const raw = row[rule.group_by];
      if (raw === null || raw === undefined || raw === '') continue;
      if (!rowMatches(row, rule.conditions)) continue;
      const value = String(raw);
      const values: Record<string, number> = { clicks: Number(row.clicks ?? 0) };
      for (const condition of rule.conditions) values[condition.metric] = Number(row[condition.metric] ?? 0);
      const outcome: RuleRowOutcome = { value, label: String(row.label ?? value), values, actions: [] };
      outcomes.push(outcome);
      if (cooling.has(value)) {
        outcome.actions = rule.actions.map((action) => ({ type: action.type, done: false, detail: 'cooldown' }));
        continue;
      }
      await this.act(ruleId, workspaceId, rule, outcome, apply);
      if (apply && outcome.actions.some((action) => action.done)) await this.coolDown(ruleId, workspaceId, value);
    }
    return outcomes;
  }

  private async act(
    ruleId: number,
    workspaceId: number,
    rule: TRuleForm,
    outcome: RuleRowOutcome,
    apply: boolean,
  ): Promise<void> {
    const value = outcome.value ?? '';
    const summary = Object.entries(outcome.values)
      .map(([metric, figure]) => `${metric} ${figure}`)
      .join(', ');
    let guarded = false;
    for (const action of rule.actions) {
      // One failing action is logged on the run; the others still run.
      try {
        if (action.type === 'pause' || action.type === 'set_weight') {
          const result = await changeFlows(this.db, this.services, workspaceId, rule, action, value, apply);
          guarded ||= result.guarded === true;
          outcome.actions.push({ type: action.type, done: result.done, detail: result.detail });
        } else if (action.type === 'exclude') {
          const result = await excludeValue(this.db, this.services, workspaceId, rule, value, apply);
          outcome.actions.push({ type: action.type, ...result });
        } else if (action.type === 'notify') {
          if (apply) await this.notify(workspaceId, rule, ruleId, outcome, summary);
          outcome.actions.push({ type: 'notify', done: apply, detail: `${outcome.label}: ${summary}` });
        } else {
          const detail = apply ? await this.webhook(action.url, action.secret, ruleId, rule, outcome) : action.url;
          outcome.actions.push({ type: 'webhook', done: apply && detail === 'sent', detail });
        }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        outcome.actions.push({ type: action.type, done: false, detail: message.slice(0, 500) });
      }
    }
    // The last-path guard: a rule that may not pause tells the workspace instead.
    if (guarded && !rule.actions.some((action) => action.type === 'notify')) {
      if (apply) await this.notify(workspaceId, rule, ruleId, outcome, `${summary}; not paused (the last one enabled)`);
      outcome.actions.push({ type: 'notify', done: apply, detail: 'notified instead of pausing the last one enabled' });
    }
  }

  private async notify(
    workspaceId: number,
    rule: TRuleForm,
    ruleId: number,
    outcome: RuleRowOutcome,
    body: string,
  ): Promise<void> {
    await this.notifier.notify(workspaceId, {
      kind: 'rule',
      title: `${rule.name}: ${rule.group_by} ${outcome.label}`,
      body,
      link: `/tracker/rules/edit/${ruleId}`,
      values: { rule: rule.name, rule_id: ruleId, value: outcome.value, ...outcome.values },
    });
  }

  private async webhook(
    url: string,
    secret: string,
    ruleId: number,
    rule: TRuleForm,
    outcome: RuleRowOutcome,
  ): Promise<string> {
    const timestamp = String(Math.floor(this.now().getTime() / 1000));
    const body = JSON.stringify({
      rule: { id: ruleId, name: rule.name, group_by: rule.group_by, window: rule.window, conditions: rule.conditions },
      value: outcome.value,
      label: outcome.label,
      metrics: outcome.values,
      sent_at: new Date(Number(timestamp) * 1000).toISOString(),
    });
    const result = await sendOutbound(url, {
      timeoutMs: this.options.timeoutMs ?? 10_000,
      allowPrivateTargets: this.options.allowPrivateTargets,
      bodyLimit: 300,
      post: {
        body,
        headers: {
          'content-type': 'application/json',
          [TIMESTAMP_HEADER]: timestamp,
          [SIGNATURE_HEADER]: webhookSignature(secret, timestamp, body),
        },
      },
    });
    if (result.kind === 'refused') return `refused: ${result.reason}`;
    if (result.kind === 'failed') return `failed: ${result.error}`;
    return result.answer.status >= 200 && result.answer.status < 300 ? 'sent' : `HTTP ${result.answer.status}`;
  }

  private async coolDown(ruleId: number, workspaceId: number, value: string): Promise<void> {
    const actedAt = this.now().toISOString();
    await this.db
      .insertInto('rule_cooldowns')
      .values({ workspace_id: workspaceId, rule_id: ruleId, value, acted_at: actedAt })
      .onConflict((conflict) => conflict.columns(['rule_id', 'value']).doUpdateSet({ acted_at: actedAt }))
      .execute();
  }
}
