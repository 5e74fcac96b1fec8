// Rule pieces every tracker's filters share once read: a list of values, an IN rule (or its negation),
// OS and browser names as Switchyard's, and whole-number version comparisons.
import { BROWSERS, type ConditionNode } from '@switchyard/domain';

export type Leaf = ConditionNode;
export type NoteLeftOut = (name: string, reason: string) => void;

/** The payload as a list of texts (Keitaro sends lists; a lone value or a comma list reads too). */
export function texts(payload: unknown): string[] {
  const list = Array.isArray(payload) ? payload : typeof payload === 'string' ? payload.split(',') : [payload];
  return list
    .filter((item) => typeof item === 'string' || typeof item === 'number')
    .map((item) => String(item).trim())
    .filter((item) => item !== '');
}

export const inRule = (Var: string, values: string[], reject: boolean, Operation = 'IN'): Leaf =>
  ({
    type: 'InCondition',
    data: { Var, Operation: reject && Operation === 'IN' ? 'NOT IN' : Operation, Values: values },
  }) as Leaf;

export const not = (condition: Leaf): Leaf => ({ type: 'NotCondition', data: { Condition: condition } });

export const OS_NAMES: Record<string, string> = {
  ios: 'ios',
  'iphone os': 'ios',
  ipados: 'ios',
  android: 'android',
  windows: 'windows',
  'windows phone': 'windows',
  'mac os x': 'mac',
  'mac os': 'mac',
  macos: 'mac',
  osx: 'mac',
  linux: 'linux',
  ubuntu: 'linux',
  'chrome os': 'chromeos',
  chromeos: 'chromeos',
  freebsd: 'bsd',
  openbsd: 'bsd',
};
export const BROWSER_NAMES = new Map(BROWSERS.map((name) => [name.toLowerCase(), name] as const));

/** Values mapped through `known`; the unknown ones named in `unknown`. */
export function mapValues(values: string[], known: (value: string) => string | undefined) {
  const mapped: string[] = [];
  const unknown: string[] = [];
  for (const value of values) {
    const to = known(value);
    if (to) mapped.push(to);
    else unknown.push(value);
  }
  return { mapped: [...new Set(mapped)], unknown };
}

/** `14`, `>=14`, `<10.3`: a whole-number comparison of the major version. */
export function versionRules(Var: string, values: string[]): Leaf[] | null {
  const rules: Leaf[] = [];
  for (const value of values) {
    const match = /^(>=|<=|>|<|==|=|!=)?\s*(\d{1,6})(\.\d+)*$/.exec(value);
    if (!match) return null;
    const comparator = match[1] === '=' || !match[1] ? '==' : match[1];
    rules.push({
      type: 'CompareIntCondition',
      data: { Var, Values: { Value: Number(match[2]), Comparator: comparator } },
    } as Leaf);
  }
  return rules;
}

/** Rules joined as one condition: none is every visitor, one is itself. */
export function combine(rules: Leaf[], join: 'and' | 'or'): ConditionNode {
  if (rules.length === 0) return { type: 'AllCondition' };
  if (rules.length === 1) return rules[0]!;
  return join === 'or'
    ? { type: 'OrCondition', data: { Conditions: rules } }
    : { type: 'AndCondition', data: { Conditions: rules } };
}
