import { z } from 'zod';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './constants.js';
import { SORT_ORDERS } from './list-query.js';

// §3.10, §7.5: `GET /api/reports` groups clicks, leads and conversions.

export const REPORT_VAR_NAMES = [
  'var1',
  'var2',
  'var3',
  'var4',
  'var5',
  'var6',
  'var7',
  'var8',
  'var9',
  'var10',
] as const;

export type ReportVarName = (typeof REPORT_VAR_NAMES)[number];

/** Every name `group_by` accepts (one or more, comma-separated or repeated). */
export const REPORT_GROUPS = [
  'campaign',
  'flow',
  'path_group',
  'path',
  'offer',
  'lander',
  'traffic_source',
  'affiliate_network',
  'country',
  'device',
  'platform',
  'browser',
  'day',
  'hour',
  'subaff',
  ...REPORT_VAR_NAMES,
  // What is read off the visitor, and the bot verdict.
  'region',
  'city',
  'asn',
  'isp',
  'language',
  'referrer_domain',
  'weekday',
  'bot',
  'bot_reason',
] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

/** Groups read from an event's time in the report's timezone, not from a column. */
export const REPORT_TIME_GROUPS = ['day', 'hour', 'weekday'] as const satisfies readonly ReportGroup[];
export type ReportTimeGroup = (typeof REPORT_TIME_GROUPS)[number];

export function isReportTimeGroup(group: string): group is ReportTimeGroup {
  return (REPORT_TIME_GROUPS as readonly string[]).includes(group);
}

/** The vars filter's keys: `vars={"subaff":"s1","var1":"zone-7"}` keeps events whose columns equal these. */
export const REPORT_VAR_FILTERS = ['subaff', ...REPORT_VAR_NAMES] as const;
export type ReportVarFilter = (typeof REPORT_VAR_FILTERS)[number];

/**
 * The figures of a report row (and of `totals`), in the order a report shows them. Conversions
 * and revenue count pending and approved conversions; `approved`, `pending` and `rejected` count each
 * state; `revenue_confirmed` and `roi_confirmed` count approved conversions only. `clicks`,
 * `unique_clicks` and what is divided by them count human clicks unless the report asks `include_bots`;
 * `bot_clicks` counts the clicks with a bot verdict either way. `lp_clicks`: of those clicks, the ones
 * whose visitor followed the lander's offer link (`/c/{campaign}/offer`, once per click; bots' left out
 * unless `include_bots`, as from clicks). `lp_ctr`: lp_clicks / the clicks that were sent to a lander
 * × 100, rounded as `cr` is (to 6 decimals; 2 of 3 is 66.666667) — clicks sent straight to an offer
 * could never go through a lander, so they do not dilute it; 0 with no lander clicks.
 */
export const REPORT_METRICS = [
  'clicks',
  'unique_clicks',
  'leads',
  'conversions',
  'approved',
  'pending',
  'rejected',
  'revenue',
  'revenue_confirmed',
  'cost',
  'profit',
  'roi',
  'roi_confirmed',
  'cr',
  'epc',
  'cpc',
  'cpa',
  'bot_clicks',
  'lp_clicks',
  'lp_ctr',
] as const;
export type ReportMetric = (typeof REPORT_METRICS)[number];

/**
 * The figures that are money (cost, revenue, profit, ROI, EPC). Only a user holding
 * `/tracker/reports/money` sees them: the server leaves them out of reports for anyone else, and the
 * screens leave out their columns.
 */
export const MONEY_METRICS = [
  'revenue',
  'revenue_confirmed',
  'cost',
  'profit',
  'roi',
  'roi_confirmed',
  'epc',
  'cpc',
  'cpa',
] as const satisfies readonly ReportMetric[];
export type MoneyMetric = (typeof MONEY_METRICS)[number];

export function isMoneyMetric(name: string): name is MoneyMetric {
  return (MONEY_METRICS as readonly string[]).includes(name);
}

/** The figures a user sees, in the report's order: every one, or every one but money. */
export function visibleMetrics(seesMoney: boolean): readonly ReportMetric[] {
  return seesMoney ? REPORT_METRICS : REPORT_METRICS.filter((metric) => !isMoneyMetric(metric));
}

/** `order_by`: a figure, a grouped name (its label; time in order) or `label` (the joined labels). */
export const REPORT_ORDER_FIELDS = [...REPORT_METRICS, ...REPORT_GROUPS, 'label'] as const;

/** A custom metric's key (custom-metrics.ts), a figure of report rows and an `order_by`. */
export const CUSTOM_METRIC_KEY = /^cm_[a-z0-9_]{1,40}$/;

export const REPORT_MAX_GROUPS = 4;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Zones found valid: building a formatter to ask costs ~80 µs, and an import asks once per line. */
const KNOWN_ZONES = new Set<string>();

export function isTimeZone(zone: string): boolean {
  if (KNOWN_ZONES.has(zone)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    return false;
  }
  // Bounded: zone names come from requests.
  if (KNOWN_ZONES.size < 1000) KNOWN_ZONES.add(zone);
  return true;
}

export const ZDate = z.string().trim().refine(isDate, { message: 'Use a date as YYYY-MM-DD.' });

/** `a,b` or a repeated parameter → the list of names, unknown names refused with the ones accepted. */
const ZGroupBy = z
  .union([z.string(), z.array(z.string())])
  .transform((value) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((part) => part.split(','))
      .map((part) => part.trim())
      .filter((part) => part !== ''),
  )
  .superRefine((names, context) => {
    const unknown = names.filter((name) => !(REPORT_GROUPS as readonly string[]).includes(name));
    if (unknown.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `Cannot group by ${unknown.join(', ')}; use ${REPORT_GROUPS.join(', ')}.`,
      });
    }
    if (names.length === 0) context.addIssue({ code: 'custom', message: 'Name at least one group.' });
    if (new Set(names).size !== names.length) context.addIssue({ code: 'custom', message: 'A group is named twice.' });
    if (names.length > REPORT_MAX_GROUPS) {
      context.addIssue({ code: 'custom', message: `Group by at most ${REPORT_MAX_GROUPS} names.` });
    }
  })
  .transform((names) => names as ReportGroup[]);

