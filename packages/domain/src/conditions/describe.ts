import type { ConditionNode, LeafCondition } from './types.js';

/** Names to show instead of ids (campaigns, segments). */
export type ConditionLabels = (variable: string, value: string) => string;

const list = (values: readonly string[], label: (value: string) => string) => `(${values.map(label).join(', ')})`;

function describeLeaf(leaf: LeafCondition, labels: ConditionLabels): string {
  const label = (value: string) => labels(leaf.data.Var, value);
  switch (leaf.type) {
    case 'EqualCondition':
      return `${leaf.data.Var} = ${label(leaf.data.Value)}`;
    case 'InCondition':
      return `${leaf.data.Var} ${leaf.data.Operation} ${list(leaf.data.Values, label)}`;
    case 'SegmentCondition':
      return `${leaf.data.Var} ${leaf.data.Value.Operation} ${list(leaf.data.Value.Values, label)}`;
    case 'VarsCondition':
      return `${leaf.data.Value.Var} ${leaf.data.Value.Operation} ${list(leaf.data.Value.Value, String)}`;
    case 'BetweenCondition':
      return `${leaf.data.Var} ${leaf.data.Values.Start}–${leaf.data.Values.End} ${leaf.data.Values.Timezone}`;
    case 'CompareIntCondition':
      return `${leaf.data.Var} ${leaf.data.Values.Comparator} ${leaf.data.Values.Value}`;
  }
}

/**
 * A one-line reading of a tree for labels (path-group header, payout rule), e.g.
 * `countryCode IN (US, CA) AND NOT (device IN (mobile))`. AllCondition reads as "All Condition".
 */
export function describeCondition(node: ConditionNode, labels: ConditionLabels = (_, value) => value): string {
  const inner = (child: ConditionNode) => {
    const text = describeCondition(child, labels);
    return child.type === 'AndCondition' || child.type === 'OrCondition' ? `(${text})` : text;
  };
  switch (node.type) {
    case 'AllCondition':
      return 'All Condition';
    case 'NotCondition': {
      const child = node.data.Condition;
      const text = describeCondition(child, labels);
      return `NOT (${text})`;
    }
    case 'AndCondition':
      return node.data.Conditions.map(inner).join(' AND ');
    case 'OrCondition':
      return node.data.Conditions.map(inner).join(' OR ');
    default:
      return describeLeaf(node, labels);
  }
}
