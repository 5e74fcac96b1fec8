// A report's rows as they are listed (merge.ts): ordered by a key computed once per row, ties by the
// values, and shown with their labels and figures.
import {
  isReportTimeGroup,
  type ReportFigures,
  type ReportGroup,
  type ReportRow,
  WEEKDAYS,
  type Weekday,
} from '@switchyard/domain';
import { type Counts, NONE_LABEL } from '../report-plan/plan.js';

/** Ties are ordered by the values, group after group, rows without a value last (as the stores do). */
export function compareValues(left: readonly (string | null)[], right: readonly (string | null)[]): number {
  for (let index = 0; index < left.length; index += 1) {
    const a = left[index] ?? null;
    const b = right[index] ?? null;
    if (a === b) continue;
    if (a === null) return 1;
    if (b === null) return -1;
    return a < b ? -1 : 1;
  }
  return 0;
}

/** A row as the report answers it: each group's value and label, the joined label, the figures. */
export function shownRow(
  groups: readonly ReportGroup[],
  labels: readonly string[],
  values: readonly (string | null)[],
  shown: ReportFigures & Record<string, number>,
): ReportRow {
  const row = { label: labels.join(' / ') } as ReportRow;
  groups.forEach((group, index) => {
    row[group] = values[index] ?? null;
    row[`${group}_name`] = labels[index] ?? NONE_LABEL;
  });
  return Object.assign(row, shown);
}

/** A report row before it is shown: what it is ordered by, computed once. */
export interface Listed {
  labels: string[];
  values: (string | null)[];
  counts: Counts;
  sortKey: number | string | null;
  /** Its figures, when ordered by one. */
  shown: (ReportFigures & Record<string, number>) | null;
}

/** What a row is ordered by: its label, a group's label (or a time group's value), or a figure. */
export function sortKeyOf(entry: Listed, orderBy: string, groupIndex: number): number | string | null {
  if (orderBy === 'label') return entry.labels.join(' / ').toLowerCase();
  if (groupIndex >= 0) {
    const value = entry.values[groupIndex] ?? null;
    if (value === null) return null;
    if (orderBy === 'weekday') return WEEKDAYS.indexOf(value as Weekday);
    return isReportTimeGroup(orderBy as ReportGroup) ? value : (entry.labels[groupIndex] ?? '').toLowerCase();
  }
  return (entry.shown as Record<string, number> | null)?.[orderBy] ?? null;
}
