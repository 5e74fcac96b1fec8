import { describe, expect, it } from 'vitest';
import { parseCompareValue, splitBulkInsert } from './bulk-insert.js';
import { editorDepth, emptyGroup, fromEditorForm, pruneCondition, ruleToLeaf, toEditorForm } from './convert.js';
import { describeCondition } from './describe.js';
import { type ConditionContext, evaluateCondition, minuteOfDay, referencedSegments } from './evaluate.js';
import { availableConditionFields, CONDITION_FIELDS } from './fields.js';
import { conditionDepth, parseConditionText } from './schema.js';
import type { ConditionNode, EditorGroup, EditorRule } from './types.js';

const inCountry = (...codes: string[]): ConditionNode => ({
  type: 'InCondition',
  data: { Var: 'countryCode', Operation: 'IN', Values: codes },
});
const device = (operation: 'IN' | 'NOT IN', ...values: string[]): ConditionNode => ({
  type: 'InCondition',
  data: { Var: 'device', Operation: operation, Values: values },
});
const and = (...Conditions: ConditionNode[]): ConditionNode => ({ type: 'AndCondition', data: { Conditions } });
const or = (...Conditions: ConditionNode[]): ConditionNode => ({ type: 'OrCondition', data: { Conditions } });
const not = (Condition: ConditionNode): ConditionNode => ({ type: 'NotCondition', data: { Condition } });

/** The example: countryCode IN (US, CA) AND NOT (device IN (mobile)). */
const example = and(inCountry('US', 'CA'), not(and(device('IN', 'mobile'))));

const rule = (partial: Partial<EditorRule> & Pick<EditorRule, 'condition'>): EditorRule =>
  ({ type: 'rule', var: 'x', values: [], ...partial }) as EditorRule;

describe('stored tree ↔ editor form (§3.8)', () => {
  it('reads AllCondition as an empty top group and writes it back', () => {
    expect(toEditorForm({ type: 'AllCondition' })).toEqual(emptyGroup());
    expect(fromEditorForm(emptyGroup())).toEqual({ type: 'AllCondition' });
  });

  it('writes a NOT group as a NotCondition wrapping the group', () => {
    const form = toEditorForm(example);
    expect(form).toMatchObject({
      condition: 'AND',
      not: false,
      children: [
        { type: 'rule', condition: 'InCondition', var: 'countryCode', operation: 'IN', values: ['US', 'CA'] },
        { type: 'group', not: true, condition: 'AND', children: [{ var: 'device', values: ['mobile'] }] },
      ],
    });
    expect(fromEditorForm(form)).toEqual(example);
  });

  it.each<[string, ConditionNode]>([
    ['equal', and({ type: 'EqualCondition', data: { Var: 'campaignId', Value: 'c1' } })],
    [
      'segment',
      and({ type: 'SegmentCondition', data: { Var: 'segmentId', Value: { Operation: 'NOT IN', Values: ['s1'] } } }),
    ],
    [
      'vars',
      and({
        type: 'VarsCondition',
        data: { Var: 'vars', Value: { Var: 'subaff', Operation: 'starts with', Value: ['a'] } },
      }),
    ],
    [
      'between',
      and({
        type: 'BetweenCondition',
        data: { Var: 'timeOfDay', Values: { Start: '09:00', End: '17:30', Timezone: 'Europe/Berlin' } },
      }),
    ],
    ['compare', and({ type: 'CompareIntCondition', data: { Var: 'age', Values: { Value: 0, Comparator: '>=' } } })],
    ['or of and', or(and(inCountry('DE')), and(device('NOT IN', 'desktop')))],
    ['not of or', and(not(or(inCountry('FR'), inCountry('ES'))))],
  ])('round-trips %s', (_, tree) => {
    expect(fromEditorForm(toEditorForm(tree))).toEqual(tree);
  });

  it('wraps a leaf stored at the top in a group, and a NOT around a leaf in a NOT group', () => {
    expect(toEditorForm(inCountry('US')).children).toHaveLength(1);
    expect(fromEditorForm(toEditorForm(not(inCountry('US'))))).toEqual(not(and(inCountry('US'))));
  });
});

