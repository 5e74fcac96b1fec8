import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZConditionText } from '../fields.js';
import { fieldErrors } from '../messages.js';
import { pruneCondition } from './convert.js';
import { describeCondition } from './describe.js';
import { findRegion, REGIONS, regionNameKey } from './regions.js';
import { parseConditionText } from './schema.js';
import type { ConditionNode } from './types.js';
import { LANGUAGE_CODES } from './visitor-values.js';

const inLeaf = (Var: string, Operation: string, Values: string[], extra: object = {}) =>
  ({ type: 'InCondition', data: { Var, Operation, Values, ...extra } }) as ConditionNode;
const and = (...Conditions: ConditionNode[]): ConditionNode => ({ type: 'AndCondition', data: { Conditions } });
const problemOf = (node: ConditionNode) => parseConditionText(JSON.stringify(node)).detail;

describe('values a field cannot hold', () => {
  it.each([
    ['ip', ['10.0.0.0/8', '10.0.0.0/33'], '10.0.0.0/33'],
    ['ip', ['2001:db8::/129'], '2001:db8::/129'],
    ['ip', ['10.0.0'], '10.0.0'],
    ['ip', ['example.com'], 'example.com'],
    ['asn', ['AS15169', 'ASX'], 'ASX'],
    ['asn', ['4294967296'], '4294967296'],
    ['asn', ['-1'], '-1'],
    ['region', ['US-CA', 'US-XX'], 'US-XX'],
    ['region', ['California'], 'California'],
    ['language', ['en', 'english'], 'english'],
    ['language', ['xx'], 'xx'],
    ['weekday', ['mon', 'monday'], 'monday'],
  ])('%s refuses %j, naming %s', (field, values, bad) => {
    expect(problemOf(and(inLeaf(field, 'IN', values)))).toEqual({ kind: 'value', field, value: bad });
  });

  it.each([
    ['ip', ['10.0.0.0/8', '2001:db8::/32', '203.0.113.7', '::ffff:10.0.0.0/104']],
    ['asn', ['AS15169', '13335', 'as4294967295', '0']],
    ['region', ['US-CA', 'us-ny', 'GB-ENG', 'DE-BY', 'FR-IDF', 'CK:Aitutaki']],
    ['language', ['en', 'DE', 'zh']],
    ['weekday', ['mon', 'SUN']],
    ['city', ['Berlin', 'São Paulo']],
    ['isp', ['Google LLC']],
    ['referrer', ['(none)', 'https://www.example.com/x']],
  ])('%s takes %j', (field, values) => {
    expect(problemOf(inLeaf(field, 'NOT IN', values))).toBeUndefined();
  });

  it("checks weekday's zone: an IANA zone, or empty for UTC", () => {
    expect(problemOf(inLeaf('weekday', 'IN', ['mon'], { Timezone: 'Europe/Paris' }))).toBeUndefined();
    expect(problemOf(inLeaf('weekday', 'IN', ['mon'], { Timezone: '' }))).toBeUndefined();
    expect(problemOf(inLeaf('weekday', 'IN', ['mon'], { Timezone: 'Mars/Olympus' }))).toEqual({
      kind: 'value',
      field: 'weekday',
      value: 'Mars/Olympus',
    });
  });

  it.each([
    ['25:99', '10:00', 'UTC', '25:99'],
    ['09:00', '24:00', 'UTC', '24:00'],
    ['09:60', '10:00', 'UTC', '09:60'],
    ['09:00', '17:00', 'Mars/Olympus', 'Mars/Olympus'],
    ['09:00', '17:00', 'Europe/Nowhere', 'Europe/Nowhere'],
  ])('timeOfDay refuses %s–%s in %s, naming %s', (Start, End, Timezone, bad) => {
    const leaf = { type: 'BetweenCondition', data: { Var: 'timeOfDay', Values: { Start, End, Timezone } } };
    expect(problemOf(and(leaf as ConditionNode))).toEqual({ kind: 'value', field: 'timeOfDay', value: bad });
  });

  it.each([
    ['00:00', '23:59', 'UTC'],
    ['22:00', '06:00', 'Asia/Tokyo'],
    ['09:00', '17:00', ''],
  ])('timeOfDay takes %s–%s in %j', (Start, End, Timezone) => {
    const leaf = { type: 'BetweenCondition', data: { Var: 'timeOfDay', Values: { Start, End, Timezone } } };
    expect(problemOf(leaf as ConditionNode)).toBeUndefined();
  });

  it('allows matching by part only on isp (contains) and referrer (contains, starts with, ends with)', () => {
    expect(problemOf(inLeaf('isp', 'contains', ['amazon']))).toBeUndefined();
    expect(problemOf(inLeaf('referrer', 'ends with', ['.ru']))).toBeUndefined();
    expect(problemOf(inLeaf('isp', 'starts with', ['a']))).toEqual({
      kind: 'operation',
      field: 'isp',
      value: 'starts with',
    });
    expect(problemOf(inLeaf('ip', 'contains', ['10.']))).toEqual({ kind: 'operation', field: 'ip', value: 'contains' });
    expect(problemOf(inLeaf('countryCode', 'contains', ['U']))).toEqual({
      kind: 'operation',
      field: 'countryCode',
      value: 'contains',
    });
  });

  it('checks versions and true/false fields', () => {
    const version = (Value: number): ConditionNode => ({
      type: 'CompareIntCondition',
      data: { Var: 'osVersion', Values: { Value, Comparator: '>=' } },
    });
    expect(problemOf(version(14))).toBeUndefined();
    expect(problemOf(version(-1))).toEqual({ kind: 'value', field: 'osVersion', value: '-1' });
    const flag = (Var: string, Value: string): ConditionNode => ({ type: 'EqualCondition', data: { Var, Value } });
    expect(problemOf(flag('isBot', 'true'))).toBeUndefined();
    expect(problemOf(flag('isUnique', 'yes'))).toEqual({ kind: 'value', field: 'isUnique', value: 'yes' });
    // A field in the wrong kind of leaf is refused rather than compared in a way it cannot match.
    expect(problemOf(flag('ip', '10.0.0.1'))).toEqual({ kind: 'operation', field: 'ip', value: 'EqualCondition' });
  });

  it('keeps reading trees of the older fields as before', () => {
    expect(
      problemOf(and(inLeaf('countryCode', 'IN', ['anything']), inLeaf('custom', 'NOT IN', ['x']))),
    ).toBeUndefined();
  });

  it('refuses the condition on its own field path, naming the field and the value', () => {
    const form = z.object({ path_groups: z.array(z.object({ condition: ZConditionText })) });
    const condition = JSON.stringify(and(inLeaf('ip', 'IN', ['10.0.0.0/8', '10.0.0.0/33'])));
    const parsed = form.safeParse({ path_groups: [{ condition: '{"type":"AllCondition"}' }, { condition }] });
    expect(parsed.success).toBe(false);
    expect(fieldErrors(parsed.error?.issues ?? [])).toEqual({
      'path_groups.1.condition': ['The ip rule of the condition has a value that is not valid: "10.0.0.0/33"'],
    });
    const operation = JSON.stringify(inLeaf('ip', 'contains', ['10.']));
    expect(fieldErrors(form.safeParse({ path_groups: [{ condition: operation }] }).error?.issues ?? [])).toEqual({
      'path_groups.0.condition': ['The ip rule of the condition cannot use "contains"'],
    });
  });

  it("stores a weekday rule with its zone, and an isp rule's contains", () => {
    const tree = and(
      inLeaf('weekday', 'IN', ['sat', 'sun'], { Timezone: 'Asia/Tokyo' }),
      inLeaf('isp', 'contains', ['amazon']),
    );
    expect(pruneCondition(tree)).toEqual(tree);
    expect(ZConditionText.parse(JSON.stringify(tree))).toBe(JSON.stringify(tree));
  });
});

