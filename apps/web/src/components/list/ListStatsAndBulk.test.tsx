import { ModalsProvider } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { CurrentUser } from '@switchyard/domain';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import i18n from '../../i18n';
import { trackerCampaignScreens } from '../../resources/campaigns/screens';
import { trafficSourceScreens } from '../../resources/traffic-sources/screens';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { ControlProviders } from '../form/controls/renderControl';

// The lists of campaigns (and the other records reports group by) show each row's figures for a
// period chosen in the URL, and take bulk actions on chosen rows, answered per row.

const ADMIN = {
  id: 1,
  name: 'Ada',
  email: 'ada@example.test',
  permissions: ['/'],
  workspaces: [{ id: 1, name: 'Main', currency: 'USD' }],
};
const stamp = { status: 'active', created_at: '2025-06-01T00:00:00.000Z', updated_at: '2025-06-01T00:00:00.000Z' };
const BUSY = {
  ...stamp,
  external_id: 'busy',
  name: 'Busy campaign',
  stats: { clicks: 1234, conversions: 7, revenue: 4, cost: 1, profit: 3, roi: 300 },
};
const QUIET = {
  ...stamp,
  external_id: 'quiet',
  name: 'Quiet campaign',
  stats: { clicks: 1, conversions: 0, revenue: 0, cost: 0.25, profit: -0.25, roi: -100 },
};

type Answer = (url: string, init?: RequestInit) => Response | undefined;

function Where() {
  return <output data-testid="search">{useLocation().search}</output>;
}

function renderList(
  options: { user?: object; route?: string; path?: string; List?: ComponentType; answer?: Answer } = {},
) {
  const { route = '/tracker/campaigns', path = route, List = trackerCampaignScreens.List, answer } = options;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const answered = answer?.(url, init);
    if (answered) return answered;
    if (url.startsWith('/api/tracker/campaigns?') || url.startsWith('/api/traffic-sources?')) {
      return new Response(JSON.stringify({ list: [BUSY, QUIET], total: 2 }));
    }
    return new Response(JSON.stringify({ list: [], total: 0 }));
  });
  vi.stubGlobal('fetch', fetchMock);
  tokenStore.set('test-token');
  const auth = { user: (options.user ?? ADMIN) as unknown as CurrentUser } as AuthContextValue;
  render(
    <ControlProviders>
      <ModalsProvider>
        <AuthContext.Provider value={auth}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route
                path={route}
                element={
                  <>
                    <List />
                    <Where />
                  </>
                }
              />
            </Routes>
          </MemoryRouter>
        </AuthContext.Provider>
      </ModalsProvider>
    </ControlProviders>,
  );
  return fetchMock;
}

const listCalls = (fetchMock: ReturnType<typeof renderList>) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/tracker/campaigns?'));
const bulkBodies = (fetchMock: ReturnType<typeof renderList>) =>
  fetchMock.mock.calls
    .filter(([url, init]) => String(url).endsWith('/bulk') && init?.method === 'POST')
    .map(([, init]) => JSON.parse(String(init?.body)));

/** The texts of a row's cells, as read on screen. */
async function rowTexts(name: string): Promise<string[]> {
  const row = (await screen.findByText(name)).closest('tr') as HTMLElement;
  return within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent ?? '');
}

