import { z } from 'zod';
import { CONDITION_MAX_DEPTH } from '../constants.js';
import { COMPARATORS, type ConditionNode, IN_OPERATIONS, VARS_OPERATIONS } from './types.js';

const ZVar = z.string().min(1).max(64);
const ZValueList = z.array(z.string().max(1024)).max(10_000);
const ZTime = z.string().regex(/^\d\d:\d\d$/);

/** The shape of every node of §3.8; the server refuses anything else. */
export const ZConditionNode: z.ZodType<ConditionNode> = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('AllCondition') }).strict(),
    z.object({ type: z.literal('NotCondition'), data: z.object({ Condition: ZConditionNode }) }),
    z.object({ type: z.literal('AndCondition'), data: z.object({ Conditions: z.array(ZConditionNode) }) }),
    z.object({ type: z.literal('OrCondition'), data: z.object({ Conditions: z.array(ZConditionNode) }) }),
    z.object({ type: z.literal('EqualCondition'), data: z.object({ Var: ZVar, Value: z.string().max(1024) }) }),
    z.object({
      type: z.literal('SegmentCondition'),
      data: z.object({ Var: ZVar, Value: z.object({ Operation: z.enum(IN_OPERATIONS), Values: ZValueList }) }),
    }),
    z.object({
      type: z.literal('VarsCondition'),
      data: z.object({
        Var: ZVar,
        Value: z.object({ Var: ZVar, Operation: z.enum(VARS_OPERATIONS), Value: ZValueList }),
      }),
    }),
    z.object({
      type: z.literal('InCondition'),
      data: z.object({ Var: ZVar, Operation: z.enum(IN_OPERATIONS).default('IN'), Values: ZValueList }),
    }),
    z.object({
      type: z.literal('BetweenCondition'),
      data: z.object({
        Var: ZVar,
        Values: z.object({ Start: ZTime, End: ZTime, Timezone: z.string().max(64) }),
      }),
    }),
    z.object({
      type: z.literal('CompareIntCondition'),
      data: z.object({
        Var: ZVar,
        Values: z.object({ Value: z.number().int(), Comparator: z.enum(COMPARATORS) }),
      }),
    }),
  ]),
) as z.ZodType<ConditionNode>;

function groupLevels(node: ConditionNode): number {
  switch (node.type) {
    case 'AllCondition':
      return 0;
    case 'NotCondition': {
      // A NOT around a group is that group; a NOT around a leaf is a group of its own in the editor.
      const inner = node.data.Condition;
      return inner.type === 'AndCondition' || inner.type === 'OrCondition' ? groupLevels(inner) : 1;
    }
    case 'AndCondition':
    case 'OrCondition':
      return 1 + Math.max(0, ...node.data.Conditions.map(groupLevels));
    default:
      return 0;
  }
}

/** Group levels of a stored tree as the builder shows it: the top group is depth 1. */
export function conditionDepth(node: ConditionNode): number {
  if (node.type === 'AllCondition') return 0;
  return Math.max(1, groupLevels(node));
}

export type ConditionTextProblem = 'json' | 'shape' | 'depth';

/** Parses stored condition text; `problem` says why it cannot be stored. */
export function parseConditionText(
  text: string,
  maxDepth = CONDITION_MAX_DEPTH,
): { tree: ConditionNode; problem?: undefined } | { tree?: undefined; problem: ConditionTextProblem } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'json' };
  }
  const parsed = ZConditionNode.safeParse(value);
  if (!parsed.success) return { problem: 'shape' };
  if (conditionDepth(parsed.data) > maxDepth) return { problem: 'depth' };
  return { tree: parsed.data };
}
