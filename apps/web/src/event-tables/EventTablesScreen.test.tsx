import type { ClickEvent, ConversionEvent, CurrentUser } from '@switchyard/domain';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../api/client';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { AuthContext, type AuthContextValue } from '../shared/auth/AuthContext';
import { EventTablesScreen } from './EventTablesScreen';

const ANALYST = {
  id: 1,
  name: 'Ana',
  email: 'ana@example.test',
  permissions: ['/tracker/reports/get', '/tracker/reports/money'],
  workspaces: [{ id: 1, name: 'Main' }],
};
const MASKED = { ...ANALYST, permissions: ['/tracker/reports/get'] };

const vars = {
  var1: 'zone-7',
  var2: null,
  var3: null,
  var4: null,
  var5: null,
  var6: null,
  var7: null,
  var8: null,
  var9: null,
  var10: null,
};

const click: ClickEvent = {
  click_id: 'click-abc',
  created_at: '2026-11-10T12:00:00.000Z',
  campaign: { kind: 'tracker-campaigns', external_id: 'cmp', name: 'Spring push' },
  flow: null,
  path_group_id: 'g',
  path_id: 'p',
  lander: null,
  offer: { kind: 'tracker-offers', external_id: 'off', name: 'Shoes' },
  traffic_source: null,
  visitor_id: 'v-1',
  is_unique: true,
  ip: '203.0.113.9',
  country: 'GB',
  device: 'mobile',
  platform: 'iOS',
  browser: 'Safari',
  user_agent: 'UA',
  referrer: null,
  external_click_id: null,
  subaff: 's1',
  ...vars,
  vars: {},
  cost: 0.25,
  is_bot: false,
  region: null,
  city: null,
  asn: null,
  isp: null,
  language: null,
  referrer_domain: null,
  os_version: null,
  browser_version: null,
  bot_reason: null,
  cost_flag: null,
  reason: 'backup_offer',
  conversions: [
    { conversion_id: 'conv-123456789', state: 'approved', payout: 4.5, created_at: '2026-11-10T13:00:00.000Z' },
  ],
};

const conversion = {
  conversion_id: 'conv-123456789',
  created_at: '2026-11-10T13:00:00.000Z',
  click_id: 'click-abc',
  state: 'pending',
  txid: 'tx-9',
  campaign: click.campaign,
  offer: click.offer,
  event: null,
  country: 'GB',
  payout: 4.5,
} as unknown as ConversionEvent;

function answer() {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url.startsWith('/api/events/clicks')) return new Response(JSON.stringify({ list: [click], total: 1 }));
    if (url.startsWith('/api/events/conversions')) {
      return new Response(JSON.stringify({ list: [conversion], total: 1 }));
    }
    return new Response(JSON.stringify({ list: [], total: 0 }));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const PATH =
  '/tracker/reports/events/clicks?from=2026-11-09&to=2026-11-11&timezone=UTC&filters=%7B%22campaign%22%3A%22cmp%22%7D&filter_labels=%7B%22campaign%22%3A%22Spring%20push%22%7D';