describe('REGIONS', () => {
  it('uses ISO 3166-2 codes, with country and name', () => {
    expect(findRegion('US-CA')).toEqual({ value: 'US-CA', country: 'US', name: 'California' });
    // With CLDR's English name, which the rule builder's search finds too.
    expect(findRegion('DE-BY')).toEqual({ value: 'DE-BY', country: 'DE', name: 'Bayern', english: 'Bavaria' });
    expect(findRegion('FR-IDF')).toEqual({ value: 'FR-IDF', country: 'FR', name: 'Île-de-France' });
    // Top-level subdivisions country-region-data lacks come from ISO itself.
    expect(findRegion('GB-ENG')).toEqual({ value: 'GB-ENG', country: 'GB', name: 'England' });
    expect(findRegion('ES-CT')?.name).toBe('Catalunya');
  });

  it("gives a region without an ISO code its country and name, never the package's own code", () => {
    expect(findRegion('CK:Aitutaki')).toEqual({ value: 'CK:aitutaki', country: 'CK', name: 'Aitutaki' });
    expect(regionNameKey('ru', 'Moscow Oblast')).toBe('RU:moscow');
    expect(regionNameKey('DE', 'Baden-Württemberg')).toBe('DE:baden wurttemberg');
    // country-region-data calls Logar AF-LOW; ISO says AF-LOG.
    expect(findRegion('AF-LOW')).toBeUndefined();
    expect(findRegion('AF-LOG')?.name).toBe('Logar');
    expect(REGIONS.some((region) => region.value.endsWith('-undefined'))).toBe(false);
    expect(new Set(REGIONS.map((region) => region.value)).size).toBe(REGIONS.length);
  });
});

describe('LANGUAGE_CODES', () => {
  it('lists ISO 639-1 codes, two letters each', () => {
    expect(LANGUAGE_CODES).toEqual(expect.arrayContaining(['en', 'de', 'fr', 'zh', 'ar', 'pt', 'ru']));
    expect(LANGUAGE_CODES.every((code) => /^[a-z]{2}$/.test(code))).toBe(true);
    expect(new Set(LANGUAGE_CODES).size).toBe(LANGUAGE_CODES.length);
  });
});

describe('describeCondition on the visitor fields', () => {
  it('reads regions by name, ASNs with AS, and the zone of a weekday rule', () => {
    const tree = and(
      inLeaf('region', 'IN', ['US-CA', 'CK:aitutaki']),
      inLeaf('asn', 'NOT IN', ['15169']),
      inLeaf('weekday', 'IN', ['sat', 'sun'], { Timezone: 'Europe/Paris' }),
      inLeaf('weekday', 'IN', ['mon']),
      { type: 'CompareIntCondition', data: { Var: 'osVersion', Values: { Value: 14, Comparator: '>=' } } },
      { type: 'EqualCondition', data: { Var: 'isBot', Value: 'false' } },
    );
    expect(describeCondition(tree)).toBe(
      'region IN (California (US-CA), Aitutaki (CK)) AND asn NOT IN (AS15169) AND weekday IN (sat, sun) ' +
        'Europe/Paris AND weekday IN (mon) UTC AND osVersion >= 14 AND isBot = false',
    );
  });
});
