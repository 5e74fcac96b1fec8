import { notifications } from '@mantine/notifications';
import type { CurrentUser } from '@switchyard/domain';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../api/client';
import type { CurrencyRates } from '../api/useCurrencyRates';
import { ControlProviders } from '../components/form/controls/renderControl';
import { AuthContext, type AuthContextValue } from '../shared/auth/AuthContext';
import { CurrencyRatesScreen } from './CurrencyRatesScreen';

const READER = { id: 2, name: 'Rita', email: 'rita@example.test', permissions: ['/instance/settings/get'] };
const ADMIN = { ...READER, permissions: ['/instance/settings'] };

const RATES: CurrencyRates = {
  base: 'USD',
  snapshot_date: '2025-06-30',
  list: [
    { code: 'EUR', name: 'Euro', rate: 0.8532, source: 'snapshot', updated_at: '2025-06-30T00:00:00.000Z' },
    { code: 'GBP', name: 'British Pound', rate: 0.75, source: 'admin', updated_at: '2025-07-02T10:15:00.000Z' },
    { code: 'USD', name: 'US Dollar', rate: 1, source: 'snapshot', updated_at: '2025-06-30T00:00:00.000Z' },
  ],
};

type Put = { rates: { code: string; rate: number }[] };

/** GET answers the rates; PUT answers `onPut`'s status and body. */
function answer(onPut: (body: Put) => { status: number; body: unknown } = () => ({ status: 200, body: RATES })) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method === 'PUT') {
      const { status, body } = onPut(JSON.parse(String(init.body)) as Put);
      return new Response(JSON.stringify(body), { status });
    }
    return new Response(JSON.stringify(RATES));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function puts(fetchMock: ReturnType<typeof answer>): Put[] {
  return fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PUT')
    .map(([, init]) => JSON.parse(String(init?.body)) as Put);
}

function renderScreen(user: object) {
  tokenStore.set('test-token');
  const auth = { user: user as unknown as CurrentUser } as AuthContextValue;
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={['/admin/currency-rates']}>
          <CurrencyRatesScreen />
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

async function rowOf(code: string) {
  const table = await screen.findByRole('table', { name: 'Currency rates' });
  const row = within(table)
    .getAllByRole('row')
    .find((candidate) => within(candidate).queryByText(code));
  if (!row) throw new Error(`No row for ${code}`);
  return row;
}

describe('CurrencyRatesScreen', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
  });

  it('lists each rate with its source and date, read-only for whoever may not change workspaces', async () => {
    answer();
    renderScreen(READER);
    const euro = await rowOf('EUR');
    expect(within(euro).getByText('Euro')).toBeVisible();
    expect(within(euro).getByText('0.8532')).toBeVisible();
    expect(within(euro).getByText('Snapshot')).toBeVisible();
    expect(within(await rowOf('GBP')).getByText('Set by an administrator')).toBeVisible();
    expect(screen.getByText(/Switchyard ships with the rates of 2025-06-30/)).toBeVisible();
    expect(screen.getByRole('columnheader', { name: 'Rate (for 1 USD)' })).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'Rate of EUR' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Save/ })).toBeNull();
    expect(screen.queryByText('Add a currency')).toBeNull();
  });

  it('saves an edited rate, and only what changed', async () => {
    const fetchMock = answer();
    renderScreen(ADMIN);
    const input = within(await rowOf('EUR')).getByRole('textbox', { name: 'Rate of EUR' });
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    fireEvent.change(input, { target: { value: '0.91' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes (1)' }));
    await waitFor(() => expect(puts(fetchMock)).toEqual([{ rates: [{ code: 'EUR', rate: 0.91 }] }]));
    expect(await screen.findByText('Rates saved: 1')).toBeVisible();
    // The base currency is never edited.
    expect(within(await rowOf('USD')).queryByRole('textbox')).toBeNull();
  });

  it("shows the server's refusal under the rate it names", async () => {
    answer(() => ({
      status: 400,
      body: { message: 'Validation failed', errors: { 'rates.0.rate': ['Too small to be a rate'] } },
    }));
    renderScreen(ADMIN);
    const euro = await rowOf('EUR');
    fireEvent.change(within(euro).getByRole('textbox', { name: 'Rate of EUR' }), { target: { value: '0.0000001' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes (1)' }));
    expect(await within(euro).findByText('Too small to be a rate')).toBeVisible();
    expect(screen.queryByText('Validation failed')).toBeNull();
  });

  it('refuses a rate of 0 before sending it', async () => {
    const fetchMock = answer();
    renderScreen(ADMIN);
    const euro = await rowOf('EUR');
    fireEvent.change(within(euro).getByRole('textbox', { name: 'Rate of EUR' }), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes (1)' }));
    expect(await within(euro).findByText('Enter a rate above 0 and at most 1,000,000,000')).toBeVisible();
    expect(puts(fetchMock)).toEqual([]);
  });

  it('adds a currency without a rate, then saves it', async () => {
    const fetchMock = answer();
    renderScreen(ADMIN);
    await rowOf('EUR');
    fireEvent.click(screen.getByRole('combobox', { name: 'Currency' }));
    // Currencies that already have a rate are not offered.
    expect(screen.queryByRole('option', { name: 'EUR — Euro' })).toBeNull();
    fireEvent.click(await screen.findByRole('option', { name: 'JPY — Japanese Yen' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Rate' }), { target: { value: '144.35' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));

    const yen = await rowOf('JPY');
    expect(within(yen).getByText('New, not saved')).toBeVisible();
    expect(within(yen).getByRole('textbox', { name: 'Rate of JPY' })).toHaveValue('144.35');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes (1)' }));
    await waitFor(() => expect(puts(fetchMock)).toEqual([{ rates: [{ code: 'JPY', rate: 144.35 }] }]));
  });
});
