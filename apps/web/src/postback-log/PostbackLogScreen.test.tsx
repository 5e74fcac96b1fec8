import type { CurrentUser, OutboundPostbackEntry, PostbackLogEntry } from '@switchyard/domain';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../api/client';
import { ControlProviders } from '../components/form/controls/renderControl';
import { AuthContext, type AuthContextValue } from '../shared/auth/AuthContext';
import { PostbackLogScreen } from './PostbackLogScreen';

const ANALYST = {
  id: 1,
  name: 'Ana',
  email: 'ana@example.test',
  permissions: ['/tracker/reports/get', '/tracker/reports/money'],
  workspaces: [{ id: 1, name: 'Main' }],
};
/** May read reports, but not see money. */
const MASKED = { ...ANALYST, permissions: ['/tracker/reports/get'] };
/** May also read the workspaces (their postback key) and import conversions. */
const ADMIN = { ...ANALYST, permissions: ['/tracker/reports', '/general'] };
const KEY = 'Ab3dEf6hIj9kLm2nOp5qRs8t';

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
    state: 'approved',
    original_currency: null,
    payout_source: 'rule',
    payout_rule_id: 'rule-gb',
  },
  state: 'approved',
  previous_state: null,
  reason: null,
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
  state: null,
  reason: 'No click or lead has this id.',
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

