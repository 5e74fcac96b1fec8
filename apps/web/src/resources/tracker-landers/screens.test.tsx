import { notifications } from '@mantine/notifications';
import type { CurrentUser } from '@switchyard/domain';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import { ControlProviders } from '../../components/form/controls/renderControl';
import i18n from '../../i18n';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { trackerLanderScreens } from './screens';

const ADMIN = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/'], workspaces: [] };
const LANDER = {
  external_id: 'tl-3',
  name: 'Quiz page',
  url: 'https://lander.example/quiz',
  enabled: true,
  status: 'active',
  created_at: '2025-06-01T00:00:00.000Z',
  updated_at: '2025-06-01T00:00:00.000Z',
};
// On the public origin the server gives the campaign URLs (SWITCHYARD_PUBLIC_URL), not the dashboard's.
const CAMPAIGN = { external_id: 'tc-1', name: 'Push', campaign_url: 'https://track.example/c/tc-1?clickid={clickid}' };
const OFFER_LINK = 'https://track.example/c/{campaign_id}/offer?clickid={clickid}';

function renderAt(path: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.startsWith('/api/tracker/landers/tl-3')) return new Response(JSON.stringify(LANDER));
      if (url.startsWith('/api/tracker/campaigns')) return new Response(JSON.stringify({ list: [CAMPAIGN], total: 1 }));
      return new Response(JSON.stringify({ list: [], total: 0 }));
    }),
  );
  tokenStore.set('test-token');
  const auth = { user: ADMIN as unknown as CurrentUser } as AuthContextValue;
  const { Create, Edit } = trackerLanderScreens;
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/tracker/landers/create" element={<Create />} />
            <Route path="/tracker/landers/edit/:id" element={<Edit />} />
          </Routes>
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

describe('lander screens: the link to the offer and the macros', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
    await act(() => i18n.changeLanguage('en'));
  });

  it.each([
    ['en', 'Link to the offer', 'Copy'],
    ['ar', 'رابط العرض', 'نسخ'],
  ])('shows the link a lander sends its visitors on with, to copy (%s)', async (language, label, copy) => {
    await act(() => i18n.changeLanguage(language));
    renderAt('/tracker/landers/edit/tl-3');
    const link = await screen.findByRole('textbox', { name: label });
    await waitFor(() => expect(link).toHaveValue(OFFER_LINK));
    expect(link).toHaveAttribute('readonly');
    const field = link.closest('.mantine-InputWrapper-root') as HTMLElement;
    expect(within(field).getByRole('button', { name: copy })).toBeVisible();
  });

  it.each([
    ['en', 'URL', 'Macros', 'Insert {clickid}', 'Value of var10', 'Any utm_ parameter of the click'],
    ['ar', 'الرابط', 'وحدات الماكرو', 'إدراج {clickid}', 'قيمة var10', 'أي معامل utm_ في النقرة'],
  ])('lists every macro under the URL and puts a chosen one at the cursor (%s)', async (language, ...texts) => {
    const [urlLabel, macros, insertClickId, var10, utm] = texts as [string, string, string, string, string];
    await act(() => i18n.changeLanguage(language));
    renderAt('/tracker/landers/create');
    const url = (await screen.findByRole('textbox', { name: new RegExp(`^${urlLabel}`) })) as HTMLInputElement;
    fireEvent.change(url, { target: { value: 'https://lander.example/quiz?cid=&x=1' } });
    url.setSelectionRange('https://lander.example/quiz?cid='.length, 'https://lander.example/quiz?cid='.length);

    fireEvent.click(screen.getByRole('button', { name: macros }));
    // Every name the server fills, from the domain's list.
    for (const name of ['clickid', 'campaign_id', 'lander_id', 'country', 'external_id', 'subaff', 'var1', 'var10']) {
      expect(await screen.findByText(`{${name}}`)).toBeVisible();
    }
    expect(screen.getByText('{utm_source}')).toBeVisible();
    expect(screen.getByText(var10)).toBeVisible();
    expect(screen.getByText(utm)).toBeVisible();

    fireEvent.click(screen.getByRole('button', { name: insertClickId }));
    expect(url).toHaveValue('https://lander.example/quiz?cid={clickid}&x=1');
  });
});
