import { notifications } from '@mantine/notifications';
import type { CurrentUser } from '@switchyard/domain';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import { ControlProviders } from '../../components/form/controls/renderControl';
import i18n from '../../i18n';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { UserEditScreen } from './UserEditScreen';

// §6's permissions are ticked per section and resource, not typed as raw strings.

const ADMIN = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/'], workspaces: [] };
const USER = {
  id: 5,
  name: 'Bob',
  email: 'bob@example.test',
  roles: [],
  permissions: ['/tracker', '/api/offer/get'],
  workspaces: [],
  active: true,
  created_at: '2025-06-01T00:00:00.000Z',
  updated_at: '2025-06-01T00:00:00.000Z',
};

function answer() {
  const saved: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (init?.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        saved.push(body);
        return new Response(JSON.stringify({ ...USER, ...body }));
      }
      if (url.startsWith('/api/users/5')) return new Response(JSON.stringify(USER));
      return new Response(JSON.stringify({ list: [], total: 0 }));
    }),
  );
  return saved;
}

function renderEdit() {
  tokenStore.set('test-token');
  const auth = { user: ADMIN as unknown as CurrentUser } as AuthContextValue;
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={['/admin/users/edit/5']}>
          <Routes>
            <Route path="/admin/users/edit/:id" element={<UserEditScreen />} />
          </Routes>
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

const TEXTS = {
  en: {
    apiOfferView: 'API · Offers: View',
    apiOfferCreate: 'API · Offers: Create',
    apiOffers: 'API · Offers: All',
    trackerLanderArchive: 'Tracker · Landers: Archive',
    reportsMoney: 'Tracker · Reports: See money',
    everything: 'Everything (administrator)',
    save: 'Save',
  },
  ar: {
    apiOfferView: 'العروض في واجهة API: عرض',
    apiOfferCreate: 'العروض في واجهة API: إنشاء',
    apiOffers: 'العروض في واجهة API: الكل',
    trackerLanderArchive: 'صفحات الهبوط في المتتبّع: أرشفة',
    reportsMoney: 'التقارير في المتتبّع: رؤية المبالغ',
    everything: 'كل شيء (مدير)',
    save: 'حفظ',
  },
};

describe.each(Object.entries(TEXTS))('user permissions as checkboxes (%s)', (language, texts) => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
    await act(() => i18n.changeLanguage('en'));
  });

  it('shows what the user holds, and what a section grants, as ticked boxes', async () => {
    await act(() => i18n.changeLanguage(language));
    answer();
    renderEdit();
    expect(await screen.findByRole('checkbox', { name: texts.apiOfferView })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: texts.apiOfferCreate })).not.toBeChecked();
    // Held through /tracker: ticked, and locked while the section is.
    expect(screen.getByRole('checkbox', { name: texts.trackerLanderArchive })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: texts.trackerLanderArchive })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: texts.reportsMoney })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: texts.everything })).not.toBeChecked();
    expect(screen.queryByRole('combobox', { name: /Permissions|الصلاحيات/ })).toBeNull();
  });

  it('saves the permission strings the API takes, the most general only', async () => {
    await act(() => i18n.changeLanguage(language));
    const saved = answer();
    renderEdit();
    fireEvent.click(await screen.findByRole('checkbox', { name: texts.apiOffers }));
    expect(screen.getByRole('checkbox', { name: texts.apiOfferView })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: texts.save }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.permissions).toEqual(['/api/offer', '/tracker']);
  });
});