function answer(
  incoming: PostbackLogEntry[],
  outbound: OutboundPostbackEntry[] = [],
  other: (url: string, init?: RequestInit) => unknown = () => ({}),
) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url.startsWith('/api/postback-log'))
      return new Response(JSON.stringify({ list: incoming, total: incoming.length }));
    if (url.startsWith('/api/outbound-postbacks')) {
      return new Response(JSON.stringify({ list: outbound, total: outbound.length }));
    }
    return new Response(JSON.stringify(other(url, init)));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderScreen(path = '/tracker/reports/postbacks', user: object = ANALYST) {
  tokenStore.set('test-token');
  const auth = { user: user as unknown as CurrentUser } as AuthContextValue;
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
    // What set the payout, in words.
    expect(screen.getByText('Payout set by')).toBeVisible();
    expect(screen.getByText('Payout rule rule-gb of the campaign, the first whose condition matched')).toBeVisible();
    fireEvent.click(within(row).getByRole('button', { name: 'Hide parameters' }));
    expect(screen.queryByText('zone 7')).toBeNull();
  });

  it('shows no payout to a user without the money permission, as the server left it out', async () => {
    const { payout: _payout, revenue: _revenue, ...conversion } = converted.conversion!;
    const { payout: _raw, ...raw } = converted.raw;
    answer([{ ...converted, raw, conversion }]);
    renderScreen('/tracker/reports/postbacks', MASKED);
    const table = await screen.findByRole('table', { name: 'Incoming' });
    expect(within(table).queryByRole('columnheader', { name: 'Payout' })).toBeNull();
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('Converted')).toBeVisible();
    // As many cells as headers: no empty payout cell left behind.
    expect(within(row).getAllByRole('cell')).toHaveLength(within(table).getAllByRole('columnheader').length);
    fireEvent.click(within(row).getByRole('button', { name: 'Show parameters' }));
    expect(screen.getByText('zone 7')).toBeVisible();
    expect(screen.queryByText('Payout')).toBeNull();
    expect(screen.queryByText('Payout sent by the network')).toBeNull();
    expect(screen.queryByText(/\$/)).toBeNull();
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

  it("explains an empty log and gives the workspace's keyed postback address", async () => {
    answer([], [], (url) =>
      url.startsWith('/api/workspaces/1') ? { id: 1, name: 'Main', postback_key: KEY } : { list: [], total: 0 },
    );
    renderScreen('/tracker/reports/postbacks', ADMIN);
    expect(await screen.findByText('No postbacks received yet')).toBeVisible();
    const address = (await screen.findByRole('textbox', { name: 'Postback URL' })) as HTMLInputElement;
    expect(address.value).toBe(
      `${window.location.origin}/${KEY}/postback?clickid={clickid}&payout={payout}&status={status}&txid={txid}&currency={currency}`,
    );
  });

  it('never offers the keyless address to a user who may not read the key', async () => {
    const fetchMock = answer([]);
    renderScreen();
    expect(
      await screen.findByText("Each affiliate network's screen shows its postback URL, with the network's own macros."),
    ).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'Postback URL' })).toBeNull();
    expect(fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('workspaces'))).toEqual([]);
  });

  it('shows a state change with its transition, a refusal with its reason, and a conversion history', async () => {
    const approved: PostbackLogEntry = {
      ...converted,
      id: 5,
      outcome: 'status_changed',
      previous_state: 'pending',
      state: 'approved',
    };
    const refused: PostbackLogEntry = {
      ...unknown,
      id: 6,
      outcome: 'refused_address',
      response_status: 403,
      reason: "198.51.100.7 is not on the affiliate network's address list.",
    };
    const fetchMock = answer([refused, approved]);
    renderScreen();
    const table = await screen.findByRole('table', { name: 'Incoming' });
    const [, refusedRow, changedRow] = within(table).getAllByRole('row');
    expect(within(refusedRow!).getByText('Address refused')).toBeVisible();
    expect(within(refusedRow!).getByText("198.51.100.7 is not on the affiliate network's address list.")).toBeVisible();
    expect(within(changedRow!).getByText('State changed')).toBeVisible();
    expect(within(changedRow!).getByText('Pending → Approved')).toBeVisible();

    fireEvent.click(within(changedRow!).getByRole('button', { name: 'Show every postback of conversion conv-1' }));
    await waitFor(() => expect(String(fetchMock.mock.calls.at(-1)?.[0])).toContain('search=conv-1'));
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('conv-1');
  });

  it('imports conversions line by line for a user who may create them', async () => {
    const imported = {
      lines: [
        {
          line: 2,
          text: 'click-abc,approved,10',
          outcome: 'converted',
          status: 200,
          message: null,
          conversion_id: 'conv-9',
          state: 'approved',
        },
        {
          line: 3,
          text: 'nobody,sale',
          outcome: 'unknown_click',
          status: 404,
          message: 'No click or lead has this id.',
          conversion_id: null,
          state: null,
        },
      ],
      counted: 1,
      refused: 1,
    };
    const fetchMock = answer([], [], (url) => (url === '/api/conversions/import' ? imported : { list: [], total: 0 }));
    renderScreen('/tracker/reports/postbacks?tab=import', ADMIN);
    const box = await screen.findByRole('textbox', { name: 'Lines to import' });
    fireEvent.change(box, { target: { value: 'clickid,status,payout\nclick-abc,approved,10\nnobody,sale' } });
    expect(screen.getByText('Lines: 3')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));

    const results = await screen.findByRole('table', { name: 'Imported lines' });
    const call = fetchMock.mock.calls.find(([url]) => String(url) === '/api/conversions/import');
    expect(call?.[1]?.method).toBe('POST');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      text: 'clickid,status,payout\nclick-abc,approved,10\nnobody,sale',
    });
    expect(screen.getByText('Counted: 1 · Acknowledged without change: 0 · Refused: 1')).toBeVisible();
    const [, counted, refused] = within(results).getAllByRole('row');
    expect(within(counted!).getByText('Converted')).toBeVisible();
    expect(within(counted!).getByText('Approved')).toBeVisible();
    expect(within(refused!).getByText('Unknown click')).toBeVisible();
    expect(within(refused!).getByText('No click or lead has this id: answered 404.')).toBeVisible();

    fireEvent.click(screen.getByRole('button', { name: 'Keep only the refused lines' }));
    expect(screen.getByRole('textbox', { name: 'Lines to import' })).toHaveValue('nobody,sale');
  });

  it('offers the import only to a user who may create conversions', async () => {
    answer([]);
    renderScreen('/tracker/reports/postbacks?tab=import');
    expect(await screen.findByText('No postbacks received yet')).toBeVisible();
    expect(screen.queryByRole('tab', { name: 'Import' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Lines to import' })).toBeNull();
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
