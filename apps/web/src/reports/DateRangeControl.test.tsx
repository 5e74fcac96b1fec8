import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { browserTimeZone, presetRange } from '../shared/reporting/dateRanges';
import { DateRangeControl } from './DateRangeControl';
import { ReportContext } from './ReportContext';
import { rangeOf } from './reportParams';
import type { ReportController } from './useReportController';
import { useReportParams } from './useReportParams';

// Each date preset has a digit key (1–6), shown beside it in the list, that picks it while the
// focus is not in a field; the choice goes to the URL like a pick in the list.

function Location() {
  return <output data-testid="query">{useLocation().search}</output>;
}

/** The control over the real URL state, as the reports screen gives it. */
function Screen() {
  const { params, update } = useReportParams();
  const controller = { params, update, range: rangeOf(params) } as unknown as ReportController;
  return (
    <ReportContext.Provider value={controller}>
      <DateRangeControl />
      <input aria-label="Elsewhere" />
      <Location />
    </ReportContext.Provider>
  );
}

function renderControl(query = '') {
  render(
    <ControlProviders>
      <MemoryRouter initialEntries={[`/tracker/reports${query}`]}>
        <Screen />
      </MemoryRouter>
    </ControlProviders>,
  );
}

const period = () => screen.getByRole('combobox', { name: /^Period/ }) as HTMLInputElement;

describe('DateRangeControl shortcuts', () => {
  beforeEach(() => i18n.changeLanguage('en'));

  it('picks a preset with its digit key, and says which key in the list', () => {
    renderControl();
    expect(period().value).toBe('Last 7 days');
    fireEvent.keyDown(document.body, { key: '6', code: 'Digit6' });
    expect(period().value).toBe('Last month');
    expect(screen.getByTestId('query').textContent).toBe('?range=lastMonth');
    const lastMonth = presetRange('lastMonth', browserTimeZone());
    expect(screen.getByRole('button', { name: /^Dates/ }).textContent).toContain(lastMonth.from);

    // The keypad's digits, and an Arabic layout's, are the same keys.
    fireEvent.keyDown(document.body, { key: '٢', code: 'Digit2' });
    expect(period().value).toBe('Yesterday');
    fireEvent.keyDown(document.body, { key: '1', code: 'Numpad1' });
    expect(period().value).toBe('Today');
    expect(screen.getByText('Keys 1–6 pick a period')).toBeVisible();
  });

  it('leaves digits typed in a field, or with a modifier, alone', () => {
    renderControl('?range=last30');
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Elsewhere' }), { key: '1', code: 'Digit1' });
    fireEvent.keyDown(document.body, { key: '1', code: 'Digit1', altKey: true });
    fireEvent.keyDown(document.body, { key: '1', code: 'Digit1', ctrlKey: true });
    fireEvent.keyDown(document.body, { key: '7', code: 'Digit7' });
    expect(period().value).toBe('Last 30 days');
    expect(screen.getByTestId('query').textContent).toBe('?range=last30');
  });

  it('shows each shortcut beside its preset', async () => {
    renderControl();
    fireEvent.click(period());
    const option = await screen.findByRole('option', { name: 'Last month' });
    expect(option.textContent).toBe('Last month6');
  });
});
