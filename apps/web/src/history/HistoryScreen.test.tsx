import { ModalsProvider } from '@mantine/modals';
import type { CurrentUser, HistoryEntry } from '@switchyard/domain';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../api/client';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { AuthContext, type AuthContextValue } from '../shared/auth/AuthContext';
import { HistoryScreen } from './HistoryScreen';

const ADMIN = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/'], workspaces: [] };
const ENTRY: HistoryEntry = {
  id: 9,
  created_at: '2026-11-20T09:30:00.000Z',
  action: 'update',
  resource: 'tracker/flows',
  record_id: 'tf-1',
  record_name: 'Main',
  user: { id: 2, name: 'Bea' },
  ip: '203.0.113.9',
  restored_from: null,
};
const DETAIL = {
  ...ENTRY,
  before: { name: 'Main', status: 'active' },
  after: { name: 'Main', status: 'archived' },
};

function renderScreen() {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url.startsWith('/api/history/9')) return new Response(JSON.stringify(DETAIL));
    if (url.startsWith('/api/history?')) return new Response(JSON.stringify({ list: [ENTRY], total: 1 }));
    if (url.startsWith('/api/users?'))
      return new Response(JSON.stringify({ list: [{ id: 2, name: 'Bea' }], total: 1 }));
    return new Response(JSON.stringify({ list: [], total: 0 }));
  });
  vi.stubGlobal('fetch', fetchMock);
  tokenStore.set('test-token');
  const auth = { user: ADMIN as unknown as CurrentUser } as AuthContextValue;
  render(
    <ControlProviders>
      <ModalsProvider>
        <AuthContext.Provider value={auth}>
          <MemoryRouter initialEntries={['/admin/history']}>
            <Routes>
              <Route path="/admin/history" element={<HistoryScreen />} />
              <Route path="/tracker/flows/edit/:id" element={<p>Flow edit screen</p>} />
            </Routes>
          </MemoryRouter>
        </AuthContext.Provider>
      </ModalsProvider>
    </ControlProviders>,
  );
  return fetchMock;
}

const historyCalls = (fetchMock: ReturnType<typeof renderScreen>) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/history?'));

describe('workspace history screen', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    await act(() => i18n.changeLanguage('en'));
  });

  it.each([
    ['en', 'History', 'Changed', 'Tracker flows: Main (#tf-1)', 'Status Active → Archived', 'Record kind'],
    ['ar', 'السجل', 'عُدّل', 'تدفقات المتتبّع: Main (#tf-1)', 'الحالة نشط ← مؤرشف', 'نوع السجل'],
  ])('lists the workspace’s changes with a link to each record (%s)', async (language, ...texts) => {
    const [title, action, record, change, kindFilter] = texts as [string, string, string, string, string];
    await act(() => i18n.changeLanguage(language));
    const fetchMock = renderScreen();
    expect(await screen.findByRole('heading', { name: title })).toBeVisible();
    const entry = await screen.findByRole('article');
    expect(within(entry).getByText('Bea')).toBeVisible();
    await waitFor(() => expect(within(entry).getByRole('listitem')).toHaveTextContent(change));
    expect(within(entry).getByRole('link', { name: record })).toHaveAttribute('href', '/tracker/flows/edit/tf-1');
    expect(within(entry).getByText(action)).toBeVisible();
    expect(screen.getByRole('combobox', { name: kindFilter })).toBeVisible();
    expect(historyCalls(fetchMock)[0]).toBe('/api/history?page=1&limit=20');
  });

  it('asks the API for one kind of record and one user, and opens the record', async () => {
    const fetchMock = renderScreen();
    await screen.findByRole('article');
    fireEvent.click(screen.getByRole('combobox', { name: 'Record kind' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Tracker flows' }));
    await waitFor(() => expect(historyCalls(fetchMock).at(-1)).toContain('resource=tracker%2Fflows'));
    fireEvent.click(screen.getByRole('combobox', { name: 'User' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Bea' }));
    await waitFor(() => expect(historyCalls(fetchMock).at(-1)).toContain('user=2'));
    fireEvent.click(within(screen.getByRole('article')).getByRole('link'));
    expect(await screen.findByText('Flow edit screen')).toBeVisible();
  });
});
