import { type ConditionNode, ZBinomRule, ZConditionText } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import { ruleCondition } from '../src/imports/binom-filters.js';

// Each Binom rule criterion (types from its `/rotation_rules` list; https://docs.binom.org/campaign-rules-v2.php)
// as the Switchyard condition it becomes, or named as left out; every condition made is one the flow form
// keeps.

function convert(criteria: unknown[]) {
  const notes: string[] = [];
  const condition = ruleCondition(ZBinomRule.parse({ criteria }), (name, reason) => notes.push(`${name}: ${reason}`));
  // The flow form's own check: what the importer makes must be saved as it is.
  expect(ZConditionText.safeParse(JSON.stringify(condition)).success, JSON.stringify(condition)).toBe(true);
  return { condition, notes };
}

const inRule = (Var: string, Operation: string, Values: string[]): ConditionNode =>
  ({ type: 'InCondition', data: { Var, Operation, Values } }) as ConditionNode;

describe('Binom criteria as conditions', () => {
  it.each([
    ['country', 'in', ['us', 'CA'], inRule('countryCode', 'IN', ['US', 'CA'])],
    ['country', 'not_in', ['DE'], inRule('countryCode', 'NOT IN', ['DE'])],
    ['language', 'in', ['EN'], inRule('language', 'IN', ['en'])],
    ['device_type', 'in', ['Smartphone', 'Tablet'], inRule('device', 'IN', ['mobile', 'tablet'])],
    ['os_and_version', 'not_in', ['Android'], inRule('platform', 'NOT IN', ['android'])],
    ['browser_and_version', 'in', ['chrome'], inRule('browser', 'IN', ['Chrome'])],
    ['ip', 'in', ['10.0.0.0/8'], inRule('ip', 'IN', ['10.0.0.0/8'])],
    ['isp', 'in', ['Comcast'], inRule('isp', 'IN', ['Comcast'])],
    [
      'referer',
      'not_in',
      ['spam.example'],
      { type: 'NotCondition', data: { Condition: inRule('referrer', 'contains', ['spam.example']) } },
    ],
    [
      'token_3',
      'not_in',
      ['x'],
      { type: 'VarsCondition', data: { Var: 'vars', Value: { Var: 'var3', Operation: 'NOT IN', Value: ['x'] } } },
    ],
    ['bot', 'in', [], { type: 'EqualCondition', data: { Var: 'isBot', Value: 'true' } }],
    ['unique', 'not_in', [], { type: 'EqualCondition', data: { Var: 'isUnique', Value: 'false' } }],
  ])('%s %s %j', (type, operator, values, expected) => {
    const { condition, notes } = convert([{ type, operator, values }]);
    expect(condition).toEqual(expected);
    expect(notes).toEqual([]);
  });

  it('reads a part of day as a time-of-day span in its zone', () => {
    const { condition } = convert([
      { type: 'part_of_day', values: ['09:00-17:30', '22:00 - 23:00'], timezone: 'Europe/Berlin' },
    ]);
    const span = (Start: string, End: string) => ({
      type: 'BetweenCondition',
      data: { Var: 'timeOfDay', Values: { Start, End, Timezone: 'Europe/Berlin' } },
    });
    expect(condition).toEqual({
      type: 'OrCondition',
      data: { Conditions: [span('09:00', '17:30'), span('22:00', '23:00')] },
    });
  });

  it('names what has no equivalent, and tests the rest', () => {
    const { condition, notes } = convert([
      { type: 'country', values: ['US'] },
      { type: 'proxy_vpn', values: ['yes'] },
      { type: 'token_14', values: ['a'] },
      { type: 'device_type', values: ['Smart TV'] },
      { type: 'city', values: [] },
    ]);
    expect(condition).toEqual(inRule('countryCode', 'IN', ['US']));
    expect(notes).toEqual([
      'proxy_vpn: no equivalent condition',
      'token_14: only tokens 1 … 10 have an equivalent (var1 … var10)',
      'device_type: device types with no equivalent: Smart TV',
      'city: it holds no value',
    ]);
  });
});
