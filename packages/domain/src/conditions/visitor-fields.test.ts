import { describe, expect, it } from 'vitest';
import { parseAddressRule } from '../network-addresses.js';
import { ipv4Ranges } from './address-match.js';
import { type ConditionContext, compileCondition } from './evaluate.js';
import type { ConditionNode, InConditionOperation } from './types.js';
import { referrerDomain, weekdayOf } from './visitor-values.js';

// Unit tables of the visitor fields, each operation on each, as the engine fills them.

const at = (fields: ConditionContext['fields'], now = new Date('2026-11-24T12:00:00Z')): ConditionContext => ({
  fields,
  vars: {},
  now,
  inSegment: () => false,
});
const inLeaf = (Var: string, Operation: InConditionOperation, Values: string[], Timezone?: string): ConditionNode => ({
  type: 'InCondition',
  data: Timezone === undefined ? { Var, Operation, Values } : { Var, Operation, Values, Timezone },
});
const test = (node: ConditionNode, fields: ConditionContext['fields']) => compileCondition(node)(at(fields));

type Row = [
  field: string,
  operation: InConditionOperation,
  values: string[],
  actual: string | undefined,
  matches: boolean,
];

const LIST_TABLE: Row[] = [
  ['region', 'IN', ['US-CA'], 'US-CA', true],
  ['region', 'IN', ['us-ca'], 'US-CA', true],
  ['region', 'IN', ['US-CA'], 'US-NY', false],
  ['region', 'NOT IN', ['US-CA'], 'US-NY', true],
  ['region', 'NOT IN', ['US-CA'], undefined, true],
  ['region', 'IN', ['US-CA'], undefined, false],
  // A region without a code meets the click by country and name, in any spelling of the name.
  ['region', 'IN', ['CK:Aitutaki'], 'CK:aitutaki', true],
  ['city', 'IN', ['Berlin', 'Paris'], 'paris', true],
  ['city', 'NOT IN', ['Berlin'], 'Paris', true],
  ['city', 'NOT IN', ['Berlin'], 'Berlin', false],
  ['asn', 'IN', ['AS15169'], '15169', true],
  ['asn', 'IN', ['as 15169'], '15169', true],
  ['asn', 'IN', ['15169'], '13335', false],
  ['asn', 'NOT IN', ['AS15169'], '13335', true],
  ['asn', 'NOT IN', ['AS15169'], undefined, true],
  ['isp', 'IN', ['Google LLC'], 'google llc', true],
  ['isp', 'contains', ['amazon'], 'Amazon.com, Inc.', true],
  ['isp', 'contains', ['amazon'], 'Hetzner Online GmbH', false],
  ['isp', 'contains', ['amazon'], undefined, false],
  ['isp', 'NOT IN', ['Google LLC'], 'Hetzner Online GmbH', true],
  ['language', 'IN', ['de', 'FR'], 'fr', true],
  ['language', 'IN', ['de'], undefined, false],
  ['language', 'NOT IN', ['de'], undefined, true],
  ['referrer', 'IN', ['example.com'], 'example.com', true],
  // Rule values are read like the field: scheme, path and a leading www. dropped.
  ['referrer', 'IN', ['https://www.Example.com/x?y=1'], 'example.com', true],
  ['referrer', 'IN', ['example.com'], 'news.example.com', false],
  ['referrer', 'IN', ['(none)'], '(none)', true],
  ['referrer', 'NOT IN', ['(none)'], '(none)', false],
  ['referrer', 'contains', ['google'], 'google.de', true],
  ['referrer', 'starts with', ['news.'], 'news.example.com', true],
  ['referrer', 'starts with', ['news.'], 'example.com', false],
  ['referrer', 'ends with', ['.ru'], 'mail.ru', true],
  ['referrer', 'ends with', ['.ru'], 'mail.de', false],
  // `(none)` is no referrer, not a text to search.
  ['referrer', 'contains', ['none'], '(none)', false],
];

describe('list and text fields', () => {
  it.each(LIST_TABLE)('%s %s %j on %j: %s', (field, operation, values, actual, matches) => {
    expect(test(inLeaf(field, operation, values), { [field]: actual })).toBe(matches);
  });
});

