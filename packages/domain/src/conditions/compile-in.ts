// InCondition leaves made into tests: a list compared whole (IN, NOT IN), or by part for the text
// fields read off the visitor (isp, referrer). Rule values are normalized here, once, the way the engine
// normalizes the click's field, so `AS15169` meets `15169` and `https://www.example.com/x` meets
// `example.com`.
import { compileAddressTest } from './address-match.js';
import { findRegion, isRegionNameKey } from './regions.js';
import type { InCondition } from './types.js';
import { NO_REFERRER, normalizeAsn, referrerDomain, weekdayOf } from './visitor-values.js';

export type FieldTest = (context: {
  fields: Readonly<Record<string, string | number | undefined>>;
  now: Date;
}) => boolean;

const lower = (value: unknown) => String(value ?? '').toLowerCase();

/** Whether `text` contains, starts with or ends with one of `wanted` (all lower-cased). */
export function textTest(operation: 'contains' | 'starts with' | 'ends with', wanted: readonly string[]) {
  if (operation === 'contains') return (text: string) => wanted.some((value) => text.includes(value));
  if (operation === 'starts with') return (text: string) => wanted.some((value) => text.startsWith(value));
  return (text: string) => wanted.some((value) => text.endsWith(value));
}

/** A rule value as the field carries it. */
function normalizeValue(field: string, value: string): string {
  switch (field) {
    case 'asn':
      return normalizeAsn(value) ?? lower(value);
    case 'referrer':
      return referrerDomain(value);
    case 'region':
      // A name key in any spelling (`CK:Aitutaki`) is compared as its normalized form.
      return lower(isRegionNameKey(value) ? (findRegion(value)?.value ?? value) : value);
    default:
      return lower(value);
  }
}

export function compileInCondition(leaf: InCondition): FieldTest {
  const { Var: field, Operation: operation, Values: values } = leaf.data;
  if (operation === 'contains' || operation === 'starts with' || operation === 'ends with') {
    const matches = textTest(operation, values.map(lower));
    return ({ fields }) => {
      const actual = fields[field];
      // No referrer is no text at all: `(none)` stands for it, it is not a domain to search.
      if (actual === undefined || (field === 'referrer' && actual === NO_REFERRER)) return false;
      return matches(lower(actual));
    };
  }
  const negated = operation === 'NOT IN';
  if (field === 'ip') {
    const inList = compileAddressTest(values);
    return ({ fields }) => {
      const actual = fields.ip;
      const found = actual !== undefined && actual !== '' && inList(String(actual));
      return negated ? !found : found;
    };
  }
  // The listed values normalized and put in a set once, here, not for every click.
  const listed = new Set(values.map((value) => normalizeValue(field, value)));
  if (field === 'weekday') {
    const zone = leaf.data.Timezone;
    return ({ now }) => listed.has(weekdayOf(now, zone)) !== negated;
  }
  return ({ fields }) => {
    const actual = fields[field];
    const found = actual !== undefined && listed.has(lower(actual));
    return negated ? !found : found;
  };
}
