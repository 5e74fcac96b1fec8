// Rules (packages/domain/src/rules.ts), the log of their runs and when each rule last acted on each row
// value (its cooldown). All three are workspace-owned. A run is unique per (rule, window start), so two
// nodes never run one rule twice for one window.
import type { Generated } from 'kysely';

export interface RuleTable {
  id: Generated<number>;
  workspace_id: number;
  name: string;
  /** JSON: the rule's form but its name and enabled flag. */
  body: string;
  enabled: number;
  last_run_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface RuleRunTable {
  id: Generated<number>;
  workspace_id: number;
  rule_id: number;
  /** The run's slot: its time rounded down to the rule's schedule. */
  window_start: string;
  started_at: string;
  matched: number;
  /** JSON: RuleRowOutcome[]. */
  rows: string;
  error: string | null;
}

export interface RuleCooldownTable {
  workspace_id: number;
  rule_id: number;
  value: string;
  acted_at: string;
}
