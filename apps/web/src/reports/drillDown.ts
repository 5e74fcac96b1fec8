import { REPORT_FILTER_GROUPS, type ReportFilterGroup, type ReportGroup, type ReportRow } from '@switchyard/domain';
import type { ReportParams } from './reportParams';

/** The groups worth opening first, from the campaign down to the visitor; the others follow in their order. */
const FIRST_STEPS: readonly ReportFilterGroup[] = ['campaign', 'offer', 'lander', 'country', 'device', 'browser'];

/** The order a drill-down walks the groups in: campaign → offer → lander → country → … */
export const DRILL_ORDER: readonly ReportFilterGroup[] = [
  ...FIRST_STEPS,
  ...REPORT_FILTER_GROUPS.filter((group) => !FIRST_STEPS.includes(group)),
];

function isFilterGroup(group: ReportGroup): group is ReportFilterGroup {
  return (REPORT_FILTER_GROUPS as readonly string[]).includes(group);
}

/** The levels a row can open, the usual next one first: every filter group not grouped or filtered yet. */
export function drillChoices(params: ReportParams, row: ReportRow): ReportFilterGroup[] {
  const first = drillDown(params, row)?.groups?.[0];
  if (!first || !isFilterGroup(first)) return [];
  const filters = new Set<string>([...Object.keys(params.filters), ...params.groups]);
  return [first, ...DRILL_ORDER.filter((group) => group !== first && !filters.has(group))];
}

/**
 * Opening a row: each of its values becomes a filter (a day narrows the range to that day instead), and
 * the report moves on to the next group of DRILL_ORDER after the row's own, neither grouped nor filtered.
 * Null when there is nowhere to go: no next group, or nothing to narrow by (an hour only). `chosen`
 * opens that level instead of the usual next one.
 */
export function drillDown(
  params: ReportParams,
  row: ReportRow,
  chosen?: ReportFilterGroup,
): Partial<ReportParams> | null {
  const filters = { ...params.filters };
  const labels = { ...params.labels };
  let day: string | undefined;
  let narrowed = false;
  for (const group of params.groups) {
    const value = row[group];
    if (group === 'day' && typeof value === 'string') {
      day = value;
      narrowed = true;
    } else if (isFilterGroup(group)) {
      filters[group] = value === null || value === undefined ? null : String(value);
      const label = row[`${group}_name`];
      if (typeof label === 'string') labels[group] = label;
      narrowed = true;
    }
  }
  const last = params.groups.filter(isFilterGroup).at(-1);
  const after = last === undefined ? 0 : DRILL_ORDER.indexOf(last) + 1;
  const open = (group: ReportFilterGroup) => !(group in filters) && !params.groups.includes(group);
  const next = chosen && open(chosen) ? chosen : (DRILL_ORDER.slice(after).find(open) ?? DRILL_ORDER.find(open));
  if (!narrowed || !next) return null;
  return {
    groups: [next],
    filters,
    labels,
    ...(day ? { choice: 'custom' as const, custom: { from: day, to: day } } : {}),
    order_by: undefined,
    page: 1,
    search: '',
  };
}
