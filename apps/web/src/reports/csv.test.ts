import { type ReportRow, visibleMetrics } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import { csvField, reportCsv, toCsv } from './csv';

const figures = {
  clicks: 1200,
  unique_clicks: 1000,
  leads: 0,
  conversions: 3,
  approved: 2,
  pending: 1,
  rejected: 4,
  revenue: 1234.5,
  revenue_confirmed: 1000.25,
  cost: 300,
  profit: 934.5,
  roi: 311.5,
  roi_confirmed: 233.416667,
  cr: 0.25,
  epc: 1.02875,
  cpc: 0.25,
  cpa: 100,
  bot_clicks: 40,
  lp_clicks: 30,
  lp_ctr: 25,
};

const headers = {
  group: (group: string) => `G:${group}`,
  groupValue: (group: string) => `ID:${group}`,
  metric: (metric: string) => `M:${metric}`,
  none: '(aucun)',
};

describe('CSV', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['', ''],
    [null, ''],
    [undefined, ''],
    [1234.5, '1234.5'],
    [-2.25, '-2.25'],
    [0, '0'],
    [Number.NaN, ''],
    // Text a spreadsheet would run as a formula is kept as text.
    ['=SUM(A1)', "'=SUM(A1)"],
    ['-5 offer', "'-5 offer"],
    ['@cmd,x', `"'@cmd,x"`],
  ])('writes %j as %j', (cell, field) => {
    expect(csvField(cell)).toBe(field);
  });

  it('joins fields with commas and lines with CRLF, ending with one', () => {
    const columns = [
      { header: 'Name', value: (row: { name: string; n: number }) => row.name },
      { header: 'Count, total', value: (row: { name: string; n: number }) => row.n },
    ];
    expect(toCsv(columns, [{ name: 'Ä "x"', n: 2 }])).toBe('Name,"Count, total"\r\n"Ä ""x""",2\r\n');
    expect(toCsv(columns, [])).toBe('Name,"Count, total"\r\n');
  });

  it('writes a report: labels, ids where they differ from labels, and unformatted figures', () => {
    // Every figure, in the table's order: the states after conversions, the confirmed figures after theirs.
    const rows = [
      { ...figures, campaign: 'c-1', campaign_name: 'Spring, EU', country: 'FR', country_name: 'FR', label: '' },
      { ...figures, campaign: null, campaign_name: '(none)', country: null, country_name: '(none)', label: '' },
    ] as unknown as ReportRow[];
    const [head, first, second] = reportCsv(['campaign', 'country'], rows, headers).split('\r\n');
    expect(head).toBe(
      'G:campaign,ID:campaign,G:country,M:clicks,M:unique_clicks,M:leads,M:conversions,M:approved,M:pending,' +
        'M:rejected,M:revenue,M:revenue_confirmed,M:cost,M:profit,M:roi,M:roi_confirmed,M:cr,M:epc,M:cpc,M:cpa,M:bot_clicks,M:lp_clicks,M:lp_ctr',
    );
    const figureFields = '1200,1000,0,3,2,1,4,1234.5,1000.25,300,934.5,311.5,233.416667,0.25,1.02875,0.25,100,40,30,25';
    expect(first).toBe(`"Spring, EU",c-1,FR,${figureFields}`);
    expect(second).toBe(`(aucun),,(aucun),${figureFields}`);
  });

  it('leaves out the money columns for a reader without the money permission', () => {
    const { revenue, revenue_confirmed, cost, profit, roi, roi_confirmed, epc, cpc, cpa, ...counts } = figures;
    const rows = [{ ...counts, campaign: 'c-1', campaign_name: 'c-1', label: '' }] as unknown as ReportRow[];
    const [head, first] = reportCsv(['campaign'], rows, { ...headers, metrics: visibleMetrics(false) }).split('\r\n');
    expect(head).toBe(
      'G:campaign,M:clicks,M:unique_clicks,M:leads,M:conversions,M:approved,M:pending,M:rejected,M:cr,M:bot_clicks,M:lp_clicks,M:lp_ctr',
    );
    expect(first).toBe('c-1,1200,1000,0,3,2,1,4,0.25,40,30,25');
  });

  it('writes custom metrics after the figures, headed by their names', () => {
    const row = { ...figures, campaign: 'c-1', campaign_name: 'c-1', label: 'c-1', cm_rpm: 1028.75 } as ReportRow;
    const csv = reportCsv(['campaign'], [row], {
      ...headers,
      metrics: ['clicks'],
      custom: [{ key: 'cm_rpm', name: 'RPM' }],
    });
    expect(csv).toBe('G:campaign,M:clicks,RPM\r\nc-1,1200,1028.75\r\n');
  });
});
