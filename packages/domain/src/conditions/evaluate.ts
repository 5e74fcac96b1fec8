// The routing engine and the dashboard share this one reading of a tree (§3.8).
import { compileInCondition, textTest } from './compile-in.js';
import type { Comparator, ConditionNode, LeafCondition } from './types.js';
import { weekdayOf } from './visitor-values.js';

export interface ConditionContext {
  /**
   * Values by field name: countryCode, device, platform, browser, campaignId, regsCount, age, … and
   * region, city, asn, isp, language, referrer, ip, osVersion, browserVersion, isUnique, isBot.
   */
  fields: Readonly<Record<string, string | number | undefined>>;
  /** The visitor's or lead's vars: subaff, utm_*, var1…var10, … */
  vars: Readonly<Record<string, string | undefined>>;
  /** The moment the decision is made. */
  now: Date;
  /** Whether the click or lead falls in a segment (the caller evaluates the segment's own tree). */
  inSegment(segmentExternalId: string): boolean;
}

const minuteFormatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes since midnight at `now` in `timeZone`; UTC when the zone is unknown or empty. */
export function minuteOfDay(now: Date, timeZone: string): number {
  const zone = timeZone || 'UTC';
  let formatter = minuteFormatters.get(zone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
    } catch {
      return now.getUTCHours() * 60 + now.getUTCMinutes();
    }
    minuteFormatters.set(zone, formatter);
  }
  let hours = 0;
  let minutes = 0;
  for (const part of formatter.formatToParts(now)) {
    if (part.type === 'hour') hours = Number(part.value);
    if (part.type === 'minute') minutes = Number(part.value);
  }
  return hours * 60 + minutes;
}

const toMinutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const lower = (value: unknown) => String(value ?? '').toLowerCase();

function compare(actual: number, comparator: Comparator, expected: number): boolean {
  switch (comparator) {
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
    case '==':
      return actual === expected;
    case '!=':
      return actual !== expected;
  }
}

/** A tree made into a test, once: what routing runs for every path group a click passes. */
export type ConditionTest = (context: ConditionContext) => boolean;

const always: ConditionTest = () => true;
const never: ConditionTest = () => false;

/** One leaf as a test: what compileCondition runs for it, and what traceCondition reports. */
export function compileLeaf(leaf: LeafCondition): ConditionTest {
  switch (leaf.type) {
    case 'EqualCondition': {
      const { Var: field, Value: expected } = leaf.data;
      return (context) => String(context.fields[field] ?? '') === expected;
    }
    case 'InCondition':
      return compileInCondition(leaf);
    case 'SegmentCondition': {
      const segments = leaf.data.Value.Values;
      const negated = leaf.data.Value.Operation === 'NOT IN';
      return (context) => {
        const found = segments.some((segment) => context.inSegment(segment));
        return negated ? !found : found;
      };
    }
    case 'VarsCondition': {
      const { Var: key, Operation: operation, Value: values } = leaf.data.Value;
      switch (operation) {
        case 'IN':
        case 'NOT IN': {
          const listed = new Set(values.map(lower));
          const negated = operation === 'NOT IN';
          return (context) => {
            const actual = context.vars[key];
            const found = actual !== undefined && listed.has(lower(actual));
            return negated ? !found : found;
          };
        }
        case 'contains':
        case 'starts with':
        case 'ends with': {
          const matches = textTest(operation, values.map(lower));
          return (context) => {
            const actual = context.vars[key];
            return actual !== undefined && matches(lower(actual));
          };
        }
      }
      return never;
    }
    case 'BetweenCondition': {
      const { Start, End, Timezone } = leaf.data.Values;
      const start = toMinutes(Start);
      const end = toMinutes(End);
      if (start === end) return always;
      // A window past midnight (22:00–06:00) wraps.
      return (context) => {
        const minute = minuteOfDay(context.now, Timezone);
        return start < end ? minute >= start && minute < end : minute >= start || minute < end;
      };
    }
    case 'CompareIntCondition': {
      const { Var: field } = leaf.data;
      const { Comparator: comparator, Value: expected } = leaf.data.Values;
      return (context) => {
        const actual = context.fields[field];
        const number = typeof actual === 'number' ? actual : Number(actual);
        if (actual === undefined || actual === '' || !Number.isFinite(number)) return false;
        return compare(number, comparator, expected);
      };
    }
  }
  return never;
}

