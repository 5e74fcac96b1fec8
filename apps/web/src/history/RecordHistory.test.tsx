import { ModalsProvider, modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { CurrentUser, HistoryEntryDetail } from '@switchyard/domain';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../api/client';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { trackerFlowScreens } from '../resources/flows/screens';
import { AuthContext, type AuthContextValue } from '../shared/auth/AuthContext';

const ADMIN = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/'], workspaces: [] };
const GB = '{"type":"InCondition","data":{"Var":"countryCode","Operation":"IN","Values":["GB"]}}';
const flow = (name: string, weights: [number, number], offer = 'to-2', condition = GB) => ({
  name,
  status: 'active',
  path_groups: [
    {
      id: 'g1',
      name: 'Britain',
      enabled: true,
      priority: 0,
      condition,
      paths: [
        { id: 'p1', name: 'A', enabled: true, weight: weights[0], offers: [], landers: [] },
        {
          id: 'p2',
          name: 'B',
          enabled: true,
          weight: weights[1],
          offers: [{ id: `o-${offer}`, offer_external_id: offer, weight: 100, enabled: true }],
          landers: [],
        },
      ],
    },
  ],
});
const RECORD = { external_id: 'tf-1', ...flow('Main', [0, 100]) };
const entry = (id: number, action: 'create' | 'update', before: object | null, after: object): HistoryEntryDetail => ({
  id,
  created_at: '2026-11-20T09:30:00.000Z',
  action,
  resource: 'tracker/flows',
  record_id: 'tf-1',
  record_name: 'Main',
  user: { id: 1, name: 'Ada' },
  ip: '203.0.113.9',
  restored_from: null,
  before: before as Record<string, unknown> | null,
  after: after as Record<string, unknown>,
});
const UPDATE = entry(
  7,
  'update',
  flow('Main', [100, 0], 'to-2', '{"type":"AllCondition"}'),
  flow('Main', [0, 100], 'to-3'),
);
// Offer rows are named by their offers' names.
const OFFERS = [
  { external_id: 'to-2', name: 'Sports' },
  { external_id: 'to-3', name: 'Casino' },
];
const CREATE = entry(6, 'create', null, { ...flow('Main', [100, 0]), path_groups: [] });

function renderEdit(restoreAnswer: () => Response = () => new Response(JSON.stringify(RECORD))) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url.startsWith('/api/history/7/restore') && init?.method === 'POST') return restoreAnswer();
    if (url.startsWith('/api/history/7')) return new Response(JSON.stringify(UPDATE));
    if (url.startsWith('/api/history/6')) return new Response(JSON.stringify(CREATE));
    if (url.startsWith('/api/history?')) {
      const { before: _b, after: _a, ...update } = UPDATE;
      const { before: _c, after: _d, ...create } = CREATE;
      return new Response(JSON.stringify({ list: [update, create], total: 2 }));
    }
    if (url.startsWith('/api/tracker/flows/tf-1')) return new Response(JSON.stringify(RECORD));
    if (url.startsWith('/api/tracker/offers?')) return new Response(JSON.stringify({ list: OFFERS, total: 2 }));
    return new Response(JSON.stringify({ list: [], total: 0 }));
  });
  vi.stubGlobal('fetch', fetchMock);
  tokenStore.set('test-token');
  const auth = { user: ADMIN as unknown as CurrentUser } as AuthContextValue;
  render(
    <ControlProviders>
      <ModalsProvider>
        <AuthContext.Provider value={auth}>
          <MemoryRouter initialEntries={['/tracker/flows/edit/tf-1']}>
            <Routes>
              <Route path="/tracker/flows/edit/:id" element={<trackerFlowScreens.Edit />} />
            </Routes>
          </MemoryRouter>
        </AuthContext.Provider>
      </ModalsProvider>
    </ControlProviders>,
  );
  return fetchMock;
}

describe('History tab of an edit screen', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    modals.closeAll();
    notifications.clean();
    await act(() => i18n.changeLanguage('en'));
  });

  it.each([
    [
      'en',
      'History',
      'Changed',
      'Path group “Britain”: Condition Everyone → Country is GB',
      'Path group “Britain” › Path “A”: Weight 100 → 0',
      'Path group “Britain” › Path “B”: Weight 0 → 100',
      'from 203.0.113.9',
      'Restore',
      'Removed: Path group “Britain” › Path “B” › Offer “Sports”',
      'Added: Path group “Britain” › Path “B” › Offer “Casino”',
    ],
    [
      'ar',
      'السجل',
      'عُدّل',
      'مجموعة المسارات «Britain»: الشرط الجميع ← الدولة هو GB',
      'مجموعة المسارات «Britain» › المسار «A»: الوزن 100 ← 0',
      'مجموعة المسارات «Britain» › المسار «B»: الوزن 0 ← 100',
      'من 203.0.113.9',
      'استعادة',
      'أُزيل: مجموعة المسارات «Britain» › المسار «B» › العرض «Sports»',
      'أُضيف: مجموعة المسارات «Britain» › المسار «B» › العرض «Casino»',
    ],
  ])(
    'lists who changed what, path weights by path (%s)',
    async (language, tab, action, condition, first, second, from, restore, removed, added) => {
      await act(() => i18n.changeLanguage(language));
      renderEdit();
      fireEvent.click(await screen.findByRole('tab', { name: tab }));
      const change = await screen.findByRole('article', { name: /#7/ });
      expect(within(change).getByText(action)).toBeVisible();
      expect(within(change).getByText('Ada')).toBeVisible();
      expect(within(change).getByText(from)).toBeVisible();
      // Offer rows read by their offers' names once those are looked up.
      await waitFor(() =>
        expect(
          within(change)
            .getAllByRole('listitem')
            .map((item) => item.textContent),
        ).toEqual([condition, first, second, removed, added]),
      );
      expect(within(change).getByRole('button', { name: restore })).toBeVisible();
      // A create has nothing before it to put back.
      const create = await screen.findByRole('article', { name: /#6/ });
      expect(await within(create).findByText('Main')).toBeVisible();
      expect(within(create).queryByRole('button', { name: restore })).toBeNull();
    },
  );

  it('restores after a confirmation and shows the form with the restored values', async () => {
    const restored = { ...RECORD, name: 'Main restored' };
    const fetchMock = renderEdit(() => new Response(JSON.stringify(restored)));
    fireEvent.click(await screen.findByRole('tab', { name: 'History' }));
    const change = await screen.findByRole('article', { name: 'Change #7' });
    fireEvent.click(await within(change).findByRole('button', { name: 'Restore' }));
    const dialog = await screen.findByRole('dialog', { name: 'Put back the version before change #7?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith('/api/history/7/restore', expect.objectContaining({ method: 'POST' })),
    );
    expect(await screen.findByText('The earlier version is back.')).toBeVisible();
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true'));
    expect(await screen.findByRole('textbox', { name: /Name/ })).toHaveValue('Main restored');
  });

  it('shows the message of a refused restore', async () => {
    renderEdit(
      () =>
        new Response(JSON.stringify({ message: 'The earlier version names records that are gone: offer to-9' }), {
          status: 409,
        }),
    );
    fireEvent.click(await screen.findByRole('tab', { name: 'History' }));
    const change = await screen.findByRole('article', { name: 'Change #7' });
    fireEvent.click(await within(change).findByRole('button', { name: 'Restore' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(await within(change).findByRole('alert')).toHaveTextContent(
      'The earlier version names records that are gone: offer to-9',
    );
  });
});
