import type { CurrentUser } from '@switchyard/domain';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import { ControlProviders } from '../../components/form/controls/renderControl';
import i18n from '../../i18n';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { campaignScreens, trackerCampaignScreens } from './screens';

// The click-rate bot limit of tracker and API campaigns.

const ADMIN = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/'], workspaces: [] };

function answer() {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const json = (body: unknown) => new Response(JSON.stringify(body));
    if (init?.method === 'POST') return json({ external_id: 'c-1', ...JSON.parse(String(init.body)) });
    if (url.startsWith('/api/traffic-sources'))
      return json({ list: [{ external_id: 'ts-1', name: 'Source' }], total: 1 });
    if (/^\/api\/(tracker\/)?flows/.test(url))
      return json({ list: [{ external_id: 'f-1', name: 'Main flow' }], total: 1 });
    return json({ list: [], total: 0 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderCreate(tracker: boolean) {
  tokenStore.set('test-token');
  const auth = { user: ADMIN as unknown as CurrentUser } as AuthContextValue;
  const { Create } = tracker ? trackerCampaignScreens : campaignScreens;
  const path = tracker ? '/tracker/campaigns/create' : '/admin/campaigns/create';
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={path} element={<Create />} />
            <Route path="*" element={null} />
          </Routes>
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

async function choose(label: string, option: string) {
  fireEvent.click(await screen.findByRole('combobox', { name: new RegExp(`^${label}`) }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

describe('campaign forms: the bot limit', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    await act(() => i18n.changeLanguage('en'));
  });

  it('starts a tracker campaign at 60 clicks a minute, says what it means, and sends what was typed', async () => {
    const fetchMock = answer();
    renderCreate(true);
    const field = await screen.findByRole('textbox', { name: 'Bot limit (clicks per minute)' });
    expect(field).toHaveValue('60');
    expect(screen.getByText('More clicks than this from one address in a minute are bots. 0: no limit.')).toBeVisible();

    fireEvent.change(screen.getByRole('textbox', { name: /^Name/ }), { target: { value: 'Summer push' } });
    await choose('Traffic source', 'Source');
    await choose('Flow', 'Main flow');
    fireEvent.change(field, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
      expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({ name: 'Summer push', bot_clicks_per_minute: 0 });
    });
  });

  it('names leads for an API campaign, in Arabic too', async () => {
    answer();
    renderCreate(false);
    expect(await screen.findByRole('textbox', { name: 'Bot limit (leads per minute)' })).toHaveValue('60');
    expect(screen.getByText('More leads than this from one address in a minute are bots. 0: no limit.')).toBeVisible();
    await act(() => i18n.changeLanguage('ar'));
    expect(screen.getByRole('textbox', { name: 'حد الروبوتات (عملاء محتملون في الدقيقة)' })).toHaveValue('60');
  });

  it('refuses a negative limit before sending it', async () => {
    const fetchMock = answer();
    renderCreate(true);
    fireEvent.change(await screen.findByRole('textbox', { name: /^Name/ }), { target: { value: 'Summer push' } });
    await choose('Traffic source', 'Source');
    await choose('Flow', 'Main flow');
    fireEvent.change(screen.getByRole('textbox', { name: 'Bot limit (clicks per minute)' }), {
      target: { value: '-5' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/0 or more|at least 0/i)).toBeVisible();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });
});
