import {
  CUSTOM_METRIC_KEY,
  DEFAULT_PAGE,
  REPORT_ATTRIBUTIONS,
  REPORT_FILTER_GROUPS,
  REPORT_GROUPS,
  REPORT_MAX_GROUPS,
  REPORT_ORDER_FIELDS,
  REPORT_VAR_FILTERS,
  type ReportAttribution,
  type ReportFilterGroup,
  type ReportGroup,
  type ReportVarFilter,
  SORT_ORDERS,
} from '@switchyard/domain';
import {
  DATE_PRESETS,
  type DatePreset,
  type DateRange,
  type DateRangeChoice,
  isDay,
  presetRange,
} from '../shared/reporting/dateRanges';

/** A built-in order, or a custom metric's key (`cm_rpm`). */
export type ReportOrderField = (typeof REPORT_ORDER_FIELDS)[number] | `cm_${string}`;
export type ReportOrder = (typeof SORT_ORDERS)[number];
/** The drill-down filters: one value per group (null: the "(none)" rows). */
export type ReportFilters = Partial<Record<ReportFilterGroup, string | null>>;
/** The sub-affiliate and custom var filters (`vars={"var1":"zone-7"}`), as `GET /api/reports` takes them. */
export type ReportVars = Partial<Record<ReportVarFilter, string | null>>;
/** What the filter chips show for each filtered value (the row's label when it was drilled into). */
export type ReportFilterLabels = Partial<Record<ReportFilterGroup, string>>;

/** The state of the reports screen, as kept in the URL. */
export interface ReportParams {
  groups: ReportGroup[];
  choice: DateRangeChoice;
  /** The custom range; presets are worked out from today, so a saved link stays "last 7 days". */
  custom?: DateRange;
  timezone: string;
  search: string;
  filters: ReportFilters;
  labels: ReportFilterLabels;
  vars: ReportVars;
  /** Conversions counted at their click's time (the default) or their postback's. */
  attribution: ReportAttribution;
  /** Bots' clicks counted in clicks, CR, EPC and CPC (`include_bots=true`); off by default. */
  includeBots: boolean;
  order_by?: ReportOrderField;
  order: ReportOrder;
  page: number;
  /**
   * The figure columns shown, in the report's order (built-in names and custom metrics' `cm_` keys);
   * undefined: DEFAULT_COLUMNS. Kept in the URL, so a saved view keeps its columns.
   */
  columns?: string[];
  /** Several groups show as a tree (each level opened under its parent, with subtotals) or as flat rows. */
  layout: ReportLayout;
}

export const REPORT_LAYOUTS = ['tree', 'flat'] as const;
export type ReportLayout = (typeof REPORT_LAYOUTS)[number];

/**
 * The figures a buyer reads first, shown until the column chooser says otherwise: the others (leads,
 * states, confirmed money, and figures added later) are a click away in the chooser.
 */
export const DEFAULT_COLUMNS: readonly string[] = [
  'clicks',
  'unique_clicks',
  'conversions',
  'revenue',
  'cost',
  'profit',
  'roi',
  'cr',
  'epc',
];
const COLUMN_KEY = /^[a-z][a-z0-9_]{0,62}$/;

export const DEFAULT_GROUPS: ReportGroup[] = ['campaign'];
export const DEFAULT_CHOICE: DatePreset = 'last7';
export const DEFAULT_ATTRIBUTION: ReportAttribution = 'click';

function oneOf<T extends string>(allowed: readonly T[], value: string | null): T | undefined {
  return allowed.find((candidate) => candidate === value);
}

/** A JSON object text from the URL, keeping the allowed keys whose values pass `accept`. */
function objectOf<Key extends string, Value>(
  text: string | null,
  keys: readonly Key[],
  accept: (value: unknown) => value is Value,
): Partial<Record<Key, Value>> {
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  const result: Partial<Record<Key, Value>> = {};
  for (const [key, value] of Object.entries(parsed)) {
    const known = oneOf(keys, key);
    if (known && accept(value)) result[known] = value;
  }
  return result;
}

