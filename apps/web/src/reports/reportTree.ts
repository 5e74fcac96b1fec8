import { REPORT_FILTER_GROUPS, type ReportFilterGroup, type ReportGroup, type ReportRow } from '@switchyard/domain';
import type { ReportParams } from './reportParams';
import type { ReportRequest } from './useReport';

/** A level above the last can be opened when its value narrows the report: a filter group or a day. */
function opensChildren(group: ReportGroup): boolean {
  return group === 'day' || (REPORT_FILTER_GROUPS as readonly string[]).includes(group);
}

/**
 * Whether the report shows as a tree: several groups, the tree layout asked for, and every level but the
 * last one that can narrow the report (an hour or a weekday cannot be a filter, so those stay flat).
 */
export function showsAsTree(params: Pick<ReportParams, 'groups' | 'layout'>): boolean {
  return params.layout === 'tree' && params.groups.length > 1 && params.groups.slice(0, -1).every(opensChildren);
}

/** The rows a tree level shows at most under one parent; the rest are counted, and the flat table has them. */
export const TREE_CHILD_LIMIT = 100;

/**
 * The request for one level of the tree: the report grouped by `groups[depth]` alone, narrowed to the
 * values of the rows it opens from (`path`, one row per level above). A sort by a figure sorts every level;
 * a sort by a group's name sorts that level only; the search applies to the first level.
 */
export function treeLevelRequest(base: ReportRequest, depth: number, path: ReportRow[]): ReportRequest {
  const group = base.groups[depth] as ReportGroup;
  const filters = { ...base.filters };
  const vars = { ...base.vars };
  let range = base.range;
  path.forEach((row, level) => {
    const parent = base.groups[level] as ReportGroup;
    const value = row[parent];
    if (parent === 'day' && typeof value === 'string') range = { from: value, to: value };
    else filters[parent as ReportFilterGroup] = value === null || value === undefined ? null : String(value);
  });
  const orderBy = base.order_by;
  const levelOrder = orderBy && (base.groups as readonly string[]).includes(orderBy) && orderBy !== group;
  return {
    ...base,
    groups: [group],
    filters,
    vars,
    range,
    // The search finds names of the first level; the rows under a found one are all shown.
    search: depth === 0 ? base.search : undefined,
    order_by: levelOrder ? undefined : orderBy,
    page: depth === 0 ? base.page : 1,
    limit: depth === 0 ? base.limit : TREE_CHILD_LIMIT,
  };
}

/** A tree row's key: its values from the top level down. */
export function treeKey(groups: readonly ReportGroup[], path: ReportRow[]): string {
  return JSON.stringify(path.map((row, level) => row[groups[level] as ReportGroup] ?? null));
}
