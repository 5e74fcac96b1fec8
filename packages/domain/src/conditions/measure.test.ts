import { describe, expect, it } from 'vitest';
import { CONDITION_MAX_NESTING, CONDITION_MAX_NODES } from '../constants.js';
import { VALIDATION_MESSAGES as M } from '../messages.js';
import { editorDepth, toEditorForm } from './convert.js';
import { conditionSizeProblem, measureCondition } from './measure.js';
import { parseConditionText, ZConditionNode } from './schema.js';
import type { ConditionNode } from './types.js';

const leaf: ConditionNode = { type: 'InCondition', data: { Var: 'countryCode', Operation: 'IN', Values: ['US'] } };
const and = (...Conditions: ConditionNode[]): ConditionNode => ({ type: 'AndCondition', data: { Conditions } });
const or = (...Conditions: ConditionNode[]): ConditionNode => ({ type: 'OrCondition', data: { Conditions } });
const not = (Condition: ConditionNode): ConditionNode => ({ type: 'NotCondition', data: { Condition } });

/** `levels` wrappings of one leaf, built as text: a tree this deep cannot go through JSON.stringify. */
function chainText(kind: 'AndCondition' | 'OrCondition' | 'NotCondition', levels: number): string {
  const [open, close] =
    kind === 'NotCondition'
      ? ['{"type":"NotCondition","data":{"Condition":', '}}']
      : [`{"type":"${kind}","data":{"Conditions":[`, ']}}'];
  return open.repeat(levels) + JSON.stringify(leaf) + close.repeat(levels);
}

const wideText = (nodes: number) => JSON.stringify(and(...Array.from({ length: nodes - 1 }, () => leaf)));

describe('measuring a tree without recursion', () => {
  it.each<[string, ConditionNode, number]>([
    ['a leaf, shown in a group of its own', leaf, 1],
    ['AllCondition', { type: 'AllCondition' }, 0],
    ['a group', and(leaf), 1],
    ['a NOT around a group, that group', not(and(leaf, leaf)), 1],
    ['a NOT around a leaf inside a group, a group of its own', and(not(leaf)), 2],
    ['a chain of NOTs, one group as the builder shows it', and(not(not(not(leaf)))), 2],
    ['a double NOT around groups, each group', not(not(and(or(leaf)))), 2],
  ])('counts group levels as the builder does: %s', (_case, tree, depth) => {
    expect(measureCondition(tree).depth).toBe(depth);
    if (tree.type !== 'AllCondition') expect(editorDepth(toEditorForm(tree))).toBe(depth);
  });

  it('counts nodes and node levels', () => {
    expect(measureCondition(and(leaf, not(leaf), or()))).toEqual({ depth: 2, nesting: 3, nodes: 5 });
  });

  it.each(['AndCondition', 'OrCondition', 'NotCondition'] as const)(
    'refuses %s nested 10,000 levels as too deep, before any recursion',
    (kind) => {
      const text = chainText(kind, 10_000);
      expect(parseConditionText(text).problem).toBe('depth');
      // Even where no depth limit applies (the dashboard reading a stored tree), the nesting ceiling holds.
      expect(parseConditionText(text, Number.POSITIVE_INFINITY).problem).toBe('depth');
      const parsed = ZConditionNode.safeParse(JSON.parse(text));
      expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([M.conditionTooDeep]);
    },
  );

  it('allows nesting up to the ceiling where the depth limit is lifted, and not one more', () => {
    const atCeiling = chainText('NotCondition', CONDITION_MAX_NESTING - 1);
    expect(parseConditionText(atCeiling, Number.POSITIVE_INFINITY).problem).toBeUndefined();
    expect(parseConditionText(chainText('NotCondition', CONDITION_MAX_NESTING), Infinity).problem).toBe('depth');
  });

  it('refuses a tree of more nodes than the limit as too large, and takes one at the limit', () => {
    expect(parseConditionText(wideText(CONDITION_MAX_NODES)).problem).toBeUndefined();
    expect(parseConditionText(wideText(CONDITION_MAX_NODES + 1)).problem).toBe('size');
    expect(parseConditionText(wideText(100_000)).problem).toBe('size');
    expect(conditionSizeProblem(JSON.parse(wideText(100_000)))).toBe('size');
  });

  it('measures anything JSON can hold without throwing', () => {
    for (const value of [null, 3, 'x', [], { type: 'AndCondition' }, { type: 'NotCondition', data: null }]) {
      expect(conditionSizeProblem(value)).toBeUndefined();
    }
  });
});
