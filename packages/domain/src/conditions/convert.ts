// Conversion between the stored tree and the builder's editor form (§3.8), with the pruning of §5.4 on
// the way back: invalid leaves, leaves with empty value lists and groups with no children are dropped.
import {
  ALL_CONDITION,
  COMPARATORS,
  type Comparator,
  type ConditionNode,
  type EditorGroup,
  type EditorNode,
  type EditorRule,
  IN_OPERATIONS,
  type InOperation,
  type LeafCondition,
  VARS_OPERATIONS,
  type VarsOperation,
} from './types.js';

export function emptyGroup(): EditorGroup {
  return { type: 'group', condition: 'AND', not: false, children: [] };
}

function leafToRule(leaf: LeafCondition): EditorRule {
  switch (leaf.type) {
    case 'EqualCondition':
      return { type: 'rule', condition: leaf.type, var: leaf.data.Var, values: leaf.data.Value };
    case 'SegmentCondition':
      return {
        type: 'rule',
        condition: leaf.type,
        var: leaf.data.Var,
        operation: leaf.data.Value.Operation,
        values: [...leaf.data.Value.Values],
      };
    case 'VarsCondition':
      return {
        type: 'rule',
        condition: leaf.type,
        var: leaf.data.Var,
        key: leaf.data.Value.Var,
        operation: leaf.data.Value.Operation,
        values: [...leaf.data.Value.Value],
      };
    case 'InCondition':
      return {
        type: 'rule',
        condition: leaf.type,
        var: leaf.data.Var,
        operation: leaf.data.Operation ?? 'IN',
        values: [...leaf.data.Values],
        ...(leaf.data.Timezone === undefined ? {} : { timezone: leaf.data.Timezone }),
      };
    case 'BetweenCondition':
      return { type: 'rule', condition: leaf.type, var: leaf.data.Var, values: { ...leaf.data.Values } };
    case 'CompareIntCondition':
      return { type: 'rule', condition: leaf.type, var: leaf.data.Var, values: { ...leaf.data.Values } };
  }
}

function toEditorNode(node: ConditionNode): EditorNode {
  switch (node.type) {
    case 'AllCondition':
      return emptyGroup();
    case 'AndCondition':
    case 'OrCondition':
      return {
        type: 'group',
        condition: node.type === 'AndCondition' ? 'AND' : 'OR',
        not: false,
        children: node.data.Conditions.map(toEditorNode),
      };
    case 'NotCondition': {
      // A NOT group is stored as a NotCondition wrapping the group.
      const inner = toEditorNode(node.data.Condition);
      if (inner.type === 'group') return { ...inner, not: !inner.not };
      return { type: 'group', condition: 'AND', not: true, children: [inner] };
    }
    default:
      return leafToRule(node);
  }
}

/** The stored tree as the builder edits it: always a group at the top. */
export function toEditorForm(node: ConditionNode): EditorGroup {
  const editor = toEditorNode(node);
  return editor.type === 'group' ? editor : { ...emptyGroup(), children: [editor] };
}

const isTime = (value: unknown): value is string => typeof value === 'string' && /^\d\d:\d\d$/.test(value);
const isNonEmptyList = (value: unknown): value is string[] => Array.isArray(value) && value.length > 0;
const isIn = (value: unknown): value is InOperation => IN_OPERATIONS.includes(value as InOperation);

/** A rule as a stored leaf, or null when §5.4 discards it. */
export function ruleToLeaf(rule: EditorRule): LeafCondition | null {
  switch (rule.condition) {
    case 'EqualCondition': {
      const value = rule.values as unknown;
      if (typeof value !== 'string' || value.trim() === '') return null;
      return { type: 'EqualCondition', data: { Var: rule.var, Value: value } };
    }
    case 'SegmentCondition': {
      if (!isIn(rule.operation) || !isNonEmptyList(rule.values)) return null;
      return {
        type: 'SegmentCondition',
        data: { Var: rule.var, Value: { Operation: rule.operation, Values: [...rule.values] } },
      };
    }
    case 'VarsCondition': {
      const operation = rule.operation as VarsOperation;
      if (typeof rule.key !== 'string' || rule.key.trim() === '') return null;
      if (!VARS_OPERATIONS.includes(operation) || !isNonEmptyList(rule.values)) return null;
      return {
        type: 'VarsCondition',
        data: { Var: rule.var, Value: { Var: rule.key.trim(), Operation: operation, Value: [...rule.values] } },
      };
    }
    case 'InCondition': {
      // Which field allows matching by part is for validation to say; here any operation of the shape.
      const operation = (rule.operation ?? 'IN') as VarsOperation;
      if (!VARS_OPERATIONS.includes(operation) || !isNonEmptyList(rule.values)) return null;
      const data = { Var: rule.var, Operation: operation, Values: [...rule.values] };
      // weekday: the zone its day is read in travels with the leaf.
      return {
        type: 'InCondition',
        data: typeof rule.timezone === 'string' ? { ...data, Timezone: rule.timezone } : data,
      };
    }
    case 'BetweenCondition': {
      const values = rule.values as { Start?: unknown; End?: unknown; Timezone?: unknown } | null;
      if (!values || !isTime(values.Start) || !isTime(values.End) || typeof values.Timezone !== 'string') {
        return null;
      }
      return {
        type: 'BetweenCondition',
        data: { Var: rule.var, Values: { Start: values.Start, End: values.End, Timezone: values.Timezone } },
      };
    }
    case 'CompareIntCondition': {
      const values = rule.values as { Value?: unknown; Comparator?: unknown } | null;
      const value = values?.Value;
      // §5.4: Value must be 0 or a truthy number.
      if (typeof value !== 'number' || !(value === 0 || value) || !Number.isFinite(value)) return null;
      if (!COMPARATORS.includes(values?.Comparator as Comparator)) return null;
      return {
        type: 'CompareIntCondition',
        data: { Var: rule.var, Values: { Value: Math.trunc(value), Comparator: values?.Comparator as Comparator } },
      };
    }
  }
}

function groupToNode(group: EditorGroup): ConditionNode | null {
  const children = group.children
    .map((child) => (child.type === 'group' ? groupToNode(child) : ruleToLeaf(child)))
    .filter((child): child is ConditionNode => child !== null);
  if (children.length === 0) return null;
  const node: ConditionNode =
    group.condition === 'OR'
      ? { type: 'OrCondition', data: { Conditions: children } }
      : { type: 'AndCondition', data: { Conditions: children } };
  return group.not ? { type: 'NotCondition', data: { Condition: node } } : node;
}

/** The editor form as the tree to store, pruned per §5.4; nothing left is AllCondition. */
export function fromEditorForm(group: EditorGroup): ConditionNode {
  return groupToNode(group) ?? ALL_CONDITION;
}

/** A stored tree with the §5.4 pruning applied, as the builder would save it. */
export function pruneCondition(node: ConditionNode): ConditionNode {
  return fromEditorForm(toEditorForm(node));
}

/** Group levels of an editor form, the top group being depth 1. */
export function editorDepth(group: EditorGroup): number {
  return 1 + Math.max(0, ...group.children.map((child) => (child.type === 'group' ? editorDepth(child) : 0)));
}
