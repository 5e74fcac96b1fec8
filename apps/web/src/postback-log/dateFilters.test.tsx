import type { CurrentUser } from '@switchyard/domain';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../api/client';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { AuthContext, type AuthContextValue } from '../shared/auth/AuthContext';
import { PostbackLogScreen } from './PostbackLogScreen';

const ANALYST = {
  id: 1,
  name: 'Ana',
  email: 'ana@example.test',
  permissions: ['/tracker/reports/get'],
  workspaces: [{ id: 1, name: 'Main' }],
};

function renderAt(path: string) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL) => new Response(JSON.stringify({ list: [], total: 0 })));
  vi.stubGlobal('fetch', fetchMock);
  tokenStore.set('test-token');
  const auth = { user: ANALYST as unknown as CurrentUser } as AuthContextValue;
  render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={[path]}>
          <PostbackLogScreen />
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
  return fetchMock;
}

describe.each(['en', 'ar'])("the postback log's date filters read Y-m-d (%s)", (language) => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    await act(() => i18n.changeLanguage('en'));
  });

  it('shows the days of the address as Y-m-d, not in the browser’s own date format, and takes typed days', async () => {
    await act(() => i18n.changeLanguage(language));
    const fetchMock = renderAt('/tracker/reports/postbacks?from=2025-04-01&to=2025-04-30');
    const from = (await screen.findByRole('textbox', { name: i18n.t('postbacks:filters.from') })) as HTMLInputElement;
    const to = screen.getByRole('textbox', { name: i18n.t('postbacks:filters.to') }) as HTMLInputElement;
    expect(from.value).toBe('2025-04-01');
    expect(to.value).toBe('2025-04-30');
    // Not the browser's date field, whose text follows the browser's locale rather than the dashboard's.
    expect(from.type).toBe('text');

    fireEvent.change(from, { target: { value: '2025-04-10' } });
    fireEvent.blur(from);
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('from=2025-04-10'))).toBe(true),
    );
  });
});