const IP_TABLE: [values: string[], ip: string | undefined, matches: boolean][] = [
  [['10.0.0.0/8'], '10.200.3.4', true],
  [['10.0.0.0/8'], '11.0.0.1', false],
  [['203.0.113.7'], '203.0.113.7', true],
  [['203.0.113.7'], '203.0.113.8', false],
  [['192.168.1.0/24', '10.0.0.0/8'], '192.168.1.255', true],
  [['192.168.1.0/24', '10.0.0.0/8'], '192.168.2.0', false],
  [['0.0.0.0/0'], '8.8.8.8', true],
  // Overlapping and adjacent ranges merge without losing an address.
  [['10.0.0.0/9', '10.128.0.0/9', '10.64.0.0/10'], '10.255.255.255', true],
  [['10.0.0.0/9', '10.128.0.0/9'], '11.0.0.0', false],
  [['255.255.255.255'], '255.255.255.255', true],
  // A dual-stack socket reports an IPv4 visitor as IPv4-mapped IPv6.
  [['10.0.0.0/8'], '::ffff:10.1.2.3', true],
  [['2001:db8::/32'], '2001:db8:1234::1', true],
  [['2001:db8::/32'], '2001:db9::1', false],
  [['2001:db8:abcd:12::/64'], '2001:DB8:ABCD:12:ffff::1', true],
  [['2001:db8:abcd:12::/64'], '2001:db8:abcd:13::1', false],
  [['2001:db8::1'], '2001:db8:0:0:0:0:0:1', true],
  [['::/0'], '2a00:1450::1', true],
  [['::/0'], '8.8.8.8', false],
  [['10.0.0.0/8'], '2001:db8::1', false],
  [['10.0.0.0/8'], 'not an address', false],
  // A leading zero could be read as octal elsewhere: not an address.
  [['10.0.0.0/8'], '010.1.2.3', false],
  [['10.0.0.0/8'], undefined, false],
];

describe('ip', () => {
  it.each(IP_TABLE)('IN %j on %j: %s', (values, ip, matches) => {
    expect(test(inLeaf('ip', 'IN', values), { ip })).toBe(matches);
    // NOT IN is the opposite, a missing address included.
    expect(test(inLeaf('ip', 'NOT IN', values), { ip })).toBe(!matches);
  });

  it('tests many rules by a search of merged ranges', () => {
    // 10.0.0.0/24 … 10.19.135.0/24: 10.0–10.18 whole, 10.19 up to 10.19.135.
    const values = Array.from({ length: 5000 }, (_, index) => `10.${index >> 8}.${index & 255}.0/24`);
    // 5,000 adjoining rules are one range to search, whatever their order.
    const rules = [...values].reverse().flatMap((value) => {
      const parsed = parseAddressRule(value);
      return parsed.ok ? [parsed.rule] : [];
    });
    expect([...ipv4Ranges(rules)]).toEqual([0x0a000000, 0x0a1387ff]);
    const match = compileCondition(inLeaf('ip', 'IN', values));
    let wrong = 0;
    for (let index = 0; index < 20_000; index += 1) {
      const [second, third] = [index % 40, index % 256];
      const listed = second < 19 || (second === 19 && third <= 135);
      if (match(at({ ip: `10.${second}.${third}.9` })) !== listed) wrong += 1;
    }
    expect(wrong).toBe(0);
  });

  // biome-ignore format: a table, a case a line
  it.each([
    [['1.2.3.4', '1.2.3.5'], ['1.2.3.4', '1.2.3.5']],
    [['1.2.3.0/24', '1.2.3.7'], ['1.2.3.0', '1.2.3.255']],
    [['1.2.3.0/24', '1.2.5.0/24'], ['1.2.3.0', '1.2.3.255', '1.2.5.0', '1.2.5.255']],
    [['::1', '9.9.9.9'], ['9.9.9.9', '9.9.9.9']],
  ])('keeps %j as the ranges %j', (values, bounds) => {
    const rules = values.flatMap((value) => {
      const parsed = parseAddressRule(value);
      return parsed.ok ? [parsed.rule] : [];
    });
    const asNumber = (text: string) => text.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
    expect([...ipv4Ranges(rules)]).toEqual(bounds.map(asNumber));
  });
});

const compare = (Var: string, Comparator: '>' | '>=' | '<' | '<=' | '==' | '!=', Value: number): ConditionNode => ({
  type: 'CompareIntCondition',
  data: { Var, Values: { Value, Comparator } },
});

