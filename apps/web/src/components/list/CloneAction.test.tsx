import { ModalsProvider } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { CurrentUser } from '@switchyard/domain';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { MemoryRouter, Route, Routes, useParams } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import i18n from '../../i18n';
import { trackerCampaignScreens } from '../../resources/campaigns/screens';
import { offerScreens } from '../../resources/offers/screens';
import { trafficSourceScreens } from '../../resources/traffic-sources/screens';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { ControlProviders } from '../form/controls/renderControl';

// The lists of clonable resources have a Clone action; a campaign can take its flow along.

const ADMIN = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/'], workspaces: [] };
const RECORD = {
  external_id: 'r-7',
  name: 'Summer sale',
  status: 'active',
  created_at: '2025-06-01T00:00:00.000Z',
  updated_at: '2025-06-01T00:00:00.000Z',
};
const COPY = { ...RECORD, external_id: 'r-8', name: 'Summer sale (copy)' };

function EditScreen() {
  const { id } = useParams();
  return <p>Edit screen of {id}</p>;
}

function renderList(apiPath: string, route: string, List: ComponentType) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url === `/api/${apiPath}/r-7/clone` && init?.method === 'POST') {
      return new Response(JSON.stringify(COPY), { status: 201 });
    }
    if (url.startsWith(`/api/${apiPath}?`)) return new Response(JSON.stringify({ list: [RECORD], total: 1 }));
    return new Response(JSON.stringify({ list: [], total: 0 }));
  });
  vi.stubGlobal('fetch', fetchMock);
  tokenStore.set('test-token');
  const auth = { user: ADMIN as unknown as CurrentUser } as AuthContextValue;
  render(
    <ControlProviders>
      <ModalsProvider>
        <AuthContext.Provider value={auth}>
          <MemoryRouter initialEntries={[route]}>
            <Routes>
              <Route path={route} element={<List />} />
              <Route path={`${route}/edit/:id`} element={<EditScreen />} />
            </Routes>
          </MemoryRouter>
        </AuthContext.Provider>
      </ModalsProvider>
    </ControlProviders>,
  );
  return fetchMock;
}

const cloneCall = (fetchMock: ReturnType<typeof renderList>) =>
  fetchMock.mock.calls.find(([, init]) => init?.method === 'POST') as [string, RequestInit] | undefined;

describe('Clone action in lists', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
    await act(() => i18n.changeLanguage('en'));
  });

  it.each([
    ['en', 'Clone', 'Clone “Summer sale”?', 'Copy made: Summer sale (copy)'],
    ['ar', 'استنساخ', 'استنساخ «Summer sale»؟', 'أُنشئت النسخة: Summer sale (copy)'],
  ])('clones an offer and opens the copy with a notice (%s)', async (language, clone, title, done) => {
    await act(() => i18n.changeLanguage(language));
    const fetchMock = renderList('offers', '/admin/offers', offerScreens.List);
    const row = (await screen.findByText('Summer sale')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: clone }));
    const dialog = await screen.findByRole('dialog', { name: title });
    fireEvent.click(within(dialog).getByRole('button', { name: clone }));
    expect(await screen.findByText('Edit screen of r-8', {}, { timeout: 8000 })).toBeVisible();
    expect(await screen.findByText(done)).toBeVisible();
    expect(cloneCall(fetchMock)?.[0]).toBe('/api/offers/r-7/clone');
  });

  it('clones a tracker campaign with its flow when asked', async () => {
    const fetchMock = renderList('tracker/campaigns', '/tracker/campaigns', trackerCampaignScreens.List);
    const row = (await screen.findByText('Summer sale')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Clone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clone “Summer sale”?' });
    const withFlow = within(dialog).getByRole('checkbox', { name: 'Copy its flow too' });
    expect(withFlow).not.toBeChecked();
    fireEvent.click(withFlow);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clone' }));
    expect(await screen.findByText('Edit screen of r-8')).toBeVisible();
    const [url, init] = cloneCall(fetchMock) ?? ['', {}];
    expect(url).toBe('/api/tracker/campaigns/r-7/clone');
    expect(JSON.parse(String(init.body))).toEqual({ with_flow: true });
  });

  it('offers no Clone where the resource cannot be cloned', async () => {
    renderList('traffic-sources', '/admin/traffic-sources', trafficSourceScreens.List);
    const row = (await screen.findByText('Summer sale')).closest('tr') as HTMLElement;
    await waitFor(() => expect(within(row).getByRole('button', { name: 'Archive' })).toBeVisible());
    expect(within(row).queryByRole('button', { name: 'Clone' })).toBeNull();
  });
});
