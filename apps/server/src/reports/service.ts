// Reports (§3.10, §7.5): clicks, leads and conversions grouped by one or more names.
//
// Which source reads each table — the rollups, the event tables, DuckDB or ClickHouse — is chosen once per
// report (sources/choose.ts) and named in the answer's meta. A columnar store that pages whole reports
// answers in one statement; otherwise each table is aggregated by its source, grouped by the asked
// columns (and, for day or hour, by UTC quarter-hour), and the three results are merged here
// (merge.ts): quarter-hours folded into local days and hours, names resolved from config_records
// (config-names.ts), then searched, ordered and paged. The figures are the same whichever answers
// (figures.ts, §Figures). Column names come from whitelists (report-plans.ts), never from the request;
// every value from the request is a bound parameter.

import type { CustomMetricDefinition, ReportResponse, TReportQuery } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { ColumnarReader } from '../report-plan/columnar-reader.js';
import type { AggregateRow, Source } from '../report-plan/plan.js';
import { nextDay, startOfLocalDay } from '../report-plan/time.js';
import type { Database } from '../store/schema.js';
import { type Scope, scopeWorkspace } from '../store/scope.js';
import { configNames, namesOf } from './config-names.js';
import { type ParsedMetric, parsedMetrics } from './figures.js';
import { labelPage, labelRows, mergeRows, orderRows, pageRows } from './merge.js';
import { type ConfigNames, type Narrowing, planOf, type ReportRange } from './report-plans.js';
import { chooseSource, pagedOrder, type ReportSources, reportSources, type SourceChoice } from './sources/index.js';

/**
 * Who a report is for (required): a workspace's events only, or the whole instance's, and the
 * workspace's custom metrics.
 */
export type ReportScope = Scope & {
  /** Each is computed from a row's figures (and the totals'), under its key. */
  metrics?: readonly CustomMetricDefinition[];
};

/** One report as asked: its range, what narrows every table, its custom metrics and its names (loading). */
interface Asked {
  query: TReportQuery;
  range: ReportRange;
  narrowing: Narrowing;
  metrics: ParsedMetric[];
}

export class ReportsService {
  private readonly sources: ReportSources;

  constructor(
    private readonly db: Kysely<Database>,
    /** `rollups: false` reads every figure from the events (tests compare the ways). */
    options: { rollups?: boolean; columnar?: ColumnarReader } = {},
  ) {
    this.sources = reportSources(db, options);
  }

  /** The report's rows, count and totals: the same whichever source answers (tests compare them). */
  async run(query: TReportQuery, scope: ReportScope): Promise<ReportResponse> {
    return (await this.read(query, scope)).response;
  }

  /** The report, its meta naming the source that answered and why (meta.source, meta.source_reason). */
  async answer(query: TReportQuery, scope: ReportScope): Promise<ReportResponse> {
    const { response, choice } = await this.read(query, scope);
    return { ...response, meta: { source: choice.source, source_reason: choice.reason } };
  }

  private async read(
    query: TReportQuery,
    scope: ReportScope,
  ): Promise<{ response: ReportResponse; choice: SourceChoice }> {
    const choice = chooseSource(query, this.sources.capabilities());
    const asked = this.ask(query, scope);
    const response = choice.whole ? await this.pagedInSource(asked, choice) : await this.mergedHere(asked, choice);
    return { response, choice };
  }

  /** The report's range, narrowing and metrics; the names it needs start loading. */
  private ask(query: TReportQuery, scope: ReportScope): Asked {
    const range: ReportRange = {
      from: query.date_from ? startOfLocalDay(query.date_from, query.timezone).toISOString() : null,
      to: query.date_to ? startOfLocalDay(nextDay(query.date_to), query.timezone).toISOString() : null,
      timezone: query.timezone,
      attribution: query.attribution,
      includeBots: query.include_bots,
    };
    // A filter on affiliate_network needs the offers' networks before the queries are built.
    const config = configNames(
      this.db,
      scope,
      query.group_by,
      Object.keys(query.filters).includes('affiliate_network') ? ['affiliate_network'] : [],
    );
    const narrowing: Narrowing = { vars: query.vars, filters: query.filters, config, workspace: scopeWorkspace(scope) };
    return { query, range, narrowing, metrics: parsedMetrics(scope.metrics) };
  }

  /** Each table read from its source, then merged, labelled, ordered and paged here. */
  private async mergedHere(asked: Asked, choice: SourceChoice): Promise<ReportResponse> {
    const { query } = asked;
    const [clicks, leads, conversions, config] = await Promise.all([
      this.table('clicks', asked, choice),
      this.table('leads', asked, choice),
      this.table('conversions', asked, choice),
      asked.narrowing.config,
    ]);
    const merged = mergeRows({ clicks, leads, conversions }, query.group_by, query.timezone, config);
    const listed = orderRows(labelRows(merged, query, config, asked.metrics), query.order === 'desc');
    return pageRows(listed, query, asked.metrics);
  }

  /** One table's rows grouped by the asked columns, with its figures, from the source chosen for it. */
  private async table(source: Source, asked: Asked, choice: SourceChoice): Promise<AggregateRow[]> {
    const { query, range, narrowing } = asked;
    const plan = await planOf(source, query.group_by, range, narrowing);
    return this.sources.get(choice.tables[source]).aggregate({ plan, groups: query.group_by, range, narrowing });
  }

  /** The whole report merged, ordered and paged in a columnar store holding all three tables. */
  private async pagedInSource(asked: Asked, choice: SourceChoice): Promise<ReportResponse> {
    const { query, range, narrowing } = asked;
    const groups = query.group_by;
    const order = pagedOrder(query);
    const paging = this.sources.get(choice.source);
    if (!order || !paging.report) throw new Error(`${choice.source} cannot page this report`);
    const config: ConfigNames = await narrowing.config;
    const plans = {
      clicks: await planOf('clicks', groups, range, narrowing),
      leads: await planOf('leads', groups, range, narrowing),
      conversions: await planOf('conversions', groups, range, narrowing),
    };
    const page = await paging.report({
      plans,
      groups,
      names: namesOf(groups, config),
      order,
      descending: query.order === 'desc',
      limit: query.limit,
      offset: query.limit === 0 ? 0 : (query.page - 1) * query.limit,
    });
    return labelPage(page, groups, config, asked.metrics);
  }
}
