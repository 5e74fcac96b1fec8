import { MONEY_METRICS, type ReportFigures, type ReportRow, visibleMetrics } from '@switchyard/domain';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { ReportContext } from './ReportContext';
import { ReportTable } from './ReportTable';
import type { ReportController } from './useReportController';

// The table shows each conversion state after Conversions, and the confirmed (approved only)
// revenue and ROI after their all-states figures; every column sorts. Without the money
// permission the money columns are left out (the server leaves their figures out).

const figures: ReportFigures = {
  clicks: 200,
  unique_clicks: 150,
  leads: 0,
  conversions: 3,
  approved: 2,
  pending: 1,
  rejected: 4,
  revenue: 30,
  revenue_confirmed: 20,
  cost: 10,
  profit: 20,
  roi: 200,
  roi_confirmed: 100,
  cr: 1.5,
  epc: 0.15,
  cpc: 0.05,
  cpa: 3.33,
  bot_clicks: 12,
  lp_clicks: 30,
  lp_ctr: 25,
};

/** The figures as the server answers a user without the money permission: the money keys left out. */
function withoutMoney(all: ReportFigures): ReportFigures {
  const copy: Partial<ReportFigures> = { ...all };
  for (const metric of MONEY_METRICS) delete copy[metric];
  return copy as ReportFigures;
}

function renderTable(setSort = vi.fn(), seesMoney = true, custom: Record<string, number> = {}) {
  const controller = {
    customMetrics: Object.keys(custom).map((key, index) => ({
      id: index + 1,
      key,
      name: key === 'cm_rpm' ? 'RPM' : key,
      formula: 'revenue / clicks * 1000',
      money: true,
    })),
    params: { groups: ['campaign'], order: 'desc', order_by: 'approved', filters: {}, labels: {}, timezone: 'UTC' },
    range: { from: '2026-11-01', to: '2026-11-07' },
    metrics: visibleMetrics(seesMoney),
    seesMoney,
    drill: vi.fn(),
    drillTarget: () => null,
    isFetching: false,
    setSort,
  } as unknown as ReportController;
  const shown = { ...(seesMoney ? figures : withoutMoney(figures)), ...custom };
  const row = { ...shown, campaign: 'c-1', campaign_name: 'Spring', label: 'Spring' } as ReportRow;
  render(
    <ControlProviders>
      <MemoryRouter>
        <ReportContext.Provider value={controller}>
          <ReportTable rows={[row]} totals={shown} />
        </ReportContext.Provider>
      </MemoryRouter>
    </ControlProviders>,
  );
  return setSort;
}

describe('ReportTable', () => {
  it('shows the conversion states and the confirmed figures beside the figures they refine', async () => {
    await i18n.changeLanguage('en');
    renderTable();
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual([
      'Campaign',
      'Clicks',
      'Unique clicks',
      'Leads',
      'Conversions',
      'Approved',
      'Pending',
      'Rejected',
      'Revenue',
      'Revenue (confirmed)',
      'Cost',
      'Profit',
      'ROI',
      'ROI (confirmed)',
      'CR',
      'EPC',
      'CPC',
      'CPA',
      'Bot clicks',
      'LP clicks',
      'LP CTR',
      'Events',
    ]);
    const [, body, foot] = screen.getAllByRole('rowgroup');
    for (const group of [body!, foot!]) {
      const cells = within(group)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
      expect(cells.slice(-21, -1)).toEqual([
        '200',
        '150',
        '0',
        '3',
        '2',
        '1',
        '4',
        '30.00',
        '20.00',
        '10.00',
        '20.00',
        '200%',
        '100%',
        '1.5%',
        '0.15',
        '0.05',
        '3.33',
        '12',
        '30',
        '25%',
      ]);
    }
  });

  it('sorts by a state or a confirmed figure', async () => {
    await i18n.changeLanguage('en');
    const setSort = renderTable();
    expect(screen.getByRole('columnheader', { name: /^Approved/ })).toHaveAttribute('aria-sort', 'descending');
    fireEvent.click(screen.getByRole('button', { name: /^Rejected/ }));
    fireEvent.click(screen.getByRole('button', { name: /^ROI \(confirmed\)/ }));
    expect(setSort.mock.calls).toEqual([['rejected'], ['roi_confirmed']]);
  });

  it('leaves out the money columns for a user without the money permission', async () => {
    await i18n.changeLanguage('en');
    renderTable(vi.fn(), false);
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual([
      'Campaign',
      'Clicks',
      'Unique clicks',
      'Leads',
      'Conversions',
      'Approved',
      'Pending',
      'Rejected',
      'CR',
      'Bot clicks',
      'LP clicks',
      'LP CTR',
      'Events',
    ]);
    for (const name of [/^Revenue/, /^Cost/, /^Profit/, /^ROI/, /^EPC/]) {
      expect(screen.queryByRole('columnheader', { name })).toBeNull();
    }
    const [, body, foot] = screen.getAllByRole('rowgroup');
    for (const group of [body!, foot!]) {
      const cells = within(group)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
      // No empty cell stands in for a figure left out.
      expect(cells.slice(-12, -1)).toEqual(['200', '150', '0', '3', '2', '1', '4', '1.5%', '12', '30', '25%']);
      expect(cells).not.toContain('');
    }
  });

  it('links each row, and the totals, to the events behind them under the report’s range', async () => {
    await i18n.changeLanguage('en');
    renderTable();
    const clicks = screen.getByRole('link', { name: 'Show clicks, Spring' });
    const url = new URL(clicks.getAttribute('href')!, 'http://localhost');
    expect(url.pathname).toBe('/tracker/reports/events/clicks');
    expect(url.searchParams.get('from')).toBe('2026-11-01');
    expect(url.searchParams.get('to')).toBe('2026-11-07');
    expect(JSON.parse(url.searchParams.get('filters')!)).toEqual({ campaign: 'c-1' });
    expect(JSON.parse(url.searchParams.get('filter_labels')!)).toEqual({ campaign: 'Spring' });
    expect(screen.getByRole('link', { name: 'Show conversions, Spring' })).toHaveAttribute(
      'href',
      expect.stringContaining('/tracker/reports/events/conversions?'),
    );
    const total = screen.getByRole('link', { name: 'Show clicks, Total' });
    expect(new URL(total.getAttribute('href')!, 'http://localhost').searchParams.get('filters')).toBeNull();
  });

  it('shows custom metrics as sortable columns after the built-in figures, with 2 decimals', async () => {
    await i18n.changeLanguage('en');
    const setSort = renderTable(vi.fn(), true, { cm_rpm: 150 });
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers.slice(-3)).toEqual(['LP CTR', 'RPM', 'Events']);
    const [, body, foot] = screen.getAllByRole('rowgroup');
    for (const group of [body!, foot!]) {
      const cells = within(group)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
      expect(cells.slice(-3, -1)).toEqual(['25%', '150.00']);
    }
    fireEvent.click(screen.getByRole('button', { name: /^RPM/ }));
    expect(setSort.mock.calls).toEqual([['cm_rpm']]);
  });
});
