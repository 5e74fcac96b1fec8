import type { CurrentUser } from '@switchyard/domain';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../api/client';
import { DashboardPage } from '../app/pages/DashboardPage';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { AuthContext, type AuthContextValue } from '../shared/auth/AuthContext';
import { fakeLiveServer } from './fakeLiveServer';

// Today's figures and the first-campaign checklist have their own tests; here they stay out of the tile's way.
vi.mock('../reports/DashboardFigures', () => ({ DashboardFigures: () => null }));
vi.mock('../first-campaign/FirstCampaignChecklist', () => ({ FirstCampaignChecklist: () => null }));

function renderDashboard(permissions: string[]) {
  const user = { id: 1, name: 'Ana', permissions, workspaces: [{ id: 1, name: 'Main' }] };
  const auth = { user: user as unknown as CurrentUser } as AuthContextValue;
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <MemoryRouter>
          <DashboardPage />
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

describe('the live tile on the dashboard', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('en');
    tokenStore.set('secret-token');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
  });

  it('shows for whoever may get reports', async () => {
    fakeLiveServer();
    renderDashboard(['/tracker/reports/get']);
    expect(await screen.findByRole('region', { name: 'Live events' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Open live view' })).toHaveAttribute('href', '/tracker/live');
  });

  it('is not there, nor is its stream opened, for anyone else', async () => {
    const server = fakeLiveServer();
    renderDashboard(['/tracker/offer/get']);
    expect(await screen.findByRole('link', { name: 'Open Offers' })).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Live events' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Open live view' })).toBeNull();
    expect(server.streams).toHaveLength(0);
  });
});
