import { type ReportFigures, type ReportRow, visibleMetrics } from '@switchyard/domain';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ControlProviders } from '../../components/form/controls/renderControl';
import i18n from '../../i18n';
import { GroupBySelect } from '../../reports/GroupBySelect';
import { ReportContext } from '../../reports/ReportContext';
import { ReportFilterChips } from '../../reports/ReportFilterChips';
import { ReportTable } from '../../reports/ReportTable';
import type { ReportController } from '../../reports/useReportController';

// The report groups read off the visitor and the bot verdict, labelled as a person reads them.

const figures = { clicks: 10 } as ReportFigures;

function row(values: Record<string, string | null>): ReportRow {
  // The server labels these groups with the value itself.
  const names = Object.fromEntries(
    Object.entries(values).map(([group, value]) => [`${group}_name`, value ?? '(none)']),
  );
  return { ...figures, ...values, ...names, label: Object.values(values).join(' / ') } as unknown as ReportRow;
}

function renderReport(groups: string[], rows: ReportRow[], filters: Record<string, string | null> = {}) {
  const controller = {
    customMetrics: [],
    params: { groups, order: 'desc', filters, labels: {}, vars: {}, timezone: 'UTC' },
    range: { from: '2026-11-01', to: '2026-11-07' },
    metrics: visibleMetrics(false).filter((metric) => metric === 'clicks'),
    seesMoney: false,
    drill: vi.fn(),
    drillTarget: () => null,
    isFetching: false,
    setSort: vi.fn(),
    update: vi.fn(),
    removeFilter: vi.fn(),
  } as unknown as ReportController;
  render(
    <ControlProviders>
      <MemoryRouter>
        <ReportContext.Provider value={controller}>
          <GroupBySelect />
          <ReportFilterChips />
          <ReportTable rows={rows} totals={figures} />
        </ReportContext.Provider>
      </MemoryRouter>
    </ControlProviders>,
  );
}

/** The text of the group cells of each body row. */
function cells(columns: number): string[][] {
  const table = screen.getByRole('table');
  const rows = within(table).getAllByRole('row').slice(1, -1);
  return rows.map((tr) =>
    within(tr)
      .getAllByRole('cell')
      .slice(0, columns)
      .map((cell) => cell.textContent ?? ''),
  );
}

describe('report labels of the visitor groups', () => {
  afterEach(async () => {
    await act(() => i18n.changeLanguage('en'));
  });

  it('names the bot verdict and its reason, the weekday and the codes', async () => {
    renderReport(
      ['bot', 'bot_reason', 'weekday'],
      [
        row({ bot: 'true', bot_reason: 'datacenter_asn', weekday: 'mon' }),
        row({ bot: 'false', bot_reason: null, weekday: 'sun' }),
      ],
    );
    expect(
      screen
        .getAllByRole('columnheader')
        .slice(0, 3)
        .map((header) => header.textContent),
    ).toEqual(['Bot or human', 'Bot reason', 'Weekday']);
    expect(cells(3)).toEqual([
      ['Bot', 'Datacenter network', 'Monday'],
      ['Human', '(none)', 'Sunday'],
    ]);
  });

  it('shows a region with its country, a network as AS…, a language by name', () => {
    renderReport(
      ['region', 'asn', 'language'],
      [row({ region: 'US-CA', asn: '16509', language: 'fr' }), row({ region: 'FR:Corse', asn: null, language: 'xx' })],
    );
    expect(cells(3)).toEqual([
      ['US-CA (United States)', 'AS16509', 'French (fr)'],
      ['Corse (France)', '(none)', 'xx'],
    ]);
  });

  it('says the same in Arabic, on the filter chips too', async () => {
    await act(() => i18n.changeLanguage('ar'));
    renderReport(['weekday'], [row({ weekday: 'fri' })], { bot: 'false', bot_reason: 'click_rate' });
    expect(cells(1)).toEqual([['الجمعة']]);
    const chips = screen.getByRole('group', { name: 'عوامل التصفية' });
    expect(within(chips).getByText('إنسان')).toBeVisible();
    expect(within(chips).getByText('نقرات كثيرة جدًا')).toBeVisible();
  });

  it('offers the new groups to group by', async () => {
    renderReport(['campaign'], []);
    fireEvent.click(screen.getByRole('combobox', { name: /Group by/ }));
    for (const name of [
      'Region',
      'City',
      'Network (AS number)',
      'Internet provider',
      'Language',
      'Referrer domain',
      'Weekday',
      'Bot or human',
      'Bot reason',
    ]) {
      expect(await screen.findByRole('option', { name }), name).toBeInTheDocument();
    }
  });
});
