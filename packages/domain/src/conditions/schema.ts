import { z } from 'zod';
import { CONDITION_MAX_DEPTH } from '../constants.js';
import { VALIDATION_MESSAGES as M } from '../messages.js';
import { conditionSizeProblem, measureCondition } from './measure.js';
import { COMPARATORS, type ConditionNode, IN_OPERATIONS, VARS_OPERATIONS } from './types.js';
import { type ConditionValueProblem, conditionValueProblem } from './value-checks.js';

const ZVar = z.string().min(1).max(64);
const ZValueList = z.array(z.string().max(1024)).max(10_000);
const ZTime = z.string().regex(/^\d\d:\d\d$/);

/** The shape of every node of §3.8. Recursive: only for trees already measured. */
const ZConditionShape: z.ZodType<ConditionNode> = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('AllCondition') }).strict(),
    z.object({ type: z.literal('NotCondition'), data: z.object({ Condition: ZConditionShape }) }),
    z.object({ type: z.literal('AndCondition'), data: z.object({ Conditions: z.array(ZConditionShape) }) }),
    z.object({ type: z.literal('OrCondition'), data: z.object({ Conditions: z.array(ZConditionShape) }) }),
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
      data: z.object({
        Var: ZVar,
        // Which field allows which operation is checked with the values (value-checks.ts).
        Operation: z.enum(VARS_OPERATIONS).default('IN'),
        Values: ZValueList,
        Timezone: z.string().max(64).optional(),
      }),
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

/**
 * The shape of every node of §3.8; the server refuses anything else. Measured first, without recursion, so
 * a tree too deep or too large for the schema's recursion is refused instead of overflowing the stack.
 */
export const ZConditionNode: z.ZodType<ConditionNode> = z
  .unknown()
  .superRefine((value, context) => {
    const problem = conditionSizeProblem(value, Number.POSITIVE_INFINITY);
    if (problem) {
      context.addIssue({ code: 'custom', message: problem === 'depth' ? M.conditionTooDeep : M.conditionTooLarge });
    }
  })
  .pipe(ZConditionShape) as unknown as z.ZodType<ConditionNode>;

/** Group levels of a stored tree as the builder shows it: the top group is depth 1. */
export function conditionDepth(node: ConditionNode): number {
  return measureCondition(node).depth;
}

export type ConditionTextProblem = 'json' | 'shape' | 'depth' | 'size' | 'value';

export type ParsedConditionText =
  | { tree: ConditionNode; problem?: undefined; detail?: undefined }
  | { tree?: undefined; problem: ConditionTextProblem; detail?: ConditionValueProblem };

/**
 * Parses stored condition text; `problem` says why it cannot be stored, and for `value` `detail` names
 * the field and the value. `checkValues` false reads a tree by its shape only (the builder
 * shows what is stored as it is).
 */
export function parseConditionText(
  text: string,
  maxDepth = CONDITION_MAX_DEPTH,
  checkValues = true,
): ParsedConditionText {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'json' };
  }
  // Measured before the schema: its recursion would overflow the stack on a hostile tree.
  const problem = conditionSizeProblem(value, maxDepth);
  if (problem) return { problem };
  const parsed = ZConditionShape.safeParse(value);
  if (!parsed.success) return { problem: 'shape' };
  const detail = checkValues ? conditionValueProblem(parsed.data) : undefined;
  if (detail) return { problem: 'value', detail };
  return { tree: parsed.data };
}
