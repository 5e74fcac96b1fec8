import { findRegion } from './regions.js';
import type { ConditionNode, LeafCondition } from './types.js';
import { normalizeAsn } from './visitor-values.js';

/** Names to show instead of ids (campaigns, segments). */
export type ConditionLabels = (variable: string, value: string) => string;

const list = (values: readonly string[], label: (value: string) => string) => `(${values.map(label).join(', ')})`;

/** Values of the visitor fields in words (`California (US-CA)`, `AS15169`). */
function visitorValue(field: string, value: string): string {
  if (field === 'region') {
    const region = findRegion(value);
    return region ? `${region.name} (${region.value.includes(':') ? region.country : region.value})` : value;
  }
  if (field === 'asn') {
    const asn = normalizeAsn(value);
    return asn === null ? value : `AS${asn}`;
  }
  return value;
}

function describeLeaf(leaf: LeafCondition, labels: ConditionLabels): string {
  const label = (value: string) => labels(leaf.data.Var, visitorValue(leaf.data.Var, value));
  switch (leaf.type) {
    case 'EqualCondition':
      return `${leaf.data.Var} = ${label(leaf.data.Value)}`;
    case 'InCondition': {
      const text = `${leaf.data.Var} ${leaf.data.Operation} ${list(leaf.data.Values, label)}`;
      // weekday: the day is read in the rule's zone, UTC when none is set.
      return leaf.data.Var === 'weekday' ? `${text} ${leaf.data.Timezone || 'UTC'}` : text;
    }
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
