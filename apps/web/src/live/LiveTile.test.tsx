import type { CurrentUser } from '@switchyard/domain';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../api/client';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { AuthContext, type AuthContextValue } from '../shared/auth/AuthContext';
import { fakeLiveServer } from './fakeLiveServer';
import { LiveTile } from './LiveTile';

const ANALYST = { id: 1, name: 'Ana', permissions: ['/tracker/reports/get'], workspaces: [{ id: 1, name: 'Main' }] };

function renderTile() {
  const auth = { user: ANALYST as unknown as CurrentUser } as AuthContextValue;
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <MemoryRouter>
          <LiveTile />
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

describe('LiveTile', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('en');
    tokenStore.set('secret-token');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
  });

  it('shows the newest 8 events of the stream, compactly, and leads to the live view', async () => {
    const server = fakeLiveServer();
    renderTile();
    expect(screen.getByText('No events yet. They show here as they happen.')).toBeVisible();
    await waitFor(() => expect(server.streams).toHaveLength(1));
    act(() => {
      for (let index = 1; index <= 10; index += 1) {
        server.streams[0]!.send('click', { id: `c${index}`, time: new Date().toISOString(), campaign: `cmp-${index}` });
      }
    });
    const table = await screen.findByRole('table', { name: 'Live events' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(9));
    const campaigns = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[2]?.textContent);
    expect(campaigns).toEqual(['cmp-10', 'cmp-9', 'cmp-8', 'cmp-7', 'cmp-6', 'cmp-5', 'cmp-4', 'cmp-3']);
    // Compact: the offer and path group are the live view's.
    expect(within(table).queryByRole('columnheader', { name: 'Offer' })).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('Live');
    expect(screen.getByRole('link', { name: 'Open live view' })).toHaveAttribute('href', '/tracker/live');
  });

  it('says why the stream was refused', async () => {
    const server = fakeLiveServer();
    server.refuseWith = { status: 403, message: 'Forbidden' };
    renderTile();
    expect(await screen.findByText('Your account may not watch the live events of this workspace.')).toBeVisible();
  });
});
