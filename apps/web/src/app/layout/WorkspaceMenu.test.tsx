import { CURRENT_USER_STORAGE_KEY, type CurrentUser } from '@switchyard/domain';
import { useQuery } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useParams } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, tokenStore, WORKSPACE_STORAGE_KEY } from '../../api/client';
import { AppProviders } from '../AppProviders';
import { createQueryClient } from '../queryClient';
import { DashboardLayout } from './DashboardLayout';

// The top bar's workspace switcher, in the real layout, providers and API client.

const MAIN = { id: 1, name: 'Main', currency: 'USD' };
const SECOND = { id: 2, name: 'Second', currency: 'EUR' };
const OFFERS: Record<string, string> = { '1': 'Main offer', '2': 'Second offer' };

function userOf(workspaces: CurrentUser['workspaces']): CurrentUser {
  return { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/'], roles: [], workspaces };
}

/**
 * The server: offers of the workspace a request names (the first by default); /api/me for `user`.
 * Offers of the second workspace wait for `held` when given, to look at the screen while they load.
 */
function serve(user: CurrentUser, held?: Promise<void>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const named = (init?.headers as Record<string, string> | undefined)?.['X-Workspace'];
    const workspace = named ?? '1';
    if (!user.workspaces.some((entry) => String(entry.id) === workspace)) {
      return new Response(JSON.stringify({ message: 'You do not belong to this workspace.' }), { status: 403 });
    }
    if (url === '/api/me') return new Response(JSON.stringify({ ...user, workspace_id: Number(workspace) }));
    if (url.startsWith('/api/offers')) {
      if (workspace === '2') await held;
      return new Response(JSON.stringify({ list: [{ external_id: 7, name: OFFERS[workspace] }], total: 1 }));
    }
    return new Response(JSON.stringify({ list: [], total: 0 }));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The workspace header of the last request to `path`. */
function workspaceSentTo(fetchMock: ReturnType<typeof serve>, path: string): string | undefined {
  const calls = fetchMock.mock.calls.filter(([url]) => String(url).startsWith(path));
  const init = calls.at(-1)?.[1];
  return (init?.headers as Record<string, string> | undefined)?.['X-Workspace'];
}

function OfferList() {
  const { data } = useQuery({ queryKey: ['offers'], queryFn: () => api<{ list: { name: string }[] }>('offers') });
  return <p>{data ? `List: ${data.list.map((offer) => offer.name).join(', ')}` : 'Loading'}</p>;
}

function OfferEdit() {
  const { id } = useParams();
  const { data } = useQuery({ queryKey: ['offers', id], queryFn: () => api<{ list: { name: string }[] }>('offers') });
  return <p>{data ? `Editing: ${data.list[0]?.name}` : 'Loading'}</p>;
}

function renderDashboard(user: CurrentUser, path = '/admin/offers') {
  tokenStore.set('test-token');
  localStorage.setItem(CURRENT_USER_STORAGE_KEY, JSON.stringify(user));
  const queryClient = createQueryClient();
  const router = createMemoryRouter(
    [
      {
        element: <DashboardLayout />,
        children: [
          { path: '/admin', element: <p>Home</p> },
          { path: '/admin/offers', element: <OfferList /> },
          { path: '/admin/offers/edit/:id', element: <OfferEdit /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { queryClient, router };
}

async function switchTo(name: string) {
  fireEvent.click(await screen.findByRole('button', { name: /^Workspace: / }));
  fireEvent.click(await screen.findByRole('menuitem', { name }));
}

describe('the workspace switcher', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
  });

  it('is not there for a user of one workspace, whose requests name none', async () => {
    const fetchMock = serve(userOf([MAIN]));
    renderDashboard(userOf([MAIN]));
    expect(await screen.findByText('List: Main offer')).toBeVisible();
    expect(screen.queryByRole('button', { name: /Workspace/ })).not.toBeInTheDocument();
    expect(workspaceSentTo(fetchMock, '/api/offers')).toBeUndefined();
  });

  it('shows the current workspace of a user of two, and lists both', async () => {
    serve(userOf([MAIN, SECOND]));
    renderDashboard(userOf([MAIN, SECOND]));
    expect(await screen.findByText('List: Main offer')).toBeVisible();
    const button = await screen.findByRole('button', { name: 'Workspace: Main' });
    expect(button).toHaveTextContent('Main');
    fireEvent.click(button);
    // jsdom lays nothing out, so the menu's positioning soon hides its dropdown as if detached: the
    // items are read whatever their display (the browser test sees them shown).
    const items = await screen.findAllByRole('menuitem', { hidden: true });
    expect(items.map((item) => item.textContent)).toEqual(['Main', 'Second']);
    expect(items.map((item) => item.getAttribute('aria-current'))).toEqual(['true', null]);
  });

  it('switching sends the workspace on the next request and leaves nothing of the other in the cache', async () => {
    let answer = () => {};
    const fetchMock = serve(userOf([MAIN, SECOND]), new Promise<void>((resolve) => (answer = resolve)));
    const { queryClient } = renderDashboard(userOf([MAIN, SECOND]));
    expect(await screen.findByText('List: Main offer')).toBeVisible();

    await switchTo('Second');
    // While the second workspace's offers load, the first one's are neither shown nor kept.
    expect(await screen.findByText('Loading')).toBeVisible();
    expect(screen.queryByText(/Main offer/)).not.toBeInTheDocument();
    const cached = queryClient
      .getQueryCache()
      .findAll()
      .map((query) => JSON.stringify(query.state.data ?? null));
    expect(cached.some((data) => data.includes('Main offer'))).toBe(false);
    expect(workspaceSentTo(fetchMock, '/api/offers')).toBe('2');
    expect(localStorage.getItem(WORKSPACE_STORAGE_KEY)).toBe('2');

    answer();
    expect(await screen.findByText('List: Second offer')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Workspace: Second' })).toBeVisible();
  });

  it("leaves a record's edit screen for its list in the other workspace", async () => {
    serve(userOf([MAIN, SECOND]));
    const { router } = renderDashboard(userOf([MAIN, SECOND]), '/admin/offers/edit/7');
    expect(await screen.findByText('Editing: Main offer')).toBeVisible();

    await switchTo('Second');
    expect(await screen.findByText('List: Second offer')).toBeVisible();
    expect(router.state.location.pathname).toBe('/admin/offers');
    expect(screen.queryByText(/Editing/)).not.toBeInTheDocument();
  });

  it('keeps the choice across a reload of the dashboard', async () => {
    const fetchMock = serve(userOf([MAIN, SECOND]));
    localStorage.setItem(WORKSPACE_STORAGE_KEY, '2');
    renderDashboard(userOf([MAIN, SECOND]));
    expect(await screen.findByText('List: Second offer')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Workspace: Second' })).toBeVisible();
    expect(workspaceSentTo(fetchMock, '/api/offers')).toBe('2');
  });

  it('drops a stored workspace that is not among the user’s, back to the default one', async () => {
    const fetchMock = serve(userOf([MAIN, SECOND]));
    localStorage.setItem(WORKSPACE_STORAGE_KEY, '9');
    renderDashboard(userOf([MAIN, SECOND]));
    expect(await screen.findByText('List: Main offer')).toBeVisible();
    await waitFor(() => expect(localStorage.getItem(WORKSPACE_STORAGE_KEY)).toBeNull());
    expect(screen.getByRole('button', { name: 'Workspace: Main' })).toBeVisible();
    expect(workspaceSentTo(fetchMock, '/api/offers')).toBeUndefined();
  });

  it('falls back to the default workspace when the server refuses the stored one (the user was removed)', async () => {
    const THIRD = { id: 3, name: 'Third', currency: 'USD' };
    const fetchMock = serve(userOf([MAIN, THIRD]));
    localStorage.setItem(WORKSPACE_STORAGE_KEY, '2');
    renderDashboard(userOf([MAIN, SECOND]));
    expect(await screen.findByText('List: Main offer')).toBeVisible();
    expect(localStorage.getItem(WORKSPACE_STORAGE_KEY)).toBeNull();
    expect(workspaceSentTo(fetchMock, '/api/offers')).toBeUndefined();
    expect(await screen.findByRole('button', { name: 'Workspace: Main' })).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Workspace: Main' }));
    const items = await screen.findAllByRole('menuitem', { hidden: true });
    expect(items.map((item) => item.textContent)).toEqual(['Main', 'Third']);
  });
});
