import type { Rule, RuleActionKind, RuleGroup, TRuleAction, TRuleForm } from '@switchyard/domain';

/** What the form edits: numbers stay text until sent, so a cleared field is not read as 0. */
export interface ConditionValues {
  metric: string;
  operator: TRuleForm['conditions'][number]['operator'];
  value: string;
  min_clicks: string;
}

export interface ActionValues {
  type: RuleActionKind;
  weight: string;
  url: string;
  secret: string;
}

export type WindowUnit = 'minutes' | 'hours' | 'days';
export const WINDOW_UNITS: readonly WindowUnit[] = ['minutes', 'hours', 'days'];
const UNIT_MINUTES: Record<WindowUnit, number> = { minutes: 1, hours: 60, days: 1440 };

export interface RuleValues {
  name: string;
  enabled: boolean;
  scopeKind: TRuleForm['scope']['kind'];
  scopeId: string;
  group_by: RuleGroup;
  window: string;
  windowUnit: WindowUnit;
  conditions: ConditionValues[];
  actions: ActionValues[];
  schedule: string;
  cooldown: string;
}

export const NEW_CONDITION: ConditionValues = { metric: 'clicks', operator: '>=', value: '', min_clicks: '100' };
export const NEW_ACTION: ActionValues = { type: 'notify', weight: '0', url: '', secret: '' };

/** The largest unit that holds the window whole: 1440 minutes read as 1 day. */
function windowParts(minutes: number): { window: string; windowUnit: WindowUnit } {
  const unit = [...WINDOW_UNITS].reverse().find((candidate) => minutes % UNIT_MINUTES[candidate] === 0) ?? 'minutes';
  return { window: String(minutes / UNIT_MINUTES[unit]), windowUnit: unit };
}

export function initialValues(rule: Rule | null): RuleValues {
  if (!rule) {
    return {
      name: '',
      enabled: true,
      scopeKind: 'workspace',
      scopeId: '',
      group_by: 'campaign',
      window: '1',
      windowUnit: 'days',
      conditions: [{ ...NEW_CONDITION }],
      actions: [{ ...NEW_ACTION }],
      schedule: '5',
      cooldown: '60',
    };
  }
  return {
    name: rule.name,
    enabled: rule.enabled,
    scopeKind: rule.scope.kind,
    scopeId: rule.scope.id ?? '',
    group_by: rule.group_by,
    ...windowParts(rule.window),
    conditions: rule.conditions.map((condition) => ({
      metric: condition.metric,
      operator: condition.operator,
      value: String(condition.value),
      min_clicks: String(condition.min_clicks),
    })),
    actions: rule.actions.map((action) => ({
      ...NEW_ACTION,
      type: action.type,
      weight: action.type === 'set_weight' ? String(action.weight) : NEW_ACTION.weight,
      url: action.type === 'webhook' ? action.url : '',
    })),
    schedule: String(rule.schedule),
    cooldown: String(rule.cooldown),
  };
}

/** A field's text as a number; an empty or broken one is sent as it is, for the server to name. */
function numberOf(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

function actionOf(action: ActionValues): TRuleAction {
  switch (action.type) {
    case 'set_weight':
      return { type: 'set_weight', weight: numberOf(action.weight) };
    case 'webhook':
      return { type: 'webhook', url: action.url, secret: action.secret };
    default:
      return { type: action.type };
  }
}

/** The rule the API takes. NaN is sent as null by JSON, which the server refuses on its field. */
export function formOf(values: RuleValues): TRuleForm {
  return {
    name: values.name,
    enabled: values.enabled,
    scope: values.scopeKind === 'workspace' ? { kind: 'workspace' } : { kind: values.scopeKind, id: values.scopeId },
    group_by: values.group_by,
    window: numberOf(values.window) * UNIT_MINUTES[values.windowUnit],
    conditions: values.conditions.map((condition) => ({
      metric: condition.metric,
      operator: condition.operator,
      value: numberOf(condition.value),
      min_clicks: condition.min_clicks.trim() === '' ? 0 : numberOf(condition.min_clicks),
    })),
    actions: values.actions.map(actionOf),
    schedule: numberOf(values.schedule),
    cooldown: numberOf(values.cooldown),
  };
}