/** The groups a report can be narrowed to one value of (`filters`): every group but the time ones. */
export const REPORT_FILTER_GROUPS = REPORT_GROUPS.filter(
  (group): group is Exclude<ReportGroup, ReportTimeGroup> => !isReportTimeGroup(group),
);
export type ReportFilterGroup = (typeof REPORT_FILTER_GROUPS)[number];

/**
 * A JSON object text (what a query string carries) or an object, whose keys are among `allowed` and whose
 * values are a text or null (null: the events without a value, the rows labelled "(none)").
 */
function jsonObjectOf<Key extends string>(parameter: string, allowed: readonly Key[]) {
  return z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .transform((value, context) => {
      if (typeof value !== 'string') return value;
      if (value.trim() === '') return {};
      try {
        return JSON.parse(value) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: `Send ${parameter} as a JSON object.` });
        return z.NEVER;
      }
    })
    .pipe(
      z
        .record(z.string(), z.union([z.string().max(500), z.null()]))
        .superRefine((entries, context) => {
          for (const key of Object.keys(entries)) {
            if (!(allowed as readonly string[]).includes(key)) {
              context.addIssue({ code: 'custom', message: `Cannot filter on ${key}; use ${allowed.join(', ')}.` });
            }
          }
        })
        .transform((entries) => entries as Partial<Record<Key, string | null>>),
    );
}

/** `vars={"subaff":"s1","var1":"zone-7"}` keeps events whose columns equal these. */
export const ZVarsFilter = jsonObjectOf('vars', REPORT_VAR_FILTERS);

/**
 * `filters={"campaign":"c-1","offer":null}` keeps the events of one value of each named group (the
 * reports screen's drill-down: a campaign's row opens that campaign's offers).
 */
export const ZGroupFilters = jsonObjectOf('filters', REPORT_FILTER_GROUPS);

/**
 * When a conversion is counted — at its click's (or lead's) time, as the traffic source bills
 * it (the default), or at its first postback's, as the network's statistics show it.
 */
export const REPORT_ATTRIBUTIONS = ['click', 'postback'] as const;
export type ReportAttribution = (typeof REPORT_ATTRIBUTIONS)[number];

/**
 * The report query (§7.5). `date_from`/`date_to` (or the spec's `start_date`/`end_date`) are days in
 * `timezone`, both included; either may be left out for an open range.
 */
export const ZReportQuery = z
  .object({
    group_by: ZGroupBy,
    date_from: ZDate.optional(),
    date_to: ZDate.optional(),
    start_date: ZDate.optional(),
    end_date: ZDate.optional(),
    timezone: z.string().trim().default('UTC').refine(isTimeZone, { message: 'Use an IANA timezone.' }),
    search_text: z.string().trim().max(200).default(''),
    vars: ZVarsFilter.default({}),
    filters: ZGroupFilters.default({}),
    attribution: z.enum(REPORT_ATTRIBUTIONS).default('click'),
    /** `true` counts bots' clicks in clicks, unique clicks, CR, EPC and CPC; by default they stay out. */
    include_bots: z
      .union([z.boolean(), z.enum(['true', 'false'])])
      .default(false)
      .transform((value) => value === true || value === 'true'),
    order_by: z.union([z.enum(REPORT_ORDER_FIELDS), z.string().regex(CUSTOM_METRIC_KEY)]).optional(),
    order: z.enum(SORT_ORDERS).default('asc'),
    page: z.coerce.number().int().min(1).default(DEFAULT_PAGE),
    /** 0: every row. */
    limit: z.coerce.number().int().min(0).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  })
  .transform(({ start_date, end_date, ...query }) => ({
    ...query,
    date_from: query.date_from ?? start_date,
    date_to: query.date_to ?? end_date,
  }))
  .superRefine((query, context) => {
    if (query.date_from && query.date_to && query.date_from > query.date_to) {
      context.addIssue({ code: 'custom', path: ['date_to'], message: 'The range ends before it starts.' });
    }
  });
export type TReportQuery = z.infer<typeof ZReportQuery>;

export type ReportFigures = Record<ReportMetric, number>;

/** One row: each grouped name's value and `<name>_name` label, the joined `label`, and the figures. */
export type ReportRow = ReportFigures & { label: string } & Record<string, string | number | null>;

/**
 * Which backend answered a report (`meta.source`): the rollup cubes, the event tables, or a columnar store
 * (DuckDB on SQLite, ClickHouse on PostgreSQL). Each gives the same figures; an operator who wonders why a
 * number moved sees which one counted it.
 */
export const REPORT_SOURCES = ['rollups', 'events', 'duckdb', 'clickhouse'] as const;
export type ReportSourceName = (typeof REPORT_SOURCES)[number];

export interface ReportMeta {
  /** The traffic source's own names of the vars (`labels: { var2: "Zone" }`), where it names them. */
  labels?: Partial<Record<ReportVarName, string>>;
  /** Which source answered: the whole report's, else the clicks' and leads'. */
  source?: ReportSourceName;
  /** Why that source, as a short English sentence. */
  source_reason?: string;
}

export interface ReportResponse {
  list: ReportRow[];
  total: number;
  totals: ReportFigures;
  meta?: ReportMeta;
}