describe('pruning on save (§5.4)', () => {
  it.each<[string, EditorRule, boolean]>([
    ['segment with IN and values', rule({ condition: 'SegmentCondition', operation: 'IN', values: ['s'] }), true],
    [
      'segment with a bad operation',
      rule({ condition: 'SegmentCondition', operation: 'contains', values: ['s'] }),
      false,
    ],
    [
      'segment with values not a list',
      rule({ condition: 'SegmentCondition', operation: 'IN', values: 's' as never }),
      false,
    ],
    ['vars complete', rule({ condition: 'VarsCondition', key: 'subaff', operation: 'ends with', values: ['x'] }), true],
    ['vars without key', rule({ condition: 'VarsCondition', key: ' ', operation: 'IN', values: ['x'] }), false],
    [
      'vars with a bad operation',
      rule({ condition: 'VarsCondition', key: 'k', operation: 'LIKE', values: ['x'] }),
      false,
    ],
    ['vars with no values', rule({ condition: 'VarsCondition', key: 'k', operation: 'IN', values: [] }), false],
    [
      'between complete',
      rule({ condition: 'BetweenCondition', values: { Start: '08:00', End: '10:00', Timezone: 'UTC' } }),
      true,
    ],
    [
      'between with a bad start',
      rule({ condition: 'BetweenCondition', values: { Start: '8:00', End: '10:00', Timezone: 'UTC' } }),
      false,
    ],
    [
      'between without timezone',
      rule({ condition: 'BetweenCondition', values: { Start: '08:00', End: '10:00' } as never }),
      false,
    ],
    ['compare with 0', rule({ condition: 'CompareIntCondition', values: { Value: 0, Comparator: '==' } }), true],
    ['compare with 18', rule({ condition: 'CompareIntCondition', values: { Value: 18, Comparator: '>' } }), true],
    ['compare blank', rule({ condition: 'CompareIntCondition', values: { Value: '', Comparator: '>' } }), false],
    ['compare NaN', rule({ condition: 'CompareIntCondition', values: { Value: Number.NaN, Comparator: '>' } }), false],
    ['in with values', rule({ condition: 'InCondition', operation: 'NOT IN', values: ['US'] }), true],
    ['in with an empty list', rule({ condition: 'InCondition', operation: 'IN', values: [] }), false],
    ['equal with a value', rule({ condition: 'EqualCondition', values: 'c1' }), true],
    ['equal empty', rule({ condition: 'EqualCondition', values: '' }), false],
  ])('%s → kept: %s', (_, candidate, kept) => {
    expect(ruleToLeaf(candidate) !== null).toBe(kept);
  });

  it('drops empty groups, groups left empty, and returns AllCondition when nothing is left', () => {
    const form: EditorGroup = {
      type: 'group',
      condition: 'OR',
      not: false,
      children: [
        { type: 'group', condition: 'AND', not: true, children: [] },
        { type: 'group', condition: 'AND', not: false, children: [rule({ condition: 'InCondition', values: [] })] },
      ],
    };
    expect(fromEditorForm(form)).toEqual({ type: 'AllCondition' });
    form.children.push(rule({ condition: 'InCondition', var: 'countryCode', operation: 'IN', values: ['US'] }));
    expect(fromEditorForm(form)).toEqual(or(inCountry('US')));
  });

  it('prunes a stored tree the same way', () => {
    expect(pruneCondition(and(inCountry(), and(), inCountry('US')))).toEqual(and(inCountry('US')));
  });
});

describe('depth (§5.5)', () => {
  const nest = (levels: number): ConditionNode => {
    let node: ConditionNode = inCountry('US');
    for (let level = 0; level < levels; level += 1) node = and(node);
    return node;
  };

  it('counts group levels; NOT around a group adds none', () => {
    expect(conditionDepth({ type: 'AllCondition' })).toBe(0);
    expect(conditionDepth(nest(1))).toBe(1);
    expect(conditionDepth(example)).toBe(2);
    expect(editorDepth(toEditorForm(example))).toBe(2);
  });

  it('accepts depth 10 and refuses 11, wrong shapes and bad JSON', () => {
    expect(parseConditionText(JSON.stringify(nest(10))).problem).toBeUndefined();
    expect(parseConditionText(JSON.stringify(nest(11))).problem).toBe('depth');
    expect(parseConditionText(JSON.stringify(nest(11)), 12).problem).toBeUndefined();
    expect(parseConditionText('{"type":"Nope"}').problem).toBe('shape');
    expect(parseConditionText('{"type":"InCondition","data":{"Var":"x","Values":"US"}}').problem).toBe('shape');
    expect(parseConditionText('{').problem).toBe('json');
    expect(parseConditionText('{"type":"AllCondition"}').tree).toEqual({ type: 'AllCondition' });
  });
});

