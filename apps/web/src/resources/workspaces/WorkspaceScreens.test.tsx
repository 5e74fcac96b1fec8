import { ModalsProvider } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { CurrentUser } from '@switchyard/domain';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import { ControlProviders } from '../../components/form/controls/renderControl';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { WorkspaceCreateScreen } from './WorkspaceCreateScreen';
import { WorkspaceEditScreen } from './WorkspaceEditScreen';

const OLD_KEY = 'Ab3dEf6hIj9kLm2nOp5qRs8t';
const NEW_KEY = 'Zy9xWv8uTs7rQp6oNm5lKj4i';
const ADMIN = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/general'], workspaces: [] };
const READER = { ...ADMIN, permissions: ['/general/workspace/get'] };

const WORKSPACE = {
  id: 1,
  name: 'Main',
  currency: 'EUR',
  postback_key: OLD_KEY,
  status: 'active',
  created_at: '2025-06-01T00:00:00.000Z',
  updated_at: '2025-06-01T00:00:00.000Z',
};

const RATES = {
  base: 'USD',
  snapshot_date: '2025-06-30',
  list: [
    { code: 'EUR', name: 'Euro', rate: 0.85, source: 'snapshot', updated_at: '2025-06-30T00:00:00.000Z' },
    { code: 'USD', name: 'US Dollar', rate: 1, source: 'snapshot', updated_at: '2025-06-30T00:00:00.000Z' },
  ],
};

function answer() {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url === '/api/workspaces/1/postback-key' && init?.method === 'POST') {
      return new Response(JSON.stringify({ ...WORKSPACE, postback_key: NEW_KEY }));
    }
    if (url.startsWith('/api/workspaces/1')) return new Response(JSON.stringify(WORKSPACE));
    if (url.startsWith('/api/currency-rates')) return new Response(JSON.stringify(RATES));
    return new Response(JSON.stringify([]));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderAt(path: string, user: object = ADMIN) {
  tokenStore.set('test-token');
  const auth = { user: user as unknown as CurrentUser } as AuthContextValue;
  return render(
    <ControlProviders>
      <ModalsProvider>
        <AuthContext.Provider value={auth}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path="/admin/workspaces/create" element={<WorkspaceCreateScreen />} />
              <Route path="/admin/workspaces/edit/:id" element={<WorkspaceEditScreen />} />
            </Routes>
          </MemoryRouter>
        </AuthContext.Provider>
      </ModalsProvider>
    </ControlProviders>,
  );
}

describe('workspace screens', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
  });

  it('shows the currency and the postback key, and rotates the key after a warning', async () => {
    const fetchMock = answer();
    renderAt('/admin/workspaces/edit/1');
    const key = (await screen.findByRole('textbox', { name: 'Postback key' })) as HTMLInputElement;
    expect(key.value).toBe(OLD_KEY);
    expect(key).toHaveAttribute('readonly');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Currency' })).toHaveValue('EUR — Euro'));

    fireEvent.click(screen.getByRole('button', { name: 'Rotate key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate the postback key?' });
    expect(within(dialog).getByText(/every postback URL with the old key stops working/)).toBeVisible();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/postback-key'))).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rotate key' }));

    await waitFor(() => expect(key.value).toBe(NEW_KEY));
    expect(await screen.findByText('New postback key made. Give the networks their new postback URLs.')).toBeVisible();
    const rotation = fetchMock.mock.calls.find(([url]) => String(url) === '/api/workspaces/1/postback-key');
    expect(rotation?.[1]?.method).toBe('POST');
  });

  it('leaves the key alone when the warning is cancelled', async () => {
    const fetchMock = answer();
    renderAt('/admin/workspaces/edit/1');
    await screen.findByRole('textbox', { name: 'Postback key' });
    fireEvent.click(screen.getByRole('button', { name: 'Rotate key' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/postback-key'))).toBe(false);
    expect(screen.getByRole('textbox', { name: 'Postback key' })).toHaveValue(OLD_KEY);
  });

  it('offers no rotation to whoever may only read workspaces', async () => {
    answer();
    renderAt('/admin/workspaces/edit/1', READER);
    expect(await screen.findByRole('textbox', { name: 'Postback key' })).toHaveValue(OLD_KEY);
    expect(screen.queryByRole('button', { name: 'Rotate key' })).toBeNull();
  });

  it('offers a new workspace the currencies that have a rate, and no key before it exists', async () => {
    answer();
    renderAt('/admin/workspaces/create');
    const currency = await screen.findByRole('combobox', { name: 'Currency' });
    await waitFor(() => expect(currency).toHaveValue('USD — US Dollar'));
    fireEvent.click(currency);
    expect(await screen.findByRole('option', { name: 'EUR — Euro' })).toBeVisible();
    expect(screen.queryByRole('option', { name: 'JPY — Japanese Yen' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Postback key' })).toBeNull();
  });
});
