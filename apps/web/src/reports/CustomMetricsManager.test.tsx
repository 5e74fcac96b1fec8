import type { CustomMetric } from '@switchyard/domain';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { CustomMetricsManager } from './CustomMetricsManager';

// The custom metrics manager lists the workspace's formulas and checks a formula as it is typed
// (with the parser the server uses), naming the position of the mistake, before anything is sent.

vi.mock('../shared/auth/useCan', () => ({ useCan: () => true }));

const rpm: CustomMetric = {
  id: 1,
  key: 'cm_rpm',
  name: 'RPM',
  formula: 'revenue / clicks * 1000',
  money: true,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

describe('CustomMetricsManager', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(async () => {
    await i18n.changeLanguage('en');
    fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        const body = JSON.parse(String(init.body)) as { name: string; formula: string };
        return new Response(JSON.stringify({ ...rpm, id: 2, key: 'cm_approval', ...body }), { status: 201 });
      }
      expect(url).toBe('/api/report-metrics');
      return new Response(JSON.stringify({ list: [rpm] }), { status: 200 });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('lists the metrics with their formulas', async () => {
    render(
      <ControlProviders>
        <CustomMetricsManager />
      </ControlProviders>,
    );
    const row = (await screen.findByText('RPM')).closest('tr')!;
    expect(within(row).getByText('revenue / clicks * 1000')).toBeVisible();
    expect(within(row).getByRole('button', { name: 'Edit RPM' })).toBeVisible();
    expect(within(row).getByRole('button', { name: 'Delete RPM' })).toBeVisible();
  });

  it('shows a formula mistake with its position as it is typed, and saves a good one', async () => {
    render(
      <ControlProviders>
        <CustomMetricsManager />
      </ControlProviders>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Add a metric' }));
    fireEvent.change(screen.getByRole('textbox', { name: /Name/ }), { target: { value: 'Approval' } });
    const formula = screen.getByRole('textbox', { name: /Formula/ });
    fireEvent.change(formula, { target: { value: 'approved / conversionz' } });
    expect(screen.getByText('The formula has a mistake at position 12.')).toBeVisible();
    fireEvent.change(formula, { target: { value: 'approved /' } });
    expect(screen.getByText('The formula has a mistake at position 11.')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    fireEvent.change(formula, { target: { value: 'approved / conversions' } });
    expect(screen.queryByText(/position/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(true));
    const [url, init] = fetchMock.mock.calls.find(([, options]) => options?.method === 'POST')!;
    expect(url).toBe('/api/report-metrics');
    expect(JSON.parse(String(init?.body))).toEqual({ name: 'Approval', formula: 'approved / conversions' });
    // Back to the list once saved.
    expect(await screen.findByRole('button', { name: 'Add a metric' })).toBeVisible();
  });

  it('translates the mistake in other languages', async () => {
    await i18n.changeLanguage('fr');
    render(
      <ControlProviders>
        <CustomMetricsManager />
      </ControlProviders>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Ajouter une métrique' }));
    fireEvent.change(screen.getByRole('textbox', { name: /Formule/ }), { target: { value: '(clicks' } });
    expect(screen.getByText('Formule incorrecte à la position 8.')).toBeVisible();
    await i18n.changeLanguage('en');
  });
});