/**
 * A tree as a test (§3.8): AllCondition and an empty group are TRUE. Made once when routing is compiled:
 * the listed values are lower-cased and put in a set here, where reading the tree for each click
 * lower-cased every listed value of every condition it passed.
 */
export function compileCondition(node: ConditionNode): ConditionTest {
  switch (node.type) {
    case 'AllCondition':
      return always;
    case 'NotCondition': {
      const inner = compileCondition(node.data.Condition);
      return (context) => !inner(context);
    }
    case 'AndCondition': {
      const children = node.data.Conditions.map(compileCondition);
      return (context) => {
        for (const child of children) if (!child(context)) return false;
        return true;
      };
    }
    case 'OrCondition': {
      const children = node.data.Conditions.map(compileCondition);
      if (children.length === 0) return always;
      return (context) => {
        for (const child of children) if (child(context)) return true;
        return false;
      };
    }
    default:
      return compileLeaf(node);
  }
}

/** A tree as traceCondition reads it: each leaf with the value it tested, each node with its verdict. */
export type ConditionTrace =
  | { type: 'AllCondition'; verdict: true }
  | { type: 'NotCondition'; verdict: boolean; condition: ConditionTrace }
  | { type: 'AndCondition' | 'OrCondition'; verdict: boolean; conditions: ConditionTrace[] }
  | { type: LeafCondition['type']; verdict: boolean; data: LeafCondition['data']; value: TracedValue };

/** What a leaf looked at: a field's or var's value, the minute of day, or the segments the subject is in. */
export type TracedValue = string | number | string[] | null;

const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

function leafValue(leaf: LeafCondition, context: ConditionContext): TracedValue {
  switch (leaf.type) {
    case 'SegmentCondition':
      return leaf.data.Value.Values.filter((segment) => context.inSegment(segment));
    case 'VarsCondition':
      return context.vars[leaf.data.Value.Var] ?? null;
    case 'BetweenCondition':
      return hhmm(minuteOfDay(context.now, leaf.data.Values.Timezone));
    case 'InCondition':
      if (leaf.data.Var === 'weekday') return weekdayOf(context.now, leaf.data.Timezone);
      return context.fields[leaf.data.Var] ?? null;
    default:
      return context.fields[leaf.data.Var] ?? null;
  }
}

/**
 * Why a subject does or does not match `node`: the verdicts come from the same leaf tests
 * routing compiles, and the groups read them as the compiled test does (an empty OR is true). Every child
 * is traced, even after an AND's first false, so the whole tree is explained.
 */
export function traceCondition(node: ConditionNode, context: ConditionContext): ConditionTrace {
  switch (node.type) {
    case 'AllCondition':
      return { type: 'AllCondition', verdict: true };
    case 'NotCondition': {
      const condition = traceCondition(node.data.Condition, context);
      return { type: 'NotCondition', verdict: !condition.verdict, condition };
    }
    case 'AndCondition': {
      const conditions = node.data.Conditions.map((child) => traceCondition(child, context));
      return { type: 'AndCondition', verdict: conditions.every((child) => child.verdict), conditions };
    }
    case 'OrCondition': {
      const conditions = node.data.Conditions.map((child) => traceCondition(child, context));
      const verdict = conditions.length === 0 || conditions.some((child) => child.verdict);
      return { type: 'OrCondition', verdict, conditions };
    }
    default:
      return { type: node.type, verdict: compileLeaf(node)(context), data: node.data, value: leafValue(node, context) };
  }
}

/** Whether a click or lead matches the tree (compiled for this one call; routing keeps its compiled tests). */
export function evaluateCondition(node: ConditionNode, context: ConditionContext): boolean {
  return compileCondition(node)(context);
}

/** The segments a tree refers to, directly (the server follows them for `segments_chain`). */
export function referencedSegments(node: ConditionNode): string[] {
  switch (node.type) {
    case 'NotCondition':
      return referencedSegments(node.data.Condition);
    case 'AndCondition':
    case 'OrCondition':
      return [...new Set(node.data.Conditions.flatMap(referencedSegments))];
    case 'SegmentCondition':
      return [...node.data.Value.Values];
    default:
      return [];
  }
}