function orderFieldOf(value: string | null): ReportOrderField | undefined {
  if (value !== null && CUSTOM_METRIC_KEY.test(value)) return value as ReportOrderField;
  return oneOf(REPORT_ORDER_FIELDS, value);
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';

/** The screen's state from `?group_by=campaign,offer&range=last7&timezone=…&filters={…}`; bad parts fall back. */
export function parseReportParams(searchParams: URLSearchParams, defaultTimezone: string): ReportParams {
  const groups = [
    ...new Set(
      (searchParams.get('group_by') ?? '')
        .split(',')
        .map((name) => oneOf(REPORT_GROUPS, name.trim()))
        .filter((name): name is ReportGroup => name !== undefined),
    ),
  ].slice(0, REPORT_MAX_GROUPS);
  const from = searchParams.get('from');
  const to = searchParams.get('to');
  const custom = isDay(from) && isDay(to) && from <= to ? { from, to } : undefined;
  const range = searchParams.get('range');
  const choice = range === 'custom' && custom ? 'custom' : (oneOf(DATE_PRESETS, range) ?? DEFAULT_CHOICE);
  const page = Number(searchParams.get('page'));
  const filters = objectOf(searchParams.get('filters'), REPORT_FILTER_GROUPS, isTextOrNull);
  const labels = objectOf(searchParams.get('filter_labels'), REPORT_FILTER_GROUPS, isText);
  const vars = objectOf(searchParams.get('vars'), REPORT_VAR_FILTERS, isTextOrNull);
  const columnsText = searchParams.get('columns');
  const columns =
    columnsText === null ? undefined : [...new Set(columnsText.split(',').filter((key) => COLUMN_KEY.test(key)))];
  return {
    groups: groups.length > 0 ? groups : DEFAULT_GROUPS,
    choice,
    custom: choice === 'custom' ? custom : undefined,
    timezone: searchParams.get('timezone') || defaultTimezone,
    search: searchParams.get('search') ?? '',
    filters,
    labels,
    vars,
    attribution: oneOf(REPORT_ATTRIBUTIONS, searchParams.get('attribution')) ?? DEFAULT_ATTRIBUTION,
    includeBots: searchParams.get('include_bots') === 'true',
    order_by: orderFieldOf(searchParams.get('order_by')),
    order: oneOf(SORT_ORDERS, searchParams.get('order')) ?? 'asc',
    page: Number.isInteger(page) && page >= 1 ? page : DEFAULT_PAGE,
    columns,
    layout: oneOf(REPORT_LAYOUTS, searchParams.get('layout')) ?? 'tree',
  };
}

/** The URL query of a state; defaults stay out of it. */
export function reportSearchParams(params: ReportParams, defaultTimezone: string): URLSearchParams {
  const result = new URLSearchParams();
  const groups = params.groups.join(',');
  if (groups !== DEFAULT_GROUPS.join(',')) result.set('group_by', groups);
  if (params.choice !== DEFAULT_CHOICE) result.set('range', params.choice);
  if (params.choice === 'custom' && params.custom) {
    result.set('from', params.custom.from);
    result.set('to', params.custom.to);
  }
  if (params.timezone !== defaultTimezone) result.set('timezone', params.timezone);
  if (params.search.trim()) result.set('search', params.search.trim());
  if (Object.keys(params.filters).length > 0) {
    result.set('filters', JSON.stringify(params.filters));
    const labels = Object.fromEntries(
      Object.entries(params.labels).filter(([group]) => group in params.filters),
    ) as ReportFilterLabels;
    if (Object.keys(labels).length > 0) result.set('filter_labels', JSON.stringify(labels));
  }
  if (Object.keys(params.vars).length > 0) result.set('vars', JSON.stringify(params.vars));
  if (params.attribution !== DEFAULT_ATTRIBUTION) result.set('attribution', params.attribution);
  if (params.includeBots) result.set('include_bots', 'true');
  if (params.order_by) {
    result.set('order_by', params.order_by);
    result.set('order', params.order);
  }
  if (params.page !== DEFAULT_PAGE) result.set('page', String(params.page));
  if (params.columns) result.set('columns', params.columns.join(','));
  if (params.layout !== 'tree') result.set('layout', params.layout);
  return result;
}

/** The days the state covers: the custom pick, or its preset as of `now`. */
export function rangeOf(params: ReportParams, now: Date = new Date()): DateRange {
  return params.choice === 'custom' && params.custom
    ? params.custom
    : presetRange(params.choice === 'custom' ? DEFAULT_CHOICE : params.choice, params.timezone, now);
}

/**
 * What a saved view keeps of a state — its URL query without the page (a view opens on the
 * first), and with the timezone even when it is this browser's, so the view reads the same days elsewhere.
 */
export function reportViewParams(params: ReportParams): string {
  return reportSearchParams({ ...params, page: DEFAULT_PAGE }, '').toString();
}
