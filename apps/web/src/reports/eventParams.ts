import {
  EVENT_CONVERSION_SCOPES,
  EVENT_KINDS,
  type EventConversionScope,
  type EventKind,
  REPORT_ATTRIBUTIONS,
  REPORT_FILTER_GROUPS,
  REPORT_VAR_FILTERS,
  type ReportAttribution,
  type ReportFilterGroup,
  type ReportRow,
  type ReportVarFilter,
} from '@switchyard/domain';
import type { DateRange } from '../shared/reporting/dateRanges';
import type { ReportFilterLabels, ReportFilters, ReportParams } from './reportParams';

// The event screen's state in its URL: `/tracker/reports/events/clicks?from=…&to=…&timezone=…&filters={…}`,
// the same filters a report sends, so a report row's link lists exactly the events it counts.

export interface EventParams {
  from?: string;
  to?: string;
  timezone?: string;
  filters: ReportFilters;
  labels: ReportFilterLabels;
  vars: Partial<Record<ReportVarFilter, string | null>>;
  /** Conversions: which ones (the report's counted ones unless chosen). */
  state?: EventConversionScope;
  /** Conversions: in the range by their postback's time rather than their click's (as the report said). */
  attribution?: ReportAttribution;
  page: number;
}

function objectOf<Key extends string>(text: string | null, keys: readonly Key[]): Partial<Record<Key, string | null>> {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const result: Partial<Record<Key, string | null>> = {};
    for (const [key, value] of Object.entries(parsed)) {
      if ((keys as readonly string[]).includes(key) && (value === null || typeof value === 'string')) {
        result[key as Key] = value;
      }
    }
    return result;
  } catch {
    return {};
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function parseEventParams(search: URLSearchParams): EventParams {
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  const page = Number(search.get('page'));
  const labels = objectOf(search.get('filter_labels'), REPORT_FILTER_GROUPS);
  return {
    from: DAY.test(from) ? from : undefined,
    to: DAY.test(to) ? to : undefined,
    timezone: search.get('timezone') || undefined,
    filters: objectOf(search.get('filters'), REPORT_FILTER_GROUPS),
    labels: Object.fromEntries(Object.entries(labels).filter(([, label]) => typeof label === 'string')),
    vars: objectOf(search.get('vars'), REPORT_VAR_FILTERS),
    state: EVENT_CONVERSION_SCOPES.find((scope) => scope === search.get('state')),
    attribution: REPORT_ATTRIBUTIONS.find((way) => way !== 'click' && way === search.get('attribution')),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

export function eventSearchParams(params: EventParams): URLSearchParams {
  const result = new URLSearchParams();
  if (params.from) result.set('from', params.from);
  if (params.to) result.set('to', params.to);
  if (params.timezone) result.set('timezone', params.timezone);
  if (Object.keys(params.filters).length > 0) result.set('filters', JSON.stringify(params.filters));
  const labels = Object.fromEntries(Object.entries(params.labels).filter(([group]) => group in params.filters));
  if (Object.keys(labels).length > 0) result.set('filter_labels', JSON.stringify(labels));
  if (Object.keys(params.vars).length > 0) result.set('vars', JSON.stringify(params.vars));
  if (params.state) result.set('state', params.state);
  if (params.attribution && params.attribution !== 'click') result.set('attribution', params.attribution);
  if (params.page > 1) result.set('page', String(params.page));
  return result;
}

/** The API query of a state (the report's own parameters). */
export function eventQuery(params: EventParams, page: number, limit: number) {
  return {
    date_from: params.from,
    date_to: params.to,
    timezone: params.timezone,
    filters: Object.keys(params.filters).length > 0 ? JSON.stringify(params.filters) : undefined,
    vars: Object.keys(params.vars).length > 0 ? JSON.stringify(params.vars) : undefined,
    state: params.state,
    attribution: params.attribution,
    page,
    limit,
  };
}

export function eventsPath(kind: EventKind, params: EventParams): string {
  const search = eventSearchParams(params).toString();
  return `/tracker/reports/events/${kind}${search ? `?${search}` : ''}`;
}

export function isKind(text: string | undefined): text is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(text ?? '');
}

function isFilterGroup(group: string): group is ReportFilterGroup {
  return (REPORT_FILTER_GROUPS as readonly string[]).includes(group);
}

/**
 * The events behind a report row: the report's range, timezone and filters, and each of the row's values
 * as a filter (a day narrows the range to that day; an hour is not narrowed further). No row: the
 * totals', the report's own filters.
 */
export function rowEventParams(report: ReportParams, range: DateRange, row?: ReportRow): EventParams {
  const filters: ReportFilters = { ...report.filters };
  const labels: ReportFilterLabels = { ...report.labels };
  let { from, to } = range;
  for (const group of row ? report.groups : []) {
    const value = row?.[group];
    if (group === 'day' && typeof value === 'string') {
      from = value;
      to = value;
    } else if (isFilterGroup(group)) {
      filters[group] = value === null || value === undefined ? null : String(value);
      const label = row?.[`${group}_name`];
      if (typeof label === 'string') labels[group] = label;
    }
  }
  return {
    from,
    to,
    timezone: report.timezone,
    filters,
    labels,
    vars: { ...report.vars },
    ...(report.attribution !== 'click' ? { attribution: report.attribution } : {}),
    page: 1,
  };
}
