import type { ConditionLabels } from './describe.js';
import type { Comparator, ConditionNode, LeafCondition } from './types.js';

/**
 * The words a condition summary is made of, in one interface language: the dashboard fills them from its
 * translations, ENGLISH_SUMMARY_WORDS is English. Lists join the language's way (Intl.ListFormat).
 */
export interface SummaryWords {
  /** The summary of a condition that lets everyone through ("Everyone"). */
  everyone: string;
  /** A field's label ("Country" for countryCode). */
  field(variable: string): string;
  /** "Country is DE or AT". */
  is(field: string, values: string): string;
  /** "Device is not mobile". */
  isNot(field: string, values: string): string;
  /** "Referrer contains google" (`operation`: contains, starts with, ends with). */
  matches(field: string, operation: 'contains' | 'starts with' | 'ends with', values: string): string;
  /** "Age more than 30". */
  compare(field: string, comparator: Comparator, value: string): string;
  /** "Time of day between 09:00 and 17:00 (Europe/Berlin)". */
  between(field: string, start: string, end: string, timezone: string): string;
  /** "not (Country is DE)". */
  not(text: string): string;
  /** Parts joined with "and". */
  all(parts: string[]): string;
  /** Parts (or values) joined with "or". */
  any(parts: string[]): string;
}

const COMPARATOR_WORDS: Record<Comparator, string> = {
  '>': 'more than',
  '>=': 'at least',
  '<': 'less than',
  '<=': 'at most',
  '==': 'equal to',
  '!=': 'not equal to',
};

const englishAnd = new Intl.ListFormat('en', { type: 'conjunction' });
const englishOr = new Intl.ListFormat('en', { type: 'disjunction' });

export const ENGLISH_SUMMARY_WORDS: SummaryWords = {
  everyone: 'Everyone',
  field: (variable) => variable,
  is: (field, values) => `${field} is ${values}`,
  isNot: (field, values) => `${field} is not ${values}`,
  matches: (field, operation, values) => `${field} ${operation} ${values}`,
  compare: (field, comparator, value) => `${field} ${COMPARATOR_WORDS[comparator]} ${value}`,
  between: (field, start, end, timezone) => `${field} between ${start} and ${end} (${timezone})`,
  not: (text) => `not (${text})`,
  all: (parts) => englishAnd.format(parts),
  any: (parts) => englishOr.format(parts),
};

function summarizeLeaf(leaf: LeafCondition, words: SummaryWords, labels: ConditionLabels): string {
  switch (leaf.type) {
    case 'EqualCondition':
      return words.is(words.field(leaf.data.Var), labels(leaf.data.Var, leaf.data.Value));
    case 'InCondition': {
      const field = words.field(leaf.data.Var);
      const values = words.any(leaf.data.Values.map((value) => labels(leaf.data.Var, value)));
      const zone = leaf.data.Var === 'weekday' ? ` (${leaf.data.Timezone || 'UTC'})` : '';
      const operation = leaf.data.Operation;
      if (operation === 'IN') return words.is(field, values) + zone;
      if (operation === 'NOT IN') return words.isNot(field, values) + zone;
      return words.matches(field, operation, values);
    }
    case 'SegmentCondition': {
      const values = words.any(leaf.data.Value.Values.map((value) => labels(leaf.data.Var, value)));
      const field = words.field(leaf.data.Var);
      return leaf.data.Value.Operation === 'IN' ? words.is(field, values) : words.isNot(field, values);
    }
    case 'VarsCondition': {
      const { Var, Operation, Value } = leaf.data.Value;
      const values = words.any(Value);
      if (Operation === 'IN') return words.is(Var, values);
      if (Operation === 'NOT IN') return words.isNot(Var, values);
      return words.matches(Var, Operation, values);
    }
    case 'BetweenCondition':
      return words.between(
        words.field(leaf.data.Var),
        leaf.data.Values.Start,
        leaf.data.Values.End,
        leaf.data.Values.Timezone,
      );
    case 'CompareIntCondition':
      return words.compare(words.field(leaf.data.Var), leaf.data.Values.Comparator, String(leaf.data.Values.Value));
  }
}

/**
 * A condition in the interface language's words, for path-group headers, payout rules and routing
 * reasons: "Country is DE and Device is mobile", "Everyone". `labels` names ids (campaigns, segments)
 * and codes (regions).
 */
export function summarizeCondition(
  node: ConditionNode,
  words: SummaryWords = ENGLISH_SUMMARY_WORDS,
  labels: ConditionLabels = (_, value) => value,
): string {
  const inner = (child: ConditionNode) => {
    const text = summarizeCondition(child, words, labels);
    const grouped = (child.type === 'AndCondition' || child.type === 'OrCondition') && child.data.Conditions.length > 1;
    return grouped ? `(${text})` : text;
  };
  switch (node.type) {
    case 'AllCondition':
      return words.everyone;
    case 'NotCondition':
      return words.not(summarizeCondition(node.data.Condition, words, labels));
    case 'AndCondition':
      return node.data.Conditions.length === 0 ? words.everyone : words.all(node.data.Conditions.map(inner));
    case 'OrCondition':
      return node.data.Conditions.length === 0 ? words.everyone : words.any(node.data.Conditions.map(inner));
    default:
      return summarizeLeaf(node, words, labels);
  }
}
