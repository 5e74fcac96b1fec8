import { ZReportQuery } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import { chooseSource, pagedOrder, type SourceCapabilities } from '../src/reports/sources/index.js';

// Which source answers a report (reports/sources/choose.ts): a pure function of the query and of what the
// sources can do, so every rule is checked here without a database. The backends themselves are compared
// with the event tables in reports.test.ts, report-rollups.test.ts and the columnar-*.test.ts files.

const query = (input: Record<string, unknown>) => ZReportQuery.parse(input);
const RANGE = { date_from: '2026-11-01', date_to: '2026-11-07' };

const eventsOnly: SourceCapabilities = { rollups: true, columnar: null };
const duckdb = (over: Partial<NonNullable<SourceCapabilities['columnar']>> = {}): SourceCapabilities => ({
  rollups: true,
  columnar: { name: 'duckdb', ready: true, conversions: true, pages: true, ...over },
});
const clickhouse: SourceCapabilities = {
  rollups: true,
  columnar: { name: 'clickhouse', ready: true, conversions: true, pages: true },
};

describe('chooseSource', () => {
  it('reads clicks and leads from the rollups when a cube holds every group and filter', () => {
    for (const input of [
      { group_by: 'campaign' },
      { group_by: 'day', ...RANGE },
      { group_by: 'campaign,offer' },
      { group_by: 'offer', filters: { country: 'US' } },
      { group_by: 'hour' },
      // An affiliate network is its offers' network: the offer cubes hold it.
      { group_by: 'affiliate_network' },
      { group_by: 'country', filters: { affiliate_network: 'net-1' } },
    ]) {
      const choice = chooseSource(query(input), eventsOnly);
      expect(choice, JSON.stringify(input)).toMatchObject({
        source: 'rollups',
        whole: false,
        tables: { clicks: 'rollups', leads: 'rollups', conversions: 'events' },
      });
      expect(choice.reason).toBe(
        'The rollups keep every column and filter of this report; conversions from the event tables.',
      );
    }
  });

  it('keeps to the rollups over a ready columnar store when a cube holds the report; conversions from the store', () => {
    for (const capabilities of [duckdb(), clickhouse]) {
      const name = capabilities.columnar!.name;
      const choice = chooseSource(query({ group_by: 'campaign', ...RANGE }), capabilities);
      expect(choice).toMatchObject({
        source: 'rollups',
        whole: false,
        tables: { clicks: 'rollups', leads: 'rollups', conversions: name },
      });
      expect(choice.reason).toContain(`conversions from ${name === 'duckdb' ? 'DuckDB' : 'ClickHouse'}`);
    }
  });

  it('reads the event tables when no cube holds the report and no columnar store is ready, saying why', () => {
    const cases: [Record<string, unknown>, SourceCapabilities, string][] = [
      [{ group_by: 'subaff' }, eventsOnly, 'no rollup keeps subaff, and no columnar store is set up'],
      [{ group_by: 'campaign', filters: { var1: 'x' } }, eventsOnly, 'no rollup keeps var1'],
      [{ group_by: 'campaign', vars: { var2: 'z' } }, eventsOnly, 'no rollup keeps vars'],
      // Each has a cube, not both together.
      [{ group_by: 'country,device' }, eventsOnly, 'no rollup keeps these columns together'],
      // "No network" and a network beside an offer filter are not offer lists.
      [{ group_by: 'campaign', filters: { affiliate_network: null } }, eventsOnly, 'no rollup keeps affiliate_network'],
      [
        { group_by: 'campaign', filters: { affiliate_network: 'n', offer: 'o' } },
        eventsOnly,
        'no rollup keeps affiliate_network',
      ],
      [{ group_by: 'subaff' }, duckdb({ ready: false }), 'DuckDB is still catching up'],
      [
        { group_by: 'subaff' },
        { rollups: true, columnar: { name: 'clickhouse', ready: false, conversions: true, pages: true } },
        "ClickHouse's copy is not complete yet",
      ],
      [{ group_by: 'campaign' }, { rollups: false, columnar: null }, 'the rollups are off for this report'],
    ];
    for (const [input, capabilities, why] of cases) {
      const choice = chooseSource(query(input), capabilities);
      expect(choice, JSON.stringify(input)).toMatchObject({
        source: 'events',
        whole: false,
        tables: { clicks: 'events', leads: 'events', conversions: 'events' },
      });
      expect(choice.reason).toContain(why);
      expect(choice.reason).toMatch(/^The event tables answered: .+\.$/);
    }
  });

  it('pages the whole report in a ready columnar store when no cube holds it', () => {
    for (const [capabilities, name] of [
      [duckdb(), 'duckdb'],
      [clickhouse, 'clickhouse'],
    ] as const) {
      for (const input of [
        { group_by: 'subaff' },
        { group_by: 'campaign', vars: { var1: 'a' } },
        { group_by: 'country,device', order_by: 'clicks', order: 'desc' },
        { group_by: 'day,subaff', ...RANGE },
      ]) {
        const choice = chooseSource(query(input), capabilities);
        expect(choice, JSON.stringify(input)).toEqual({
          source: name,
          reason: expect.stringMatching(/ holds every event and paged the whole report: no rollup keeps /),
          whole: true,
          tables: { clicks: name, leads: name, conversions: name },
        });
      }
    }
    // Without the rollups (tests compare the ways), even a report a cube holds.
    expect(chooseSource(query({ group_by: 'campaign' }), { ...duckdb(), rollups: false })).toMatchObject({
      source: 'duckdb',
      whole: true,
    });
  });

  it('reads a ready store table by table when the report cannot be paged there', () => {
    const cases: [Record<string, unknown>, SourceCapabilities, string][] = [
      [{ group_by: 'subaff', search_text: 'abc' }, duckdb(), 'the search is applied here'],
      [{ group_by: 'subaff,affiliate_network' }, duckdb(), 'affiliate networks are resolved here'],
      [{ group_by: 'subaff', filters: { affiliate_network: null } }, duckdb(), 'affiliate networks are resolved here'],
      [{ group_by: 'day,subaff' }, duckdb(), 'time groups without a date range are bucketed here'],
      [{ group_by: 'hour,subaff', date_from: '2026-11-01' }, duckdb(), 'time groups without a date range'],
      [{ group_by: 'subaff', order_by: 'roi' }, duckdb(), 'the order by a derived figure or custom metric'],
      [{ group_by: 'subaff', order_by: 'cm_margin' }, duckdb(), 'the order by a derived figure or custom metric'],
      [{ group_by: 'subaff' }, duckdb({ pages: false }), 'the store does not page whole reports'],
    ];
    for (const [input, capabilities, why] of cases) {
      const choice = chooseSource(query(input), capabilities);
      expect(choice, JSON.stringify(input)).toMatchObject({
        source: 'duckdb',
        whole: false,
        tables: { clicks: 'duckdb', leads: 'duckdb', conversions: 'duckdb' },
      });
      expect(choice.reason).toMatch(/^DuckDB holds every event, read table by table: no rollup keeps .+, and /);
      expect(choice.reason).toContain(why);
    }
  });

  it('reads conversions from their table when the store holds clicks and leads only', () => {
    const choice = chooseSource(query({ group_by: 'subaff' }), duckdb({ conversions: false }));
    expect(choice).toMatchObject({
      source: 'duckdb',
      whole: false,
      tables: { clicks: 'duckdb', leads: 'duckdb', conversions: 'events' },
    });
    expect(choice.reason).toContain('the store does not page whole reports; conversions from the event tables.');
  });
});

describe('pagedOrder', () => {
  it('orders by the labels, a group, or a count; not by a derived figure or custom metric', () => {
    expect(pagedOrder(query({ group_by: 'campaign' }))).toEqual({ by: 'group', index: 0 });
    expect(pagedOrder(query({ group_by: 'campaign,country', order_by: 'country' }))).toEqual({ by: 'group', index: 1 });
    expect(pagedOrder(query({ group_by: 'campaign', order_by: 'label' }))).toEqual({ by: 'label' });
    expect(pagedOrder(query({ group_by: 'campaign', order_by: 'cost' }))).toEqual({ by: 'count', name: 'cost' });
    expect(pagedOrder(query({ group_by: 'campaign', order_by: 'epc' }))).toBeNull();
    expect(pagedOrder(query({ group_by: 'campaign', order_by: 'cm_x' }))).toBeNull();
  });
});
