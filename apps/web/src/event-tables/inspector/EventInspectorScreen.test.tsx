import type { CurrentUser } from '@switchyard/domain';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import { ControlProviders } from '../../components/form/controls/renderControl';
import i18n from '../../i18n';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { EventInspectorScreen } from './EventInspectorScreen';
import { CLICK, LEAD, TODAY } from './inspectionFixtures';

const ANALYST = {
  id: 1,
  name: 'Ana',
  email: 'ana@example.test',
  permissions: ['/tracker/reports/get', '/tracker/reports/money'],
  workspaces: [{ id: 1, name: 'Main' }],
};
const MASKED = { ...ANALYST, permissions: ['/tracker/reports/get'] };
const CLICK_PATH = '/tracker/reports/events/clicks/click-abc?timezone=UTC&from=2026-11-09';

function answer(status: number, body: unknown) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL) => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderScreen(path = CLICK_PATH, user: object = ANALYST) {
  tokenStore.set('test-token');
  const auth = { user: user as unknown as CurrentUser } as AuthContextValue;
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/tracker/reports/events/:kind/:eventId" element={<EventInspectorScreen />} />
          </Routes>
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

/** The value under a label of the stored context (a `dt` and its `dd`). */
function stored(label: string): string | null | undefined {
  const section = screen.getByRole('region', { name: 'As it was stored' });
  const term = within(section).getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent;
}

describe('EventInspectorScreen', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('en');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
  });

  it('says where the click would go today, and that it went elsewhere when it was routed', async () => {
    const fetchMock = answer(200, CLICK);
    renderScreen();
    const replay = await screen.findByRole('region', { name: 'Replay' });
    expect(within(replay).getByText('Would go to Dating DE today')).toBeVisible();
    expect(within(replay).getByText('Path group: Everyone else')).toBeVisible();
    expect(within(replay).getByText('Not where it went when it was routed.')).toBeVisible();
    expect(within(replay).getByText('It went to Shoes US.')).toBeVisible();
    expect(new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://localhost').pathname).toBe(
      '/api/events/clicks/click-abc/replay',
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Click click-abc');
    // Back to the event log under the same filters.
    expect(screen.getByRole('link', { name: 'Event log' }).getAttribute('href')).toBe(
      '/tracker/reports/events/clicks?timezone=UTC&from=2026-11-09',
    );
  });

  it('shows the click as it was stored, in the event tables’ words', async () => {
    answer(200, CLICK);
    renderScreen();
    await screen.findByRole('region', { name: 'As it was stored' });
    expect(stored('Time')).toBe('11/10/26, 12:00:00 PM');
    expect(stored('Campaign')).toBe('Spring push');
    expect(stored('Flow')).toBe('Main flow');
    expect(stored('Offer')).toBe('Shoes US');
    // Named as today's flow names them; a path no longer routed to shows as its id.
    expect(stored('Path group')).toBe('US visitors');
    expect(stored('Path')).toBe('p-us');
    expect(stored('Lander')).toBe('—');
    expect(stored('Routing reason')).toBe('The offer was capped or unavailable; a backup offer was sent.');
    expect(stored('AS number')).toBe('AS31334');
    expect(stored('Bot')).toBe('Yes: Datacenter network');
    expect(stored('Source click ID')).toBe('src-77');
    expect(stored('Vars')).toBe('var1=zone-7');
    expect(stored('User agent')).toBe('Mozilla/5.0 (iPhone)');
  });

  it('lists the conversions with their payout for who sees money, and without it for anyone else', async () => {
    answer(200, CLICK);
    const { unmount } = renderScreen();
    const table = await screen.findByRole('table', { name: 'Conversions' });
    const row = within(table).getByText('conv-123456789').closest('tr')!;
    expect(within(row).getByText('Approved')).toBeVisible();
    expect(within(row).getByText('4.50')).toBeVisible();
    unmount();

    const { payout: _payout, ...masked } = CLICK.click.conversions[0]!;
    answer(200, { ...CLICK, click: { ...CLICK.click, conversions: [masked] } });
    renderScreen(CLICK_PATH, MASKED);
    const hidden = await screen.findByRole('table', { name: 'Conversions' });
    expect(within(hidden).getByText('Approved')).toBeVisible();
    expect(within(hidden).queryByRole('columnheader', { name: 'Payout' })).toBeNull();
  });

  it("explains today's routing with the simulator's own result", async () => {
    answer(200, CLICK);
    renderScreen();
    const steps = await screen.findByRole('region', { name: "Today's routing, step by step" });
    expect(within(within(steps).getByRole('region', { name: 'US visitors' })).getByText('Not matched')).toBeVisible();
    expect(within(steps).getByText('https://offers.example.com/de?click={clickid}')).toBeVisible();
  });

  it('says so when today’s routing is the same as then, or reads the visitor as a bot', async () => {
    const same = {
      ...CLICK,
      click: { ...CLICK.click, path_group_id: 'g-rest', offer_external_id: 'off-de', offer: LEAD.lead.offer },
      replay: { ...TODAY, context: { ...TODAY.context, isBot: true, botReason: 'datacenter_asn' } },
    };
    answer(200, same);
    renderScreen();
    const replay = await screen.findByRole('region', { name: 'Replay' });
    expect(within(replay).getByText('The same as when it was routed.')).toBeVisible();
    expect(within(replay).queryByText(/^It went to/)).toBeNull();
    expect(within(replay).getByText('Today it would be read as a bot: Datacenter network')).toBeVisible();
  });

  it('says when nothing would be sent today, or the campaign no longer routes', async () => {
    answer(200, { ...CLICK, replay: { ...TODAY, path_group: null, offer: null, reason: 'no_matching_path_group' } });
    const { unmount } = renderScreen();
    expect(await screen.findByText('Would be refused today: No path group matched this visitor.')).toBeVisible();
    unmount();

    answer(200, { ...CLICK, replay: null });
    renderScreen();
    expect(await screen.findByText('Its campaign is no longer active: it would not be routed today.')).toBeVisible();
    expect(screen.getByText('It went to Shoes US.')).toBeVisible();
    expect(screen.queryByRole('region', { name: "Today's routing, step by step" })).toBeNull();
  });

  it('opens an API lead from its own replay route', async () => {
    const fetchMock = answer(200, LEAD);
    renderScreen('/tracker/reports/events/leads/lead-1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Lead lead-1' })).toBeVisible();
    expect(new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://localhost').pathname).toBe(
      '/api/events/leads/lead-1/replay',
    );
    await screen.findByRole('region', { name: 'As it was stored' });
    expect(stored('Email domain')).toBe('example.org');
    expect(stored('Campaign')).toBe('Lead push');
    expect(screen.getByText('The same as when it was routed.')).toBeVisible();
    expect(screen.getByText('No conversions.')).toBeVisible();
  });

  it('says when there is no such event', async () => {
    answer(404, { message: 'Not found' });
    renderScreen('/tracker/reports/events/clicks/nope');
    expect((await screen.findByRole('alert')).textContent).toBe('There is no such event in this workspace.');
  });
});
