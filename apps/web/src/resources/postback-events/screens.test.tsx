import { notifications } from '@mantine/notifications';
import type { CurrentUser } from '@switchyard/domain';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import { AuthContext, type AuthContextValue } from '../../app/auth/AuthContext';
import { ControlProviders } from '../../components/form/controls/renderControl';
import { postbackEventScreens } from './screens';

const ADMIN = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/general'], workspaces: [] };

const EVENT = {
  external_id: 'pe-1',
  name: 'Sale',
  event_id: 3,
  affiliate_network_external_id: null,
  status_values: [],
  is_conversion: true,
  status_map: { pending: ['lead', 'hold'], approved: ['sale', '1'], rejected: ['chargeback'] },
  status: 'active',
  workspace_id: 1,
  created_at: '2025-06-01T00:00:00.000Z',
  updated_at: '2025-06-01T00:00:00.000Z',
};

function answer(save?: () => { status: number; body: unknown }) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (init?.method === 'PUT' && save) {
      const { status, body } = save();
      return new Response(JSON.stringify(body), { status });
    }
    if (url.startsWith('/api/postback-events/pe-1')) return new Response(JSON.stringify(EVENT));
    if (url.startsWith('/api/events')) {
      return new Response(JSON.stringify({ list: [{ id: 3, name: 'Purchase' }], total: 1 }));
    }
    if (url.startsWith('/api/postback-events')) return new Response(JSON.stringify({ list: [EVENT], total: 1 }));
    return new Response(JSON.stringify({ list: [], total: 0 }));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderAt(path: string) {
  tokenStore.set('test-token');
  const auth = { user: ADMIN as unknown as CurrentUser } as AuthContextValue;
  const { List, Edit } = postbackEventScreens;
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/admin/postback-events" element={<List />} />
            <Route path="/admin/postback-events/edit/:id" element={<Edit />} />
          </Routes>
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

describe('postback event screens', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
  });

  it('lists each event with the status values of each state', async () => {
    answer();
    renderAt('/admin/postback-events');
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Conversion states' })).toBeVisible();
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('Pending')).toBeVisible();
    expect(within(row).getByText('lead, hold')).toBeVisible();
    expect(within(row).getByText('sale, 1')).toBeVisible();
    expect(within(row).getByText('chargeback')).toBeVisible();
  });

  it("saves the mapping and shows the server's refusal under the state it names", async () => {
    const fetchMock = answer(() => ({
      status: 400,
      body: {
        message: 'Validation failed',
        errors: { 'status_map.approved': ['"1" is already listed under pending.'] },
      },
    }));
    renderAt('/admin/postback-events/edit/pe-1');
    const approved = await screen.findByRole('combobox', { name: 'Approved' });
    expect(screen.getByText('chargeback')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body)).status_map).toEqual(EVENT.status_map);
    expect(await screen.findByText('"1" is already listed under pending.')).toBeVisible();
    expect(approved).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('combobox', { name: 'Pending' })).not.toHaveAttribute('aria-invalid', 'true');
  });
});