function renderScreen(path = PATH, user: object = ANALYST) {
  tokenStore.set('test-token');
  const auth = { user: user as unknown as CurrentUser } as AuthContextValue;
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/tracker/reports/events/:kind" element={<EventTablesScreen />} />
          </Routes>
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

describe('EventTablesScreen', () => {
  beforeEach(async () => {
    localStorage.clear();
    await i18n.changeLanguage('en');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
  });

  it('lists the clicks under the URL’s filters, with their routing reason, cost and conversion', async () => {
    const fetchMock = answer();
    renderScreen();
    const table = await screen.findByRole('table', { name: 'Clicks' });
    const row = (await within(table).findByText('click-abc')).closest('tr')!;
    // The reason in words, not the server's code.
    expect(within(row).getByText('The offer was capped or unavailable; a backup offer was sent.')).toBeVisible();
    expect(within(row).queryByText('backup_offer')).toBeNull();
    expect(within(row).getByText('Spring push')).toBeVisible();
    expect(within(row).getByText('0.25')).toBeVisible();
    expect(within(row).getByText(/Approved · 4.50/)).toBeVisible();
    const filters = screen.getByRole('group', { name: 'Filters' });
    expect(within(filters).getByText('Spring push')).toBeVisible();
    expect(within(filters).getByText(/2026-11-09 to 2026-11-11/)).toBeVisible();
    const asked = new URL(String(fetchMock.mock.calls[0]![0]), 'http://localhost');
    expect(asked.pathname).toBe('/api/events/clicks');
    expect(asked.searchParams.get('date_from')).toBe('2026-11-09');
    expect(asked.searchParams.get('date_to')).toBe('2026-11-11');
    expect(JSON.parse(asked.searchParams.get('filters')!)).toEqual({ campaign: 'cmp' });
  });

  it('says the routing reason in Arabic too', async () => {
    await i18n.changeLanguage('ar');
    answer();
    renderScreen();
    const table = await screen.findByRole('table');
    const row = (await within(table).findByText('click-abc')).closest('tr')!;
    expect(within(row).getByText(i18n.getFixedT('ar')('resources:simulator.reasons.backup_offer'))).toBeVisible();
    expect(within(row).queryByText('backup_offer')).toBeNull();
  });

  it('picks columns from a menu of checkboxes and keeps the choice per kind', async () => {
    answer();
    renderScreen();
    const table = await screen.findByRole('table', { name: 'Clicks' });
    expect(within(table).queryByRole('columnheader', { name: 'IP address' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'IP address' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Routing reason' }));
    await waitFor(() => expect(within(table).getByRole('columnheader', { name: 'IP address' })).toBeVisible());
    expect(within(table).queryByRole('columnheader', { name: 'Routing reason' })).toBeNull();
    expect(within(table).getByText('203.0.113.9')).toBeVisible();
    const stored = JSON.parse(localStorage.getItem('switchyard.eventColumns.clicks')!) as string[];
    expect(stored).toContain('ip');
    expect(stored).not.toContain('reason');
    expect(localStorage.getItem('switchyard.eventColumns.conversions')).toBeNull();
  });

  it('says why a click is a bot, and shows what was read off the visitor on demand', async () => {
    const bot: ClickEvent = {
      ...click,
      is_bot: true,
      bot_reason: 'datacenter_asn',
      region: 'US-VA',
      city: 'Ashburn',
      asn: 14618,
      isp: 'Amazon.com',
      language: 'en',
      referrer_domain: 'news.example',
      os_version: 10,
      browser_version: 120,
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ list: [bot, click], total: 2 }))),
    );
    renderScreen();
    const table = await screen.findByRole('table', { name: 'Clicks' });
    await within(table).findAllByText('click-abc');
    const botColumn = within(table)
      .getAllByRole('columnheader')
      .findIndex((header) => header.textContent === 'Bot');
    const verdicts = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[botColumn]?.textContent);
    expect(verdicts).toEqual(['Yes: Datacenter network', 'No']);

    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    for (const name of [
      'Region',
      'City',
      'AS number',
      'Internet provider',
      'Language',
      'Referrer domain',
      'OS version',
      'Browser version',
    ]) {
      fireEvent.click(await screen.findByRole('checkbox', { name }));
    }
    await waitFor(() => expect(within(table).getByRole('columnheader', { name: 'AS number' })).toBeVisible());
    const first = within(table).getAllByRole('row')[1] as HTMLElement;
    for (const text of ['US-VA', 'Ashburn', 'AS14618', 'Amazon.com', 'en', 'news.example', '120']) {
      expect(within(first).getByText(text), text).toBeVisible();
    }
  });

  it('leaves the cost and payouts out for a user who may not see money', async () => {
    const { cost: _cost, ...rest } = click;
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              list: [
                { ...rest, conversions: [{ conversion_id: 'conv-1', state: 'approved', created_at: rest.created_at }] },
              ],
              total: 1,
            }),
          ),
      ),
    );
    renderScreen(PATH, MASKED);
    const table = await screen.findByRole('table', { name: 'Clicks' });
    await within(table).findByText('click-abc');
    expect(within(table).queryByRole('columnheader', { name: 'Cost' })).toBeNull();
    expect(within(table).getByText('Approved')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    await screen.findByRole('checkbox', { name: 'IP address' });
    expect(screen.queryByRole('checkbox', { name: 'Cost' })).toBeNull();
  });

  it('opens a click in the inspector from its id, keeping the filters for the way back', async () => {
    answer();
    renderScreen();
    const table = await screen.findByRole('table', { name: 'Clicks' });
    const link = await within(table).findByRole('link', { name: 'click-abc' });
    expect(link.getAttribute('href')).toBe(`/tracker/reports/events/clicks/click-abc?${PATH.split('?')[1]}`);
    expect(link.getAttribute('title')).toBe('Inspect the click click-abc');
    // A conversion opens no inspector: its click does.
    fireEvent.click(screen.getByRole('tab', { name: 'Conversions' }));
    const conversions = await screen.findByRole('table', { name: 'Conversions' });
    await within(conversions).findByText('tx-9');
    expect(within(conversions).queryByRole('link', { name: 'conv-123456789' })).toBeNull();
  });

  it('switches to the conversions under the same filters', async () => {
    const fetchMock = answer();
    renderScreen();
    await screen.findByRole('table', { name: 'Clicks' });
    fireEvent.click(screen.getByRole('tab', { name: 'Conversions' }));
    const table = await screen.findByRole('table', { name: 'Conversions' });
    expect(await within(table).findByText('tx-9')).toBeVisible();
    expect(within(table).getByText('Pending')).toBeVisible();
    const asked = new URL(String(fetchMock.mock.calls.at(-1)![0]), 'http://localhost');
    expect(asked.pathname).toBe('/api/events/conversions');
    expect(JSON.parse(asked.searchParams.get('filters')!)).toEqual({ campaign: 'cmp' });
    expect(asked.searchParams.get('state')).toBeNull();
    // The report's counted conversions by default; every one, or one state, on demand.
    fireEvent.click(screen.getByRole('radio', { name: 'All' }));
    await waitFor(() =>
      expect(new URL(String(fetchMock.mock.calls.at(-1)![0]), 'http://localhost').searchParams.get('state')).toBe(
        'all',
      ),
    );
  });
});
