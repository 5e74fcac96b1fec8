// Values a rule on a visitor field cannot hold, refused on save with the field and the value
// named ("An invalid CIDR, ASN, region code or version in a rule is refused with 400 on its field path").
import { VALIDATION_MESSAGES as M } from '../messages.js';
import { parseAddressRule } from '../network-addresses.js';
import { isTimeZone } from '../reports.js';
import { CONDITION_FIELDS } from './fields.js';
import { findRegion } from './regions.js';
import { type ConditionNode, IN_OPERATIONS, type LeafCondition } from './types.js';
import { isVersionNumber, LANGUAGE_CODES, normalizeAsn, WEEKDAYS } from './visitor-values.js';

export interface ConditionValueProblem {
  /** `value`: a value the field cannot hold; `operation`: an operation (or leaf type) it does not allow. */
  kind: 'value' | 'operation';
  field: string;
  value: string;
}

/** The visitor fields beyond country, device, platform and browser, whose leaves are checked value by value. */
const CHECKED_FIELDS = new Set([
  'region',
  'city',
  'language',
  'osVersion',
  'browserVersion',
  'ip',
  'asn',
  'isp',
  'referrer',
  'isBot',
  'isUnique',
  'weekday',
]);

const weekdays: readonly string[] = WEEKDAYS;

/** Whether one listed value suits the field. */
function validListValue(field: string, value: string): boolean {
  switch (field) {
    case 'ip':
      return parseAddressRule(value).ok;
    case 'asn':
      return normalizeAsn(value) !== null;
    case 'region':
      return findRegion(value) !== undefined;
    case 'language':
      return LANGUAGE_CODES.includes(value.trim().toLowerCase());
    case 'weekday':
      return weekdays.includes(value.trim().toLowerCase());
    default:
      return true;
  }
}

/** `HH:MM` on a 24-hour clock: the shape alone (`\d\d:\d\d`) let `25:99` through. */
export function isTimeOfDay(text: string): boolean {
  const match = /^(\d\d):(\d\d)$/.exec(text);
  return match !== null && Number(match[1]) < 24 && Number(match[2]) < 60;
}

/** A rule's zone: empty (UTC) or one the runtime knows, for every rule that reads the clock. */
const validZone = (zone: string | undefined) => !zone || isTimeZone(zone);

function leafProblem(leaf: LeafCondition): ConditionValueProblem | undefined {
  const field = leaf.data.Var;
  // A time window reads the clock whatever its field is named, so each one's times and zone are checked.
  if (leaf.type === 'BetweenCondition') {
    const { Start, End, Timezone } = leaf.data.Values;
    const bad = [Start, End].find((time) => !isTimeOfDay(time)) ?? (validZone(Timezone) ? undefined : Timezone);
    return bad === undefined ? undefined : { kind: 'value', field, value: bad };
  }
  const known = CONDITION_FIELDS.find((candidate) => candidate.var === field);
  if (leaf.type === 'InCondition') {
    // Matching by part is for the fields that allow it; any other InCondition stays IN or NOT IN.
    const allowed = known?.condition === 'InCondition' ? known.operations : IN_OPERATIONS;
    if (!allowed.includes(leaf.data.Operation)) return { kind: 'operation', field, value: leaf.data.Operation };
  }
  if (!CHECKED_FIELDS.has(field)) return undefined;
  if (known && known.condition !== leaf.type) return { kind: 'operation', field, value: leaf.type };
  switch (leaf.type) {
    case 'InCondition': {
      const bad = leaf.data.Values.find((value) => !validListValue(field, value));
      if (bad !== undefined) return { kind: 'value', field, value: bad };
      const zone = leaf.data.Timezone;
      if (field === 'weekday' && !validZone(zone)) return { kind: 'value', field, value: zone ?? '' };
      return undefined;
    }
    case 'CompareIntCondition': {
      const value = leaf.data.Values.Value;
      return isVersionNumber(value) ? undefined : { kind: 'value', field, value: String(value) };
    }
    case 'EqualCondition': {
      const value = leaf.data.Value;
      return value === 'true' || value === 'false' ? undefined : { kind: 'value', field, value };
    }
    default:
      return undefined;
  }
}

/** The first value or operation in a tree that its field cannot hold; undefined when there is none. */
export function conditionValueProblem(node: ConditionNode): ConditionValueProblem | undefined {
  switch (node.type) {
    case 'AllCondition':
      return undefined;
    case 'NotCondition':
      return conditionValueProblem(node.data.Condition);
    case 'AndCondition':
    case 'OrCondition':
      for (const child of node.data.Conditions) {
        const problem = conditionValueProblem(child);
        if (problem) return problem;
      }
      return undefined;
    default:
      return leafProblem(node);
  }
}

/** The message of a problem, with its field and value filled in. */
export function conditionValueMessage(problem: ConditionValueProblem): string {
  const template = problem.kind === 'value' ? M.invalidConditionValue : M.invalidConditionOperation;
  return template.replace('{{field}}', problem.field).replace('{{value}}', problem.value);
}
