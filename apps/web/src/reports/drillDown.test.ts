import type { ReportRow } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import { drillDown } from './drillDown';
import { parseReportParams, type ReportParams } from './reportParams';

const params = (query: string): ReportParams => parseReportParams(new URLSearchParams(query), 'UTC');
const row = (values: Record<string, string | null>) => ({ label: '', clicks: 1, ...values }) as unknown as ReportRow;

describe('drilling down a report row', () => {
  it('opens the offers of a campaign, remembering its label', () => {
    const next = drillDown(params('search=abc&page=3'), row({ campaign: 'c-1', campaign_name: 'Spring' }));
    expect(next).toMatchObject({
      groups: ['offer'],
      filters: { campaign: 'c-1' },
      labels: { campaign: 'Spring' },
      page: 1,
      search: '',
    });
  });

  it('keeps earlier filters, filters on every value of the row, and skips groups already used', () => {
    const start = params(`group_by=offer,country&filters=${encodeURIComponent('{"campaign":"c-1"}')}`);
    const next = drillDown(start, row({ offer: 'o-1', offer_name: 'Shoes', country: null, country_name: '(none)' }));
    expect(next).toMatchObject({
      groups: ['device'],
      filters: { campaign: 'c-1', offer: 'o-1', country: null },
    });
  });

  it('narrows the range to a day row, and stops where nothing is left to narrow', () => {
    expect(drillDown(params('group_by=day'), row({ day: '2026-03-01' }))).toMatchObject({
      groups: ['campaign'],
      choice: 'custom',
      custom: { from: '2026-03-01', to: '2026-03-01' },
    });
    expect(drillDown(params('group_by=hour'), row({ hour: '07' }))).toBeNull();
  });
});