describe('versions', () => {
  it.each([
    ['osVersion', '>=', 14, 17, true],
    ['osVersion', '>=', 14, 14, true],
    ['osVersion', '>=', 14, 13, false],
    ['osVersion', '<', 10, 9, true],
    ['browserVersion', '==', 120, 120, true],
    ['browserVersion', '!=', 120, 121, true],
    ['browserVersion', '>', 120, 100, false],
    ['browserVersion', '<=', 99, 99, true],
  ] as const)('%s %s %d on %d: %s', (field, comparator, value, actual, matches) => {
    expect(test(compare(field, comparator, value), { [field]: actual })).toBe(matches);
  });

  it('never matches a missing version, whatever the comparison', () => {
    for (const comparator of ['>', '>=', '<', '<=', '==', '!='] as const) {
      expect(test(compare('osVersion', comparator, 0), { osVersion: undefined })).toBe(false);
    }
  });
});

describe('isUnique and isBot', () => {
  const equal = (Var: string, Value: string): ConditionNode => ({ type: 'EqualCondition', data: { Var, Value } });
  it.each([
    ['isBot', 'true', 'true', true],
    ['isBot', 'true', 'false', false],
    ['isBot', 'false', 'false', true],
    ['isUnique', 'true', 'true', true],
    ['isUnique', 'false', 'true', false],
    ['isUnique', 'true', undefined, false],
  ] as const)('%s = %s on %j: %s', (field, value, actual, matches) => {
    expect(test(equal(field, value), { [field]: actual })).toBe(matches);
  });
});

describe('weekday', () => {
  const onDay = (days: string[], zone: string | undefined, instant: string, operation: 'IN' | 'NOT IN' = 'IN') =>
    compileCondition(inLeaf('weekday', operation, days, zone))(at({}, new Date(instant)));

  it.each([
    // Tuesday 2026-11-24 12:00 UTC.
    [['tue'], undefined, '2026-11-24T12:00:00Z', true],
    [['tue'], '', '2026-11-24T12:00:00Z', true],
    [['mon'], 'UTC', '2026-11-24T12:00:00Z', false],
    // Ahead of UTC: already Wednesday in Auckland (UTC+13 in summer).
    [['wed'], 'Pacific/Auckland', '2026-11-24T12:00:00Z', true],
    // Behind: still Monday evening in Los Angeles at 05:00 UTC Tuesday.
    [['mon'], 'America/Los_Angeles', '2026-11-24T05:00:00Z', true],
    [['TUE'], 'America/Los_Angeles', '2026-11-24T05:00:00Z', false],
    // New York at 04:30 UTC on a Monday: Sunday 23:30 under EST (UTC−5) …
    [['sun'], 'America/New_York', '2026-03-02T04:30:00Z', true],
    // … Monday 00:30 once DST (UTC−4) began on 8 March …
    [['mon'], 'America/New_York', '2026-03-09T04:30:00Z', true],
    // … and Sunday again once it ended on 1 November.
    [['sun'], 'America/New_York', '2026-11-02T04:30:00Z', true],
    // Berlin's DST starts 29 March 2026: 22:30 UTC Sunday is Monday 00:30 CEST, Sunday 23:30 CET a week before.
    [['mon'], 'Europe/Berlin', '2026-03-29T22:30:00Z', true],
    [['sun'], 'Europe/Berlin', '2026-03-22T22:30:00Z', true],
    // An unknown zone reads the day in UTC.
    [['tue'], 'Mars/Olympus', '2026-11-24T12:00:00Z', true],
  ] as const)('IN %j in %j at %s: %s', (days, zone, instant, matches) => {
    expect(onDay([...days], zone, instant)).toBe(matches);
    expect(onDay([...days], zone, instant, 'NOT IN')).toBe(!matches);
  });

  it('names every day of a week, Monday first', () => {
    const days = Array.from({ length: 7 }, (_, index) =>
      weekdayOf(new Date(Date.UTC(2026, 10, 23 + index, 12)), 'UTC'),
    );
    expect(days).toEqual(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
  });
});

describe('referrerDomain', () => {
  it.each([
    ['https://www.Example.com/path?q=1#x', 'example.com'],
    ['http://user:pass@shop.example.co.uk:8080/', 'shop.example.co.uk'],
    ['//cdn.example.net/x', 'cdn.example.net'],
    ['example.org', 'example.org'],
    ['www.example.org/page', 'example.org'],
    ['', '(none)'],
    [undefined, '(none)'],
    ['  ', '(none)'],
  ])('%j → %s', (referrer, domain) => {
    expect(referrerDomain(referrer)).toBe(domain);
  });
});
