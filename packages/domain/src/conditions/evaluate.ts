// The routing engine and the dashboard share this one reading of a tree (§3.8).
import type { Comparator, ConditionNode, LeafCondition } from './types.js';

export interface ConditionContext {
  /** Values by field name: countryCode, device, platform, browser, campaignId, regsCount, age, … */
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

/**
 * Whether one of `values`, lower-cased, is `text` (already lower-cased). Runs for every condition of
 * every path group a click passes: no callback, no array, and the click's own value lower-cased once.
 */
function includesLowered(values: readonly unknown[], text: string): boolean {
  for (const value of values) if (lower(value) === text) return true;
  return false;
}

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

/** Whether `text` contains, starts with or ends with `wanted` (both lower-cased). */
function textMatches(operation: 'contains' | 'starts with' | 'ends with', text: string, wanted: string): boolean {
  if (operation === 'contains') return text.includes(wanted);
  return operation === 'starts with' ? text.startsWith(wanted) : text.endsWith(wanted);
}

function evaluateLeaf(leaf: LeafCondition, context: ConditionContext): boolean {
  switch (leaf.type) {
    case 'EqualCondition':
      return String(context.fields[leaf.data.Var] ?? '') === leaf.data.Value;
    case 'InCondition': {
      const actual = context.fields[leaf.data.Var];
      const found = actual !== undefined && includesLowered(leaf.data.Values, lower(actual));
      return leaf.data.Operation === 'NOT IN' ? !found : found;
    }
    case 'SegmentCondition': {
      const found = leaf.data.Value.Values.some((segment) => context.inSegment(segment));
      return leaf.data.Value.Operation === 'NOT IN' ? !found : found;
    }
    case 'VarsCondition': {
      const { Var: key, Operation: operation, Value: values } = leaf.data.Value;
      const actual = context.vars[key];
      const text = lower(actual);
      switch (operation) {
        case 'IN':
          return actual !== undefined && includesLowered(values, text);
        case 'NOT IN':
          return actual === undefined || !includesLowered(values, text);
        case 'contains':
        case 'starts with':
        case 'ends with':
          if (actual === undefined) return false;
          for (const value of values) if (textMatches(operation, text, lower(value))) return true;
          return false;
      }
      return false;
    }
    case 'BetweenCondition': {
      const { Start, End, Timezone } = leaf.data.Values;
      const minute = minuteOfDay(context.now, Timezone);
      const start = toMinutes(Start);
      const end = toMinutes(End);
      if (start === end) return true;
      // A window past midnight (22:00–06:00) wraps.
      return start < end ? minute >= start && minute < end : minute >= start || minute < end;
    }
    case 'CompareIntCondition': {
      const actual = context.fields[leaf.data.Var];
      const number = typeof actual === 'number' ? actual : Number(actual);
      if (actual === undefined || actual === '' || !Number.isFinite(number)) return false;
      return compare(number, leaf.data.Values.Comparator, leaf.data.Values.Value);
    }
  }
}

/** Whether a click or lead matches the tree; AllCondition is TRUE and an empty group is TRUE. */
export function evaluateCondition(node: ConditionNode, context: ConditionContext): boolean {
  switch (node.type) {
    case 'AllCondition':
      return true;
    case 'NotCondition':
      return !evaluateCondition(node.data.Condition, context);
    case 'AndCondition':
      return node.data.Conditions.every((child) => evaluateCondition(child, context));
    case 'OrCondition':
      return (
        node.data.Conditions.length === 0 || node.data.Conditions.some((child) => evaluateCondition(child, context))
      );
    default:
      return evaluateLeaf(node, context);
  }
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
