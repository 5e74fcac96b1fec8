import { ModalsProvider } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { CurrentUser } from '@switchyard/domain';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import i18n from '../../i18n';
import { offerScreens } from '../../resources/offers/screens';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { ControlProviders } from '../form/controls/renderControl';

// Titles and the §8 confirmations name the record, `{kind} "{name}" (#{id})`.

const ADMIN = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/'], workspaces: [] };
const OFFER = {
  external_id: 'of-7',
  name: 'Summer sale',
  url: 'https://shop.example.test/?c={clickid}',
  status: 'active',
  created_at: '2025-06-01T00:00:00.000Z',
  updated_at: '2025-06-01T00:00:00.000Z',
};

function answer(offer: Record<string, unknown> = OFFER) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      // Nothing uses it: the confirmation asks first.
      if (url.startsWith('/api/offers/of-7/usage')) return new Response(JSON.stringify({ used_by: [] }));
      if (url.startsWith('/api/offers/of-7')) return new Response(JSON.stringify(offer));
      if (url.startsWith('/api/offers?')) return new Response(JSON.stringify({ list: [offer], total: 1 }));
      return new Response(JSON.stringify({ list: [], total: 0 }));
    }),
  );
}

function renderAt(path: string) {
  tokenStore.set('test-token');
  const auth = { user: ADMIN as unknown as CurrentUser } as AuthContextValue;
  const { List, Edit } = offerScreens;
  return render(
    <ControlProviders>
      <ModalsProvider>
        <AuthContext.Provider value={auth}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path="/admin/offers" element={<List />} />
              <Route path="/admin/offers/edit/:id" element={<Edit />} />
            </Routes>
          </MemoryRouter>
        </AuthContext.Provider>
      </ModalsProvider>
    </ControlProviders>,
  );
}

const TEXTS = {
  en: {
    title: 'Edit offer "Summer sale" (#of-7)',
    archive: 'Archive',
    archiveTitle: 'Are you sure you want to archive offer "Summer sale" (#of-7)?',
    restore: 'Restore',
    restoreTitle: 'Are you sure you want to restore offer "Summer sale" (#of-7)?',
  },
  ar: {
    title: 'تعديل العرض «Summer sale» (رقم of-7)',
    archive: 'أرشفة',
    archiveTitle: 'هل أنت متأكد من أنك تريد أرشفة العرض «Summer sale» (رقم of-7)؟',
    restore: 'استعادة',
    restoreTitle: 'هل أنت متأكد من أنك تريد استعادة العرض «Summer sale» (رقم of-7)؟',
  },
};

describe.each(Object.entries(TEXTS))('names, not ids (%s)', (language, texts) => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
    await act(() => i18n.changeLanguage('en'));
  });

  it('titles the edit screen with the name and the id', async () => {
    await act(() => i18n.changeLanguage(language));
    answer();
    renderAt('/admin/offers/edit/of-7');
    expect(await screen.findByRole('heading', { level: 1, name: texts.title })).toBeVisible();
  });

  it('names the record in the archive confirmation', async () => {
    await act(() => i18n.changeLanguage(language));
    answer();
    renderAt('/admin/offers');
    const row = within(await screen.findByRole('table')).getAllByRole('row')[1]!;
    fireEvent.click(within(row).getByRole('button', { name: texts.archive }));
    expect(await screen.findByText(texts.archiveTitle)).toBeVisible();
  });

  it('names the record in the restore confirmation', async () => {
    await act(() => i18n.changeLanguage(language));
    answer({ ...OFFER, status: 'archived' });
    renderAt('/admin/offers?status=archived');
    const row = within(await screen.findByRole('table')).getAllByRole('row')[1]!;
    fireEvent.click(within(row).getByRole('button', { name: texts.restore }));
    expect(await screen.findByText(texts.restoreTitle)).toBeVisible();
  });
});
