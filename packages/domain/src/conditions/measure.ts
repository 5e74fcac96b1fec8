// The size of a condition tree read off raw JSON, before any schema sees it: zod and every other reader
// of the tree recurse, so a hostile tree thousands of levels deep must be stopped by a walk that does not.
import { CONDITION_MAX_DEPTH, CONDITION_MAX_NESTING, CONDITION_MAX_NODES } from '../constants.js';

export type ConditionSizeProblem = 'depth' | 'size';

export interface ConditionMeasure {
  /** Group levels as the builder shows them (§5.5): the top group is 1, a chain of NOTs adds one group. */
  depth: number;
  /** Node levels on the longest branch, every AND, OR, NOT and leaf counted. */
  nesting: number;
  nodes: number;
}

interface Visit {
  node: unknown;
  /** Builder groups enclosing this node. */
  groups: number;
  /** Nodes above this one, itself included. */
  nesting: number;
  /** Under a NOT: a leaf here is a group of its own in the builder. */
  negated: boolean;
}

const typeOf = (node: unknown): unknown =>
  node !== null && typeof node === 'object' ? (node as { type?: unknown }).type : undefined;

const dataOf = (node: unknown): Record<string, unknown> => {
  const data = node !== null && typeof node === 'object' ? (node as { data?: unknown }).data : undefined;
  return data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : {};
};

/**
 * Measures any parsed JSON as a condition tree, with an explicit stack. Anything that is not a group or a
 * NOT counts as a leaf (its shape is the schema's business). The walk stops as soon as a limit is passed,
 * so its cost is bounded by the limits, not by what was sent.
 */
export function measureCondition(
  value: unknown,
  limits: { depth: number; nesting: number; nodes: number } = {
    depth: Number.POSITIVE_INFINITY,
    nesting: Number.POSITIVE_INFINITY,
    nodes: Number.POSITIVE_INFINITY,
  },
): ConditionMeasure {
  const measure: ConditionMeasure = { depth: 0, nesting: 0, nodes: 0 };
  const stack: Visit[] = [{ node: value, groups: 0, nesting: 1, negated: false }];
  while (stack.length > 0) {
    const { node, groups, nesting, negated } = stack.pop() as Visit;
    measure.nodes += 1;
    measure.nesting = Math.max(measure.nesting, nesting);
    const type = typeOf(node);
    if (type === 'AndCondition' || type === 'OrCondition') {
      // A NOT around a group is that group, not one more.
      measure.depth = Math.max(measure.depth, groups + 1);
      const children = dataOf(node).Conditions;
      if (Array.isArray(children)) {
        for (const child of children)
          stack.push({ node: child, groups: groups + 1, nesting: nesting + 1, negated: false });
      }
    } else if (type === 'NotCondition') {
      stack.push({ node: dataOf(node).Condition, groups, nesting: nesting + 1, negated: true });
    } else if (type !== 'AllCondition') {
      // A leaf sits in its enclosing group; a top-level leaf is shown in a group of its own.
      measure.depth = Math.max(measure.depth, negated || groups === 0 ? groups + 1 : groups);
    }
    if (measure.depth > limits.depth || measure.nesting > limits.nesting || measure.nodes > limits.nodes) break;
  }
  return measure;
}

/** Why a parsed tree is too big to read (§5.5 depth, and the limits beside it), or undefined. */
export function conditionSizeProblem(
  value: unknown,
  maxDepth: number = CONDITION_MAX_DEPTH,
): ConditionSizeProblem | undefined {
  const limits = { depth: maxDepth, nesting: CONDITION_MAX_NESTING, nodes: CONDITION_MAX_NODES };
  const measure = measureCondition(value, limits);
  if (measure.depth > limits.depth || measure.nesting > limits.nesting) return 'depth';
  if (measure.nodes > limits.nodes) return 'size';
  return undefined;
}
