import { type ConditionLabels, describeCondition } from './conditions/describe.js';
import { parseConditionText } from './conditions/schema.js';

// What a kept change changed, field by field, in the product's words. Rows that carry an id of
// their own (path groups, paths, offer and lander rows, payout rule sets and rules) are matched by that
// id, not by their place, so a row moved up reads as a new priority and not as every field changed;
// conditions read as the condition language (`describeCondition`), not as JSON.

/** The kind of row each row list of a record holds (keyed by the list's field name). */
const ROW_LISTS = {
  path_groups: 'path_group',
  paths: 'path',
  offers: 'offer',
  landers: 'lander',
  payout_rule_sets: 'payout_rule_set',
  rules: 'payout_rule',
} as const;

export type HistoryRowKind = (typeof ROW_LISTS)[keyof typeof ROW_LISTS];

/** One row on the way to a change, e.g. path group “Britain”. */
export interface HistoryRowRef {
  kind: HistoryRowKind;
  id: string;
  /** The row's own name, its offer, lander or event, or else its place (`#2`). */
  name: string;
}

export type HistoryValue = string | number | boolean | null;

export interface HistoryChange {
  /** The rows the change is in, outermost first (empty for the record's own fields). */
  rows: HistoryRowRef[];
  /** `added` and `removed`: the last of `rows` came or went; `changed`: `field`'s value. */
  kind: 'added' | 'removed' | 'changed';
  /** The field's name in its row or record (`weight`, `condition`, `address.city`); null for a row. */
  field: string | null;
  /** Readable values: conditions as the condition language, lists as `a, b`; null for none. */
  before: HistoryValue;
  after: HistoryValue;
  /** A condition's stored texts (JSON), for a reader that names its campaigns and segments itself. */
  condition?: { before: string | null; after: string | null };
  /** A list of rows without ids of their own (a source's parameters, postback events): each side as rows. */
  table?: { before: HistoryTableRow[]; after: HistoryTableRow[] };
}

/** One row of a list shown as a table: its fields in order, each as one readable value. */
export type HistoryTableRow = Record<string, HistoryValue>;

type Row = Record<string, unknown> & { id: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isRowList = (value: unknown): value is Row[] =>
  Array.isArray(value) && value.every((item) => isObject(item) && typeof item.id === 'string');

function rowName(kind: HistoryRowKind, row: Row, index: number): string {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : null);
  const named =
    kind === 'offer'
      ? text(row.offer_external_id)
      : kind === 'lander'
        ? text(row.lander_external_id)
        : kind === 'payout_rule_set'
          ? (text(row.event_name) ?? text(row.postback_event_external_id))
          : text(row.name);
  return named ?? `#${index + 1}`;
}

/** A value as one line: conditions in the condition language, lists joined, objects as JSON. */
export function readableHistoryValue(
  field: string,
  value: unknown,
  labels: ConditionLabels = (_, text) => text,
): HistoryValue {
  if (value === undefined || value === null) return null;
  if (field.split('.').at(-1) === 'condition' && typeof value === 'string') {
    const parsed = parseConditionText(value);
    return parsed.tree ? describeCondition(parsed.tree, labels) : value;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object')) {
    return value.map(String).join(', ');
  }
  return JSON.stringify(value);
}

const isObjectList = (value: unknown): value is Record<string, unknown>[] =>
  Array.isArray(value) && value.length > 0 && value.every(isObject);

/** A list of rows as table rows (a parameter list reads as a table, not as JSON). */
function tableRows(field: string, value: unknown, labels: ConditionLabels): HistoryTableRow[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(isObject)
    .map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([key, cell]) => [key, readableHistoryValue(`${field}.${key}`, cell, labels)]),
      ),
    );
}

/** Nothing, however stored: a create's empty fields and a field that went from null to '' are no change. */
const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b) || (isEmpty(a) && isEmpty(b));

function diffFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  rows: HistoryRowRef[],
  prefix: string,
  labels: ConditionLabels,
  changes: HistoryChange[],
): void {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  for (const key of keys) {
    if (rows.length > 0 && key === 'id') continue;
    const a = before[key];
    const b = after[key];
    if (same(a, b)) continue;
    const field = prefix ? `${prefix}.${key}` : key;
    const kind = ROW_LISTS[key as keyof typeof ROW_LISTS];
    if (kind && isRowList(a ?? []) && isRowList(b ?? [])) {
      diffRows(kind, (a ?? []) as Row[], (b ?? []) as Row[], rows, labels, changes);
    } else if (isObject(a) && isObject(b)) {
      diffFields(a, b, rows, field, labels, changes);
    } else {
      const change: HistoryChange = {
        rows,
        kind: 'changed',
        field,
        before: readableHistoryValue(field, a, labels),
        after: readableHistoryValue(field, b, labels),
      };
      if ((isObjectList(a) || isObjectList(b)) && (isEmpty(a) || isObjectList(a)) && (isEmpty(b) || isObjectList(b))) {
        change.table = { before: tableRows(field, a, labels), after: tableRows(field, b, labels) };
      }
      if (key === 'condition') {
        change.condition = { before: typeof a === 'string' ? a : null, after: typeof b === 'string' ? b : null };
      }
      changes.push(change);
    }
  }
}

function diffRows(
  kind: HistoryRowKind,
  before: Row[],
  after: Row[],
  rows: HistoryRowRef[],
  labels: ConditionLabels,
  changes: HistoryChange[],
): void {
  const afterIds = new Set(after.map((row) => row.id));
  const beforeById = new Map(before.map((row, index) => [row.id, { row, index }]));
  before.forEach((row, index) => {
    if (afterIds.has(row.id)) return;
    const ref = { kind, id: row.id, name: rowName(kind, row, index) };
    changes.push({ rows: [...rows, ref], kind: 'removed', field: null, before: ref.name, after: null });
  });
  after.forEach((row, index) => {
    const old = beforeById.get(row.id);
    const ref = { kind, id: row.id, name: rowName(kind, row, index) };
    if (!old) {
      changes.push({ rows: [...rows, ref], kind: 'added', field: null, before: null, after: ref.name });
      return;
    }
    // A renamed row is named by its earlier name on the way to its other changes.
    const path = [...rows, { ...ref, name: rowName(kind, old.row, old.index) }];
    diffFields(old.row, row, path, '', labels, changes);
  });
}

/**
 * The field-by-field difference of two versions of a record (a kept change's `before` and `after`; null
 * for none), e.g. path group “Britain” › path “A”: weight 70 → 10. Only what differs is listed, in the
 * record's field order, rows by their ids.
 */
export function diffHistoryVersions(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  labels: ConditionLabels = (_, value) => value,
): HistoryChange[] {
  const changes: HistoryChange[] = [];
  diffFields(before ?? {}, after ?? {}, [], '', labels, changes);
  return changes;
}
