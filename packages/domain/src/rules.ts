import { z } from 'zod';
import { ZName } from './fields.js';
import { VALIDATION_MESSAGES as M } from './messages.js';
import { CUSTOM_METRIC_KEY, REPORT_METRICS, REPORT_VAR_FILTERS } from './reports.js';

/**
 * Rules that watch the money: every `schedule` minutes, read the report grouped by `group_by` over the last
 * `window` minutes, and act on each row where every condition holds on at least its minimum sample.
 */
export const RULE_SCOPE_KINDS = ['workspace', 'campaign', 'traffic_source'] as const;
export const RULE_GROUPS = ['campaign', 'offer', 'lander', 'path', ...REPORT_VAR_FILTERS] as const;
export type RuleGroup = (typeof RULE_GROUPS)[number];
export const RULE_OPERATORS = ['>', '>=', '<', '<=', '='] as const;
export const RULE_ACTIONS = ['notify', 'pause', 'exclude', 'set_weight', 'webhook'] as const;
export type RuleActionKind = (typeof RULE_ACTIONS)[number];
export const RULE_WINDOW_MIN = 15;
export const RULE_WINDOW_MAX = 43_200;

/** Which group_by each action fits: pausing and weighing touch a flow's rows; excluding, a campaign's var. */
export const ACTION_GROUPS: Record<RuleActionKind, readonly RuleGroup[]> = {
  notify: RULE_GROUPS,
  webhook: RULE_GROUPS,
  pause: ['path', 'offer', 'lander'],
  set_weight: ['path', 'offer', 'lander'],
  exclude: REPORT_VAR_FILTERS,
};

const ZMetric = z
  .string({ error: M.required })
  .trim()
  .max(100, { error: M.tooLong })
  .refine((value) => (REPORT_METRICS as readonly string[]).includes(value) || CUSTOM_METRIC_KEY.test(value), {
    error: `Use a report metric (${REPORT_METRICS.join(', ')}) or a custom metric's key (cm_…).`,
  });

export const ZRuleCondition = z.object({
  metric: ZMetric,
  operator: z.enum(RULE_OPERATORS),
  value: z.number({ error: 'Use a number.' }).finite().min(-1e12).max(1e12),
  min_clicks: z.number().int().min(0).max(1e9).default(0),
});
export type TRuleCondition = z.infer<typeof ZRuleCondition>;

const httpUrl = z
  .string({ error: M.required })
  .trim()
  .max(2000, { error: M.tooLong })
  .refine((value) => /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value), { error: M.invalidUrl });

export const ZRuleAction = z.discriminatedUnion('type', [
  z.object({ type: z.literal('notify') }),
  z.object({ type: z.literal('pause') }),
  z.object({ type: z.literal('exclude') }),
  z.object({ type: z.literal('set_weight'), weight: z.number().int().min(0).max(1000) }),
  z.object({
    type: z.literal('webhook'),
    url: httpUrl,
    secret: z.string().max(500, { error: M.tooLong }).default(''),
  }),
]);
export type TRuleAction = z.infer<typeof ZRuleAction>;

export const ZRuleScope = z
  .object({ kind: z.enum(RULE_SCOPE_KINDS), id: z.string().trim().max(100).optional() })
  .superRefine((scope, context) => {
    if (scope.kind !== 'workspace' && !scope.id)
      context.addIssue({ code: 'custom', path: ['id'], message: M.required });
  });

export const ZRuleForm = z
  .object({
    name: ZName,
    scope: ZRuleScope.default({ kind: 'workspace' }),
    group_by: z.enum(RULE_GROUPS),
    window: z
      .number({ error: 'Use a number of minutes.' })
      .int()
      .min(RULE_WINDOW_MIN, { error: `Use ${RULE_WINDOW_MIN} to ${RULE_WINDOW_MAX} minutes (30 days).` })
      .max(RULE_WINDOW_MAX, { error: `Use ${RULE_WINDOW_MIN} to ${RULE_WINDOW_MAX} minutes (30 days).` }),
    conditions: z.array(ZRuleCondition).min(1).max(20),
    actions: z.array(ZRuleAction).min(1).max(10),
    schedule: z.number().int().min(1).max(1440).default(5),
    cooldown: z.number().int().min(0).max(RULE_WINDOW_MAX).default(60),
    enabled: z.boolean().default(true),
  })
  .superRefine((rule, context) => {
    rule.actions.forEach((action, index) => {
      if (!ACTION_GROUPS[action.type].includes(rule.group_by)) {
        context.addIssue({
          code: 'custom',
          path: ['actions', index, 'type'],
          message: `${action.type} does not fit group_by ${rule.group_by}; use ${ACTION_GROUPS[action.type].join(', ')}.`,
        });
      }
    });
    if (rule.actions.some((action) => action.type === 'exclude') && rule.scope.kind !== 'campaign') {
      context.addIssue({ code: 'custom', path: ['scope', 'kind'], message: 'exclude needs a campaign scope.' });
    }
  });
export type TRuleForm = z.infer<typeof ZRuleForm>;

export interface Rule extends TRuleForm {
  id: number;
  created_at: string;
  updated_at: string;
  last_run_at: string | null;
}

/** What one row of a run did or would do. */
export interface RuleRowOutcome {
  value: string | null;
  label: string;
  values: Record<string, number>;
  actions: { type: RuleActionKind; done: boolean; detail: string }[];
}

export interface RuleRun {
  id: number;
  started_at: string;
  window_start: string;
  matched: number;
  rows: RuleRowOutcome[];
  error: string | null;
}

/** API answers (webhook secrets are never sent back: empty on a change keeps the stored one). */
export const ZRuleAnswer = z.object({
  id: z.number(),
  name: z.string(),
  scope: z.object({ kind: z.enum(RULE_SCOPE_KINDS), id: z.string().optional() }),
  group_by: z.enum(RULE_GROUPS),
  window: z.number(),
  conditions: z.array(ZRuleCondition),
  actions: z.array(ZRuleAction),
  schedule: z.number(),
  cooldown: z.number(),
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  last_run_at: z.string().nullable(),
});
export const ZRuleList = z.object({ list: z.array(ZRuleAnswer), total: z.number() });
const ZRuleRowOutcome = z.object({
  value: z.string().nullable(),
  label: z.string(),
  values: z.record(z.string(), z.number()),
  actions: z.array(z.object({ type: z.enum(RULE_ACTIONS), done: z.boolean(), detail: z.string() })),
});
/** `rule_id` is null for the preview of a rule not saved yet. */
export const ZRulePreview = z.object({
  rule_id: z.number().nullable(),
  matched: z.number(),
  rows: z.array(ZRuleRowOutcome),
});
export const ZRuleRunList = z.object({
  list: z.array(
    z.object({
      id: z.number(),
      started_at: z.string(),
      window_start: z.string(),
      matched: z.number(),
      rows: z.array(ZRuleRowOutcome),
      error: z.string().nullable(),
    }),
  ),
  total: z.number(),
});
export type RulePreviewAnswer = z.infer<typeof ZRulePreview>;
