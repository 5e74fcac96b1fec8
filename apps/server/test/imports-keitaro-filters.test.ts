import { type ConditionNode, ZConditionText, ZKeitaroStream } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import { streamCondition } from '../src/imports/keitaro-filters.js';

// Each Keitaro filter (https://docs.keitaro.io/en/campaigns-and-streams/filtering.html) as the
// Switchyard condition it becomes, or named as left out; every condition made is one the flow form keeps.

function convert(filters: unknown[], filterOr = false) {
  const notes: string[] = [];
  const stream = ZKeitaroStream.parse({ id: 1, campaign_id: 1, filters, filter_or: filterOr });
  const condition = streamCondition(stream, (name, reason) => notes.push(`${name}: ${reason}`));
  // The flow form's own check: what the importer makes must be saved as it is.
  expect(ZConditionText.safeParse(JSON.stringify(condition)).success, JSON.stringify(condition)).toBe(true);
  return { condition, notes };
}

const inRule = (Var: string, Operation: string, Values: string[]): ConditionNode =>
  ({ type: 'InCondition', data: { Var, Operation, Values } }) as ConditionNode;

describe('Keitaro filters as conditions', () => {
  it.each([
    ['country', 'accept', ['us', 'CA'], inRule('countryCode', 'IN', ['US', 'CA'])],
    ['country', 'reject', ['DE'], inRule('countryCode', 'NOT IN', ['DE'])],
    ['region', 'accept', ['us-ca'], inRule('region', 'IN', ['US-CA'])],
    ['city', 'accept', ['Berlin'], inRule('city', 'IN', ['Berlin'])],
    ['language', 'accept', ['EN', 'fr'], inRule('language', 'IN', ['en', 'fr'])],
    ['device_type', 'accept', ['mobile', 'Tablet'], inRule('device', 'IN', ['mobile', 'tablet'])],
    ['os', 'reject', ['iOS', 'Mac OS X'], inRule('platform', 'NOT IN', ['ios', 'mac'])],
    ['browser', 'accept', ['chrome', 'Mobile Safari'], inRule('browser', 'IN', ['Chrome', 'Mobile Safari'])],
    ['ip', 'accept', ['10.0.0.0/8', '192.0.2.1'], inRule('ip', 'IN', ['10.0.0.0/8', '192.0.2.1'])],
    ['isp', 'accept', ['Comcast'], inRule('isp', 'IN', ['Comcast'])],
    ['referrer', 'accept', ['google.'], inRule('referrer', 'contains', ['google.'])],
    [
      'referrer',
      'reject',
      ['spam.example'],
      { type: 'NotCondition', data: { Condition: inRule('referrer', 'contains', ['spam.example']) } },
    ],
    [
      'sub_id_3',
      'accept',
      ['zone-1', 7],
      { type: 'VarsCondition', data: { Var: 'vars', Value: { Var: 'var3', Operation: 'IN', Value: ['zone-1', '7'] } } },
    ],
    ['bot', 'reject', null, { type: 'EqualCondition', data: { Var: 'isBot', Value: 'false' } }],
    [
      'browser_version',
      'accept',
      ['>=120'],
      { type: 'CompareIntCondition', data: { Var: 'browserVersion', Values: { Value: 120, Comparator: '>=' } } },
    ],
  ])('%s %s %j', (name, mode, payload, expected) => {
    const { condition, notes } = convert([{ name, mode, payload }]);
    expect(notes).toEqual([]);
    expect(condition).toEqual(expected);
  });

  it('joins filters by AND, or by OR with filter_or', () => {
    const filters = [
      { name: 'country', mode: 'accept', payload: ['US'] },
      { name: 'bot', mode: 'reject', payload: [] },
    ];
    expect(convert(filters).condition.type).toBe('AndCondition');
    expect(convert(filters, true).condition.type).toBe('OrCondition');
  });

  it('names what has no equivalent, keeping what has one', () => {
    const { condition, notes } = convert([
      { name: 'os', mode: 'accept', payload: ['Android', 'Symbian'] },
      { name: 'sub_id_12', mode: 'accept', payload: ['x'] },
      { name: 'schedule', mode: 'accept', payload: { mon: ['09:00', '18:00'] } },
      { name: 'connection_type', mode: 'accept', payload: ['wifi'] },
      { name: 'os_version', mode: 'accept', payload: ['beta'] },
      { name: 'country', mode: 'accept', payload: [] },
    ]);
    expect(condition).toEqual(inRule('platform', 'IN', ['android']));
    expect(notes).toEqual([
      'os: operating systems with no equivalent: Symbian',
      'sub_id_12: only sub_id_1 … sub_id_10 have an equivalent (var1 … var10)',
      'schedule: its days and hours are not read: set them with a time-of-day or weekday condition',
      'connection_type: no equivalent condition',
      'os_version: versions other than whole numbers with a comparison: beta',
      'country: its payload holds no value',
    ]);
  });
});
