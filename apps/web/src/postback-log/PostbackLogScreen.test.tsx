import type { CurrentUser, OutboundPostbackEntry, PostbackLogEntry } from '@switchyard/domain';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../api/client';
import { AuthContext, type AuthContextValue } from '../app/auth/AuthContext';
import { ControlProviders } from '../components/form/controls/renderControl';
import { PostbackLogScreen } from './PostbackLogScreen';

const ANALYST = { id: 1, name: 'Ana', email: 'ana@example.test', permissions: ['/tracker/reports/get'] };

const converted: PostbackLogEntry = {
  id: 2,
  created_at: '2025-04-01T09:00:02.000Z',
  outcome: 'converted',
  response_status: 200,
  click_id: 'click-abc',
  txid: 'tx-1',
  ip: '203.0.113.7',
  raw: { clickid: 'click-abc', payout: '10', sub: 'zone 7' },
  conversion: {
    conversion_id: 'conv-1',
    payout: 4.5,
    revenue: 10,
    currency: 'USD',
    status: 'approved',
    event: { kind: 'postback-events', external_id: 'ev', name: 'Sale' },
    is_conversion: true,
  },
  campaign: { kind: 'tracker-campaigns', external_id: 'cmp', name: 'Spring push' },
};

const unknown: PostbackLogEntry = {
  ...converted,
  id: 3,
  outcome: 'unknown_click',
  response_status: 404,
  click_id: 'nobody',
  raw: { clickid: 'nobody' },
  conversion: null,
  campaign: null,
};

const retrying: OutboundPostbackEntry = {
  id: 1,
  created_at: '2025-04-01T09:00:02.000Z',
  url: 'https://source.example/pb?c=src-1&p=4.5',
  state: 'retrying',
  attempts: 2,
  last_status: 503,
  last_error: 'HTTP 503',
  last_attempt_at: '2025-04-01T09:01:00.000Z',
  next_attempt_at: '2025-04-01T09:03:00.000Z',
  conversion_id: 'conv-1',
  click_id: 'click-abc',
  lead_id: null,
  txid: 'tx-1',
  campaign: null,
};

function answer(incoming: PostbackLogEntry[], outbound: OutboundPostbackEntry[] = []) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    const list = url.startsWith('/api/postback-log') ? incoming : outbound;
    return new Response(JSON.stringify({ list, total: list.length }));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderScreen(path = '/tracker/reports/postbacks') {
  tokenStore.set('test-token');
  const auth = { user: ANALYST as unknown as CurrentUser } as AuthContextValue;
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={[path]}>
          <PostbackLogScreen />
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

describe('PostbackLogScreen', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
  });

  it('lists incoming postbacks with their outcome, and opens one to show its parameters', async () => {
    answer([unknown, converted]);
    renderScreen();
    const table = await screen.findByRole('table', { name: 'Incoming' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('Unknown click')).toBeVisible();
    expect(within(rows[1]!).getByText(/No click or lead has this id/)).toBeVisible();
    const row = rows[2]!;
    expect(within(row).getByText('Converted')).toBeVisible();
    expect(within(row).getByText('$4.50')).toBeVisible();
    expect(within(row).getByText('Sale')).toBeVisible();
    // The campaign is not a link: this user may read reports, not campaigns.
    expect(within(row).getByText('Spring push').closest('a')).toBeNull();
    expect(screen.queryByText('zone 7')).toBeNull();

    fireEvent.click(within(row).getByRole('button', { name: 'Show parameters' }));
    expect(screen.getByText('zone 7')).toBeVisible();
    expect(screen.getByText('Parameters received')).toBeVisible();
    expect(screen.getByText('HTTP 200')).toBeVisible();
    fireEvent.click(within(row).getByRole('button', { name: 'Hide parameters' }));
    expect(screen.queryByText('zone 7')).toBeNull();
  });

  it('marks a recorded postback whose event is not a conversion as Recorded, and says its payout is revenue', async () => {
    const registration: PostbackLogEntry = {
      ...converted,
      id: 4,
      txid: 'tx-reg',
      conversion: {
        ...converted.conversion!,
        conversion_id: 'conv-2',
        event: { kind: 'postback-events', external_id: 'reg', name: 'Registration' },
        is_conversion: false,
      },
    };
    answer([registration, converted]);
    renderScreen();
    const table = await screen.findByRole('table', { name: 'Incoming' });
    const [, recorded, sale] = within(table).getAllByRole('row');
    expect(within(recorded!).getByText('Recorded')).toBeVisible();
    expect(within(recorded!).queryByText('Converted')).toBeNull();
    expect(
      within(recorded!).getByText(
        'Recorded; Registration does not count as a conversion. Its payout counts in revenue.',
      ),
    ).toBeVisible();
    expect(within(sale!).getByText('Converted')).toBeVisible();
    // The filter's choice for recorded postbacks says it takes both.
    fireEvent.click(screen.getByRole('combobox', { name: 'Outcome' }));
    expect(await screen.findByRole('option', { name: 'Recorded (converted or not)' })).toBeVisible();
  });

  it('sends the outcome filter and the search to the API', async () => {
    const fetchMock = answer([converted]);
    renderScreen('/tracker/reports/postbacks?outcome=duplicate&search=tx-1&page=2');
    await screen.findByRole('table', { name: 'Incoming' });
    const url = String(fetchMock.mock.calls[0]?.[0]);
    expect(url).toContain('outcome=duplicate');
    expect(url).toContain('search=tx-1');
    expect(url).toContain('page=2');
    expect(url).toContain('limit=40');
  });

  it('explains an empty log and gives the postback address', async () => {
    answer([]);
    renderScreen();
    expect(await screen.findByText('No postbacks received yet')).toBeVisible();
    const address = screen.getByRole('textbox', { name: 'Postback URL' }) as HTMLInputElement;
    expect(address.value).toBe(
      `${window.location.origin}/postback?clickid={clickid}&payout={payout}&status={status}&txid={txid}`,
    );
  });

  it('offers to clear filters that match nothing', async () => {
    answer([]);
    renderScreen('/tracker/reports/postbacks?outcome=duplicate');
    fireEvent.click(await screen.findByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('No postbacks received yet')).toBeVisible();
  });

  it('shows the outbound queue with state, attempts and the last response', async () => {
    answer([], [retrying]);
    renderScreen('/tracker/reports/postbacks?tab=outbound');
    const table = await screen.findByRole('table', { name: 'Outbound' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('Retrying')).toBeVisible();
    expect(within(row).getByText('HTTP 503')).toBeVisible();
    expect(within(row).getByText('https://source.example/pb?c=src-1&p=4.5')).toBeVisible();
    expect(within(row).getByText('2')).toBeVisible();
  });
});
