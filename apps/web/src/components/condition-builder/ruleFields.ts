import {
  CONDITION_FIELDS,
  type Comparator,
  type ConditionField,
  IN_OPERATIONS,
  type LeafType,
  VARS_OPERATIONS,
} from '@switchyard/domain';
import type { BuilderRule } from './builderTree';

const OPERATIONS_OF: Record<LeafType, readonly string[]> = {
  EqualCondition: [],
  InCondition: IN_OPERATIONS,
  SegmentCondition: IN_OPERATIONS,
  VarsCondition: VARS_OPERATIONS,
  BetweenCondition: [],
  CompareIntCondition: [],
};

/**
 * The §3.9 field a rule edits. A stored rule on a field the builder does not know (an older or hand-made
 * tree) keeps a plain control for its leaf type, so it is shown and saved as it is rather than lost.
 */
export function fieldOfRule(rule: BuilderRule): ConditionField {
  const known = CONDITION_FIELDS.find((field) => field.var === rule.var && field.condition === rule.condition);
  if (known) return known;
  return { var: rule.var, condition: rule.condition, control: 'text', operations: OPERATIONS_OF[rule.condition] };
}

/** i18n key suffixes of the operations (keys cannot hold the spaces of "NOT IN", "starts with"). */
export const OPERATION_KEYS: Record<string, string> = {
  IN: 'in',
  'NOT IN': 'notIn',
  contains: 'contains',
  'starts with': 'startsWith',
  'ends with': 'endsWith',
};

export const COMPARATOR_KEYS: Record<Comparator, string> = {
  '>': 'gt',
  '>=': 'gte',
  '<': 'lt',
  '<=': 'lte',
  '==': 'eq',
  '!=': 'ne',
};

/** Platform names as their makers write them; the same in every language. */
export const PLATFORM_NAMES: Record<string, string> = {
  linux: 'Linux',
  windows: 'Windows',
  mac: 'macOS',
  ios: 'iOS',
  android: 'Android',
  bsd: 'BSD',
  chromeos: 'ChromeOS',
};
