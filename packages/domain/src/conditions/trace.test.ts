import { describe, expect, it } from 'vitest';
import { type ConditionContext, type ConditionTrace, compileCondition, traceCondition } from './evaluate.js';
import type { ConditionNode } from './types.js';

// A trace explains a verdict leaf by leaf, and its verdict is always the compiled test's.

const context: ConditionContext = {
  fields: { countryCode: 'US', region: 'US-CA', language: 'fr', isBot: 'false', age: 30, ip: '203.0.113.7' },
  vars: { utm_source: 'News' },
  // Friday 27 November 2026, 23:30 UTC.
  now: new Date('2026-11-27T23:30:00Z'),
  inSegment: (id) => id === 'seg-in',
};

const inRule = (Var: string, Values: string[], Operation = 'IN', extra: object = {}): ConditionNode =>
  ({ type: 'InCondition', data: { Var, Operation, Values, ...extra } }) as ConditionNode;
const and = (...Conditions: ConditionNode[]): ConditionNode => ({ type: 'AndCondition', data: { Conditions } });
const or = (...Conditions: ConditionNode[]): ConditionNode => ({ type: 'OrCondition', data: { Conditions } });
const not = (Condition: ConditionNode): ConditionNode => ({ type: 'NotCondition', data: { Condition } });

/** The leaves' tested values and verdicts, depth first. */
function leaves(trace: ConditionTrace): [unknown, boolean][] {
  if ('value' in trace) return [[trace.value, trace.verdict]];
  if ('conditions' in trace) return trace.conditions.flatMap(leaves);
  if ('condition' in trace) return leaves(trace.condition);
  return [];
}

describe('traceCondition', () => {
  const cases: [string, ConditionNode, [unknown, boolean][]][] = [
    ['country in', inRule('countryCode', ['us', 'gb']), [['US', true]]],
    ['region not in', inRule('region', ['US-NY'], 'NOT IN'), [['US-CA', true]]],
    ['a field the subject lacks', inRule('city', ['paris']), [[null, false]]],
    ['isBot equal', { type: 'EqualCondition', data: { Var: 'isBot', Value: 'true' } }, [['false', false]]],
    ['ip CIDR', inRule('ip', ['203.0.113.0/24']), [['203.0.113.7', true]]],
    [
      'age compare',
      { type: 'CompareIntCondition', data: { Var: 'age', Values: { Value: 18, Comparator: '>=' } } },
      [[30, true]],
    ],
    [
      'var contains',
      {
        type: 'VarsCondition',
        data: { Var: 'vars', Value: { Var: 'utm_source', Operation: 'contains', Value: ['news'] } },
      },
      [['News', true]],
    ],
    [
      'segment',
      {
        type: 'SegmentCondition',
        data: { Var: 'segmentId', Value: { Operation: 'IN', Values: ['seg-out', 'seg-in'] } },
      },
      [[['seg-in'], true]],
    ],
    [
      'time window in Tokyo',
      {
        type: 'BetweenCondition',
        data: { Var: 'timeOfDay', Values: { Start: '08:00', End: '09:00', Timezone: 'Asia/Tokyo' } },
      },
      [['08:30', true]],
    ],
    ['weekday in Tokyo', inRule('weekday', ['sat'], 'IN', { Timezone: 'Asia/Tokyo' }), [['sat', true]]],
    [
      'AND traces every child past a false one',
      and(inRule('countryCode', ['gb']), inRule('language', ['fr'])),
      [
        ['US', false],
        ['fr', true],
      ],
    ],
    ['NOT inverts', not(inRule('language', ['fr'])), [['fr', true]]],
  ];

  it.each(cases)('%s: each leaf with its value and verdict', (_name, node, expected) => {
    const trace = traceCondition(node, context);
    expect(leaves(trace)).toEqual(expected);
    expect(trace.verdict).toBe(compileCondition(node)(context));
  });

  it('gives each group its verdict as the compiled test reads it', () => {
    const tree = or(and(inRule('countryCode', ['gb']), inRule('language', ['fr'])), not(inRule('isBot', ['true'])));
    const trace = traceCondition(tree, context);
    expect(trace).toMatchObject({
      type: 'OrCondition',
      verdict: true,
      conditions: [
        { type: 'AndCondition', verdict: false },
        { type: 'NotCondition', verdict: true, condition: { type: 'InCondition', verdict: false, value: 'false' } },
      ],
    });
    expect(traceCondition(or(), context).verdict).toBe(compileCondition(or())(context));
    expect(traceCondition({ type: 'AllCondition' }, context)).toEqual({ type: 'AllCondition', verdict: true });
  });

  it('names the leaf it traced', () => {
    const trace = traceCondition(inRule('countryCode', ['us']), context);
    expect(trace).toEqual({
      type: 'InCondition',
      verdict: true,
      data: { Var: 'countryCode', Operation: 'IN', Values: ['us'] },
      value: 'US',
    });
  });
});
