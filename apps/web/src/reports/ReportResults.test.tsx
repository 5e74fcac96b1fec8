import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { ReportContext } from './ReportContext';
import { ReportResults } from './ReportsPage';
import type { ReportController } from './useReportController';

// A report that waited too long while the server served clicks first answers 503: the screen says
// reports are busy and offers to ask again, instead of an error.

function renderResults(error: Error, retry = vi.fn()) {
  const controller = {
    report: undefined,
    isLoading: false,
    error,
    retry,
    params: { groups: ['campaign'], filters: {}, labels: {}, timezone: 'UTC' },
    update: vi.fn(),
  } as unknown as ReportController;
  render(
    <ControlProviders>
      <MemoryRouter>
        <ReportContext.Provider value={controller}>
          <ReportResults />
        </ReportContext.Provider>
      </MemoryRouter>
    </ControlProviders>,
  );
  return retry;
}

describe('ReportResults', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('says reports are busy on a 503 and asks again when told to', () => {
    const retry = renderResults(new ApiError(503, { message: 'Reports are busy right now.' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Reports are busy');
    expect(screen.getByRole('alert')).toHaveTextContent('Try again in a few seconds.');
    expect(screen.queryByText(/could not be loaded/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('says it in Arabic too', async () => {
    await i18n.changeLanguage('ar');
    renderResults(new ApiError(503, { message: 'busy' }));
    expect(screen.getByRole('alert')).toHaveTextContent('التقارير مشغولة');
    expect(screen.getByRole('button', { name: 'أعد المحاولة' })).toBeInTheDocument();
  });

  it('shows any other failure as an error', () => {
    renderResults(new ApiError(500, { message: 'An error occurred' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The report could not be loaded: An error occurred');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});