describe('figures on lists', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
    await act(() => i18n.changeLanguage('en'));
  });

  it("shows each campaign's clicks, conversions, revenue, cost, profit and ROI after its name, for today", async () => {
    const fetchMock = renderList();
    const table = await screen.findByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers.slice(1, 8)).toEqual(['Name', 'Clicks', 'Conversions', 'Revenue', 'Cost', 'Profit', 'ROI']);
    expect((await rowTexts('Busy campaign')).slice(2, 8)).toEqual(['1,234', '7', '4.00', '1.00', '3.00', '300%']);
    expect((await rowTexts('Quiet campaign')).slice(2, 8)).toEqual(['1', '0', '0.00', '0.25', '-0.25', '-100%']);
    const asked = new URL(listCalls(fetchMock)[0] ?? '', 'http://x').searchParams;
    expect(asked.get('stats')).toBe('today');
    expect(asked.get('stats_timezone')).toBeTruthy();
  });

  it('sorts by a figure, the largest first, and asks the server to sort across every page', async () => {
    const fetchMock = renderList();
    const clicks = await screen.findByRole('columnheader', { name: 'Clicks' });
    expect(clicks).toHaveAttribute('aria-sort', 'none');
    fireEvent.click(within(clicks).getByRole('button'));
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe('?order_by=clicks&order=desc'));
    expect(screen.getByRole('columnheader', { name: 'Clicks' })).toHaveAttribute('aria-sort', 'descending');
    await waitFor(() => {
      const asked = new URL(listCalls(fetchMock).at(-1) ?? '', 'http://x').searchParams;
      expect([asked.get('order_by'), asked.get('order'), asked.get('stats')]).toEqual(['clicks', 'desc', 'today']);
    });
    fireEvent.click(within(screen.getByRole('columnheader', { name: 'Clicks' })).getByRole('button'));
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe('?order_by=clicks&order=asc'));
  });

  it('takes another period from the menu, keeps it in the URL and asks for it', async () => {
    const fetchMock = renderList();
    const period = await screen.findByRole('combobox', { name: 'Figures for' });
    expect(period).toHaveDisplayValue('Today');
    fireEvent.change(period, { target: { value: 'last_7_days' } });
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe('?period=last_7_days'));
    expect(screen.getByRole('combobox', { name: 'Figures for' })).toHaveDisplayValue('Last 7 days');
    await waitFor(() => expect(listCalls(fetchMock).some((url) => url.includes('stats=last_7_days'))).toBe(true));
  });

  it('reads the period from the URL, in Arabic too', async () => {
    await act(() => i18n.changeLanguage('ar'));
    renderList({ path: '/tracker/campaigns?period=this_month' });
    expect(await screen.findByRole('combobox', { name: 'أرقام فترة' })).toHaveDisplayValue('هذا الشهر');
    expect(await screen.findByRole('columnheader', { name: 'النقرات' })).toBeVisible();
  });

  it('leaves out the money figures for a user who does not see money', async () => {
    renderList({
      user: { ...ADMIN, permissions: ['/tracker/campaign', '/tracker/reports/get', '/tracker/traffic-source/get'] },
    });
    await screen.findByRole('columnheader', { name: 'Clicks' });
    expect(screen.getByRole('columnheader', { name: 'Conversions' })).toBeVisible();
    for (const money of ['Revenue', 'Cost', 'Profit', 'ROI']) {
      expect(screen.queryByRole('columnheader', { name: money })).toBeNull();
    }
  });

  it('asks for no figures, and shows none, without the right to read reports', async () => {
    const fetchMock = renderList({ user: { ...ADMIN, permissions: ['/tracker/campaign'] } });
    await screen.findByText('Busy campaign');
    expect(screen.queryByRole('columnheader', { name: 'Clicks' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Figures for' })).toBeNull();
    expect(listCalls(fetchMock).every((url) => !url.includes('stats='))).toBe(true);
  });
});

describe('bulk actions on lists', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
    await act(() => i18n.changeLanguage('en'));
  });

  it('pauses the chosen campaigns and says how many were paused and which one was not, and why', async () => {
    const fetchMock = renderList({
      answer: (url, init) =>
        url === '/api/tracker/campaigns/bulk' && init?.method === 'POST'
          ? new Response(
              JSON.stringify({
                results: [
                  { id: 'busy', ok: true, status: 200 },
                  { id: 'quiet', ok: false, status: 403, message: 'You do not have permission to do this' },
                ],
              }),
            )
          : undefined,
    });
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).toBeNull();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select Busy campaign' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Quiet campaign' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('Selected: 2')).toBeVisible();
    expect(screen.getByRole('checkbox', { name: 'Select every row on this page' })).toBeChecked();
    // One workspace: nowhere to move to.
    expect(within(bar).queryByRole('button', { name: 'Move to workspace' })).toBeNull();
    fireEvent.click(within(bar).getByRole('button', { name: 'Pause' }));
    const outcome = await screen.findByText('Paused: 1');
    const notice = outcome.closest('[role="status"]') as HTMLElement;
    expect(within(notice).getByText('Not done: 1')).toBeVisible();
    expect(within(notice).getByRole('listitem').textContent).toBe(
      'Quiet campaign: You do not have permission to do this',
    );
    expect(bulkBodies(fetchMock)).toEqual([{ action: 'pause', ids: ['busy', 'quiet'] }]);
    // The selection is cleared once done.
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).toBeNull();
  });

  it('archives only after a confirmation, and archives the ones in use when asked again', async () => {
    let calls = 0;
    const fetchMock = renderList({
      answer: (url, init) => {
        if (url !== '/api/tracker/campaigns/bulk' || init?.method !== 'POST') return undefined;
        calls += 1;
        return new Response(
          JSON.stringify({
            results:
              calls === 1
                ? [{ id: 'busy', ok: false, status: 409, message: 'Still used by X.' }]
                : [{ id: 'busy', ok: true, status: 200 }],
          }),
        );
      },
    });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select every row on this page' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Quiet campaign' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('Selected: 1')).toBeVisible();
    fireEvent.click(within(bar).getByRole('button', { name: 'Archive' }));
    const dialog = await screen.findByRole('dialog', { name: 'Archive the selected records (1)?' });
    expect(bulkBodies(fetchMock)).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Archive them' }));
    const notice = (await screen.findByText('Archived: 0')).closest('[role="status"]') as HTMLElement;
    expect(within(notice).getByRole('listitem').textContent).toBe('Busy campaign: still in use');
    fireEvent.click(within(notice).getByRole('button', { name: 'Archive these anyway' }));
    expect(await screen.findByText('Archived: 1')).toBeVisible();
    expect(bulkBodies(fetchMock)).toEqual([
      { action: 'archive', ids: ['busy'] },
      { action: 'archive', ids: ['busy'], force: true },
    ]);
  });

  it('moves to another of the user’s workspaces', async () => {
    const fetchMock = renderList({
      user: { ...ADMIN, workspaces: [...ADMIN.workspaces, { id: 2, name: 'Client B' }] },
      answer: (url, init) =>
        url === '/api/tracker/campaigns/bulk' && init?.method === 'POST'
          ? new Response(JSON.stringify({ results: [{ id: 'quiet', ok: true, status: 200 }] }))
          : undefined,
    });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select Quiet campaign' }));
    fireEvent.click(screen.getByRole('button', { name: 'Move to workspace' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Client B' }));
    expect(await screen.findByText('Moved: 1')).toBeVisible();
    expect(bulkBodies(fetchMock)).toEqual([{ action: 'move', ids: ['quiet'], workspace: 2 }]);
  });

  it('offers archive but not pause where records cannot be paused (traffic sources)', async () => {
    renderList({ route: '/admin/traffic-sources', List: trafficSourceScreens.List });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select Busy campaign' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByRole('button', { name: 'Archive' })).toBeVisible();
    expect(within(bar).queryByRole('button', { name: 'Pause' })).toBeNull();
    expect(within(bar).queryByRole('button', { name: 'Enable' })).toBeNull();
  });
});
