import { notifications } from '@mantine/notifications';
import type { CurrentUser } from '@switchyard/domain';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import { ControlProviders } from '../../components/form/controls/renderControl';
import i18n from '../../i18n';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { trackerCampaignScreens } from './screens';

const ADMIN = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/'], workspaces: [] };
const SOURCE = { external_id: 'ts-1', name: 'PropellerAds', default_cost: 0.002, cost_model: 'CPM', parameters: [] };

function answer() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      const json = (body: unknown) => new Response(JSON.stringify(body));
      if (url.startsWith('/api/traffic-sources/ts-1')) return json(SOURCE);
      if (url.startsWith('/api/traffic-sources')) return json({ list: [SOURCE], total: 1 });
      return json({ list: [], total: 0 });
    }),
  );
}

function renderCreate() {
  tokenStore.set('test-token');
  const auth = { user: ADMIN as unknown as CurrentUser } as AuthContextValue;
  const { Create } = trackerCampaignScreens;
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={['/tracker/campaigns/create']}>
          <Routes>
            <Route path="/tracker/campaigns/create" element={<Create />} />
          </Routes>
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

describe('a new tracker campaign takes its cost from its traffic source', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    act(() => notifications.clean());
    await act(() => i18n.changeLanguage('en'));
  });

  it.each(['en', 'ar'])('prefills the cost and cost model when the source is chosen (%s)', async (language) => {
    await act(() => i18n.changeLanguage(language));
    answer();
    renderCreate();
    const cost = (await screen.findByRole('textbox', { name: i18n.t('resources:fields.cost') })) as HTMLInputElement;
    const cpm = screen.getByRole('radio', {
      name: new RegExp(i18n.t('resources:costModels.CPM.label').replace(/[()]/g, '\\$&')),
    });
    expect(cost.value).toBe('0');
    expect((cpm as HTMLInputElement).checked).toBe(false);

    fireEvent.click(
      screen.getByRole('combobox', { name: new RegExp(`^${i18n.t('resources:fields.traffic_source')}`) }),
    );
    fireEvent.click(await screen.findByRole('option', { name: 'PropellerAds' }));

    await waitFor(() => expect(cost.value).toBe('0.002'));
    expect((cpm as HTMLInputElement).checked).toBe(true);
  });
});