describe('bulk insert (§4, §5.5)', () => {
  it.each<[string, string[] | null]>([
    ['US\nCA\nDE', ['US', 'CA', 'DE']],
    ['US\r\nCA', ['US', 'CA']],
    ['US, CA, DE', ['US', 'CA', 'DE']],
    ['US CA DE', ['US', 'CA', 'DE']],
    ['a;b;c d', ['a', 'b', 'c d']],
    ['a:b', ['a', 'b']],
    ['single', null],
    ['  padded  ', null],
    ['a,,', null],
    ['', null],
  ])('%j → %j', (text, expected) => {
    expect(splitBulkInsert(text)).toEqual(expected);
  });

  it('honours a threshold passed by the caller', () => {
    expect(splitBulkInsert('a,b', 3)).toBeNull();
    expect(splitBulkInsert('a,b,c', 3)).toEqual(['a', 'b', 'c']);
  });

  it.each<[string, number | '']>([
    ['12', 12],
    ['12.9', 12],
    [' -3 ', -3],
    ['abc', ''],
    ['12abc', ''],
    ['', ''],
  ])('compare value %j → %j (§5.3)', (input, expected) => {
    expect(parseCompareValue(input)).toBe(expected);
  });
});

describe('evaluating a tree', () => {
  const context = (overrides: Partial<ConditionContext> = {}): ConditionContext => ({
    fields: { countryCode: 'US', device: 'desktop', browser: 'Chrome', campaignId: 'c1', age: 30, regsCount: 0 },
    vars: { subaff: 'aff-42', utm_source: 'Google' },
    now: new Date('2026-07-01T12:00:00Z'),
    inSegment: (id) => id === 'seg-in',
    ...overrides,
  });
  const leaf = (node: ConditionNode) => evaluateCondition(node, context());

  it.each<[string, ConditionNode, boolean]>([
    ['all', { type: 'AllCondition' }, true],
    ['example', example, true],
    ['country IN', inCountry('CA', 'us'), true],
    [
      'country NOT IN',
      { type: 'InCondition', data: { Var: 'countryCode', Operation: 'NOT IN', Values: ['US'] } },
      false,
    ],
    [
      'missing field NOT IN',
      { type: 'InCondition', data: { Var: 'platform', Operation: 'NOT IN', Values: ['ios'] } },
      true,
    ],
    ['missing field IN', { type: 'InCondition', data: { Var: 'platform', Operation: 'IN', Values: ['ios'] } }, false],
    ['device IN mobile', device('IN', 'mobile'), false],
    ['equal campaign', { type: 'EqualCondition', data: { Var: 'campaignId', Value: 'c1' } }, true],
    ['equal other campaign', { type: 'EqualCondition', data: { Var: 'campaignId', Value: 'c2' } }, false],
    [
      'segment IN',
      { type: 'SegmentCondition', data: { Var: 'segmentId', Value: { Operation: 'IN', Values: ['seg-in'] } } },
      true,
    ],
    [
      'segment NOT IN',
      { type: 'SegmentCondition', data: { Var: 'segmentId', Value: { Operation: 'NOT IN', Values: ['seg-in'] } } },
      false,
    ],
    [
      'vars IN',
      {
        type: 'VarsCondition',
        data: { Var: 'vars', Value: { Var: 'utm_source', Operation: 'IN', Value: ['google'] } },
      },
      true,
    ],
    [
      'vars contains',
      { type: 'VarsCondition', data: { Var: 'vars', Value: { Var: 'subaff', Operation: 'contains', Value: ['-4'] } } },
      true,
    ],
    [
      'vars starts with',
      {
        type: 'VarsCondition',
        data: { Var: 'vars', Value: { Var: 'subaff', Operation: 'starts with', Value: ['aff'] } },
      },
      true,
    ],
    [
      'vars ends with',
      { type: 'VarsCondition', data: { Var: 'vars', Value: { Var: 'subaff', Operation: 'ends with', Value: ['43'] } } },
      false,
    ],
    [
      'vars NOT IN missing',
      { type: 'VarsCondition', data: { Var: 'vars', Value: { Var: 'var9', Operation: 'NOT IN', Value: ['x'] } } },
      true,
    ],
    ['age > 18', { type: 'CompareIntCondition', data: { Var: 'age', Values: { Value: 18, Comparator: '>' } } }, true],
    [
      'age <= 29',
      { type: 'CompareIntCondition', data: { Var: 'age', Values: { Value: 29, Comparator: '<=' } } },
      false,
    ],
    [
      'regs == 0',
      { type: 'CompareIntCondition', data: { Var: 'regsCount', Values: { Value: 0, Comparator: '==' } } },
      true,
    ],
    [
      'missing number',
      { type: 'CompareIntCondition', data: { Var: 'emailRate', Values: { Value: 0, Comparator: '>=' } } },
      false,
    ],
    ['or', or(inCountry('DE'), device('IN', 'desktop')), true],
    ['not', not(inCountry('US')), false],
  ])('%s → %s', (_, node, expected) => {
    expect(leaf(node)).toBe(expected);
  });

  const between = (Start: string, End: string, Timezone: string): ConditionNode => ({
    type: 'BetweenCondition',
    data: { Var: 'timeOfDay', Values: { Start, End, Timezone } },
  });

  it.each<[string, string, string, string, boolean]>([
    // [now (UTC), start, end, timezone, expected]
    ['2026-07-01T12:00:00Z', '09:00', '17:00', 'UTC', true],
    ['2026-07-01T17:00:00Z', '09:00', '17:00', 'UTC', false],
    // Berlin is UTC+2 in summer (DST) and UTC+1 in winter.
    ['2026-07-01T07:30:00Z', '09:00', '17:00', 'Europe/Berlin', true],
    ['2026-01-15T07:30:00Z', '09:00', '17:00', 'Europe/Berlin', false],
    ['2026-01-15T08:30:00Z', '09:00', '17:00', 'Europe/Berlin', true],
    // New York: 02:00 local on 8 March 2026 does not exist; 07:30Z is 03:30 EDT.
    ['2026-03-08T07:30:00Z', '03:00', '04:00', 'America/New_York', true],
    ['2026-03-07T07:30:00Z', '03:00', '04:00', 'America/New_York', false],
    // A window across midnight.
    ['2026-07-01T23:30:00Z', '22:00', '06:00', 'UTC', true],
    ['2026-07-01T05:59:00Z', '22:00', '06:00', 'UTC', true],
    ['2026-07-01T12:00:00Z', '22:00', '06:00', 'UTC', false],
  ])('time of day at %s in %s–%s %s → %s', (now, start, end, zone, expected) => {
    expect(evaluateCondition(between(start, end, zone), context({ now: new Date(now) }))).toBe(expected);
  });

  it('reads minutes of day in a zone, UTC for an unknown one', () => {
    expect(minuteOfDay(new Date('2026-07-01T12:34:00Z'), 'Asia/Kolkata')).toBe(18 * 60 + 4);
    expect(minuteOfDay(new Date('2026-07-01T12:34:00Z'), 'Not/AZone')).toBe(12 * 60 + 34);
  });

  it('lists the segments a tree refers to', () => {
    const tree = and(
      { type: 'SegmentCondition', data: { Var: 'segmentId', Value: { Operation: 'IN', Values: ['a', 'b'] } } },
      not({ type: 'SegmentCondition', data: { Var: 'segmentId', Value: { Operation: 'NOT IN', Values: ['a', 'c'] } } }),
    );
    expect(referencedSegments(tree)).toEqual(['a', 'b', 'c']);
  });
});

