// A Binom rule's criteria (https://docs.binom.org/campaign-rules-v2.php: all criteria must hold, any value
// within one) as one Switchyard condition (§3.8, §3.9). A criterion with an equivalent becomes a rule,
// `not_in` its negation; one without is named to the caller, never dropped silently: the group then tests
// the other criteria only.
import {
  type BinomCriterion,
  type BinomRule,
  type ConditionNode,
  DEVICES,
  MAX_TRAFFIC_SOURCE_PARAMETERS,
  WEEKDAYS,
} from '@switchyard/domain';
import {
  BROWSER_NAMES,
  combine,
  inRule,
  type Leaf,
  mapValues,
  type NoteLeftOut,
  not,
  OS_NAMES,
  texts,
} from './filter-rules.js';

/** Binom's device types (Desktop, Smartphone, Tablet, …) as Switchyard's. */
const DEVICE_NAMES: Record<string, string> = {
  smartphone: 'mobile',
  'mobile phone': 'mobile',
  phone: 'mobile',
  ...Object.fromEntries(DEVICES.map((device) => [device, device])),
};

const DAY_NAMES: Record<string, string> = Object.fromEntries(
  WEEKDAYS.flatMap((day, index) => [
    [day, day],
    [String(index + 1), day],
    [['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'][index]!, day],
  ]),
);

/** `Android`, `iOS 17`, `Chrome 120`: the name, and whether a version was given too. */
function nameOf(value: string): { name: string; versioned: boolean } {
  const match = /^(.*?)\s+(\d+(\.\d+)*)$/.exec(value);
  return match ? { name: match[1]!, versioned: true } : { name: value, versioned: false };
}

function criterionRule(criterion: BinomCriterion, note: NoteLeftOut): Leaf | null {
  const reject = criterion.operator === 'not_in';
  const values = texts(criterion.values);
  const name = criterion.type;
  if (values.length === 0 && !['bot', 'crawler', 'unique'].includes(name)) {
    note(name, 'it holds no value');
    return null;
  }
  const partly = (unknown: string[], what: string) => {
    if (unknown.length > 0) note(name, `${what} with no equivalent: ${unknown.join(', ')}`);
  };
  const token = /^token_(\d{1,2})$/.exec(name);
  if (token) {
    const index = Number(token[1]);
    if (index < 1 || index > MAX_TRAFFIC_SOURCE_PARAMETERS) {
      note(name, `only tokens 1 … ${MAX_TRAFFIC_SOURCE_PARAMETERS} have an equivalent (var1 … var10)`);
      return null;
    }
    return {
      type: 'VarsCondition',
      data: { Var: 'vars', Value: { Var: `var${index}`, Operation: reject ? 'NOT IN' : 'IN', Value: values } },
    } as Leaf;
  }
  switch (name) {
    case 'country':
      return inRule(
        'countryCode',
        values.map((value) => value.toUpperCase()),
        reject,
      );
    case 'region':
      return inRule(
        'region',
        values.map((value) => value.toUpperCase()),
        reject,
      );
    case 'city':
      return inRule('city', values, reject);
    case 'language':
      return inRule(
        'language',
        values.map((value) => value.toLowerCase()),
        reject,
      );
    case 'ip':
      return inRule('ip', values, reject);
    case 'isp':
      return inRule('isp', values, reject);
    case 'referer': {
      const rule = inRule('referrer', values, false, 'contains');
      return reject ? not(rule) : rule;
    }
    case 'device_type': {
      const { mapped, unknown } = mapValues(values, (value) => DEVICE_NAMES[value.toLowerCase()]);
      partly(unknown, 'device types');
      return mapped.length > 0 ? inRule('device', mapped, reject) : null;
    }
    case 'os_and_version':
    case 'browser_and_version': {
      const os = name === 'os_and_version';
      const read = values.map(nameOf);
      if (read.some((value) => value.versioned)) {
        note(name, 'versions are not read: only the names are tested');
      }
      const { mapped, unknown } = mapValues(
        read.map((value) => value.name),
        (value) => (os ? OS_NAMES[value.toLowerCase()] : BROWSER_NAMES.get(value.toLowerCase())),
      );
      partly(unknown, os ? 'operating systems' : 'browsers');
      return mapped.length > 0 ? inRule(os ? 'platform' : 'browser', mapped, reject) : null;
    }
    case 'day_of_week': {
      const { mapped, unknown } = mapValues(values, (value) => DAY_NAMES[value.toLowerCase()]);
      partly(unknown, 'days');
      if (mapped.length === 0) return null;
      const rule = inRule('weekday', mapped, reject) as Leaf & { data: Record<string, unknown> };
      return { ...rule, data: { ...rule.data, Timezone: criterion.timezone || 'UTC' } } as Leaf;
    }
    case 'part_of_day': {
      const spans: Leaf[] = [];
      for (const value of values) {
        const span = /^(\d{2}:\d{2})\s*-\s*(\d{2}:\d{2})$/.exec(value);
        if (!span) {
          note(name, `a part of day other than HH:MM-HH:MM: ${value}`);
          continue;
        }
        spans.push({
          type: 'BetweenCondition',
          data: {
            Var: 'timeOfDay',
            Values: { Start: span[1], End: span[2], Timezone: criterion.timezone || 'UTC' },
          },
        } as Leaf);
      }
      if (spans.length === 0) return null;
      const any = combine(spans, 'or');
      return reject ? not(any) : any;
    }
    case 'bot':
    case 'crawler':
      // Binom's bot check (MagicChecker) and its search-crawler list both come down to "a bot" here.
      return { type: 'EqualCondition', data: { Var: 'isBot', Value: reject ? 'false' : 'true' } } as Leaf;
    case 'unique':
      return { type: 'EqualCondition', data: { Var: 'isUnique', Value: reject ? 'false' : 'true' } } as Leaf;
    default:
      note(name, 'no equivalent condition');
      return null;
  }
}

/** The rule's criteria as one condition; `note` hears of each criterion (or value) with no equivalent. */
export function ruleCondition(rule: BinomRule, note: NoteLeftOut): ConditionNode {
  const rules = rule.criteria.flatMap((criterion) => {
    const leaf = criterionRule(criterion, note);
    return leaf ? [leaf] : [];
  });
  return combine(rules, 'and');
}