describe('describing a tree', () => {
  it('reads as the operator wrote it', () => {
    expect(describeCondition(example)).toBe('countryCode IN (US, CA) AND NOT (device IN (mobile))');
    expect(describeCondition({ type: 'AllCondition' })).toBe('All Condition');
    expect(describeCondition(or(and(inCountry('DE')), inCountry('AT')))).toBe(
      '(countryCode IN (DE)) OR countryCode IN (AT)',
    );
  });

  it('shows labels instead of ids', () => {
    const tree = and({ type: 'EqualCondition', data: { Var: 'campaignId', Value: 'c1' } });
    expect(describeCondition(tree, (variable, value) => (variable === 'campaignId' ? 'Summer' : value))).toBe(
      'campaignId = Summer',
    );
  });
});

/** The fields a click and a lead both carry, the visitor fields beside their kin. */
const VISITOR_FIELDS = [
  'countryCode',
  'region',
  'city',
  'language',
  'device',
  'platform',
  'osVersion',
  'browser',
  'browserVersion',
  'ip',
  'asn',
  'isp',
  'referrer',
  'isBot',
  'isUnique',
  'campaignId',
  'segmentId',
  'vars',
  'timeOfDay',
  'weekday',
];

describe('condition fields (§3.9)', () => {
  it('offers every field, restricted by availableRules', () => {
    expect(CONDITION_FIELDS.map((field) => field.var)).toEqual([
      ...VISITOR_FIELDS,
      'regsCount',
      'payoutsCount',
      'emailRate',
      'age',
    ]);
    expect(availableConditionFields(['age', 'device']).map((field) => field.var)).toEqual(['device', 'age']);
  });

  it("leaves a lead's own fields out on the tracker side: a click carries none of them", () => {
    expect(availableConditionFields(undefined, 'tracker').map((field) => field.var)).toEqual(VISITOR_FIELDS);
    expect(availableConditionFields(['age', 'device'], 'tracker').map((field) => field.var)).toEqual(['device']);
  });
});
