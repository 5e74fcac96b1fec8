import type { CurrentUser } from '@switchyard/domain';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import { ControlProviders } from '../../components/form/controls/renderControl';
import i18n from '../../i18n';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { ApiTokensCard } from './ApiTokensCard';

// The profile's API tokens — listed with when and from where each was last used, revoked with a
// button, and made with some of the user's own permissions; the secret is shown once.

const SECRET = `syt_${'a'.repeat(43)}`;
const LISTED = {
  id: 7,
  name: 'Cost sync',
  permissions: ['/tracker/campaign/update'],
  workspace_id: 1,
  created_at: '2026-11-20T10:00:00.000Z',
  expires_at: '2026-12-20T10:00:00.000Z',
  last_used_at: '2026-11-23T08:30:00.000Z',
  last_used_ip: '203.0.113.9',
};
const USER = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/tracker'], roles: [], workspaces: [] };

function serve(listed: (typeof LISTED)[] = [LISTED]) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  let tokens = listed;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, url, body });
      if (method === 'DELETE') {
        tokens = [];
        return new Response(null, { status: 204 });
      }
      if (method === 'POST') {
        return new Response(JSON.stringify({ ...LISTED, id: 8, ...body, token: SECRET }), { status: 201 });
      }
      return new Response(JSON.stringify({ list: tokens, total: tokens.length }));
    }),
  );
  return calls;
}

function renderCard() {
  tokenStore.set('test-token');
  const auth = { user: USER as unknown as CurrentUser } as AuthContextValue;
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <ApiTokensCard />
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

describe('ApiTokensCard', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    await act(() => i18n.changeLanguage('en'));
  });

  it('lists the tokens with their last use, and revokes one', async () => {
    const calls = serve();
    renderCard();
    const table = await screen.findByRole('table', { name: 'API tokens' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('Cost sync')).toBeVisible();
    // Its scopes as the checklist labels them, not as permission strings.
    expect(within(row).getByText('Tracker · Campaigns: Update')).toBeVisible();
    expect(within(row).queryByText('/tracker/campaign/update')).toBeNull();
    expect(within(row).getByText(/from 203\.0\.113\.9$/)).toBeVisible();
    fireEvent.click(within(row).getByRole('button', { name: 'Revoke the token Cost sync' }));
    expect(await screen.findByText('No tokens yet.')).toBeVisible();
    expect(calls.some((call) => call.method === 'DELETE' && call.url === '/api/tokens/7')).toBe(true);
  });

  it('labels every kind of scope in the interface language', async () => {
    await act(() => i18n.changeLanguage('ar'));
    serve([{ ...LISTED, permissions: ['/', '/general', '/tracker/offer', '/api/campaign/archive', '/not/a/scope'] }]);
    renderCard();
    const table = await screen.findByRole('table');
    const row = within(table).getAllByRole('row')[1]!;
    const badges = within(row)
      .getAllByText(/./, { selector: '.mantine-Badge-label' })
      .map((badge) => badge.textContent);
    expect(badges).toEqual([
      'كل شيء (مدير)',
      'كل عام',
      'العروض في المتتبّع: الكل',
      'الحملات في واجهة API: أرشفة',
      '/not/a/scope',
    ]);
  });

  it.each([
    ['en', 'New token', 'Name', 'Create the token', 'Copy it now: it is shown this once and cannot be read again.'],
    ['ar', 'رمز جديد', 'الاسم', 'أنشئ الرمز', 'انسخه الآن: يُعرض هذه المرة فقط ولا يمكن قراءته مرة أخرى.'],
  ])('makes a token from the user own permissions and shows its secret once (%s)', async (language, ...texts) => {
    const [open, name, submit, shownOnce] = texts as [string, string, string, string];
    await act(() => i18n.changeLanguage(language));
    const calls = serve();
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: open }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox', { name: new RegExp(`^${name}`) }), {
      target: { value: 'Offer pauser' },
    });
    // The user holds /tracker only: the general section cannot be given, tracker's offers can.
    const boxes = within(dialog).getAllByRole('checkbox');
    const general = boxes.find((box) => box.getAttribute('title') === '/general');
    const offers = boxes.find((box) => box.getAttribute('title') === '/tracker/offer/update');
    expect(general).toBeDisabled();
    expect(offers).toBeEnabled();
    fireEvent.click(offers!);
    fireEvent.click(within(dialog).getByRole('button', { name: submit }));
    expect(await within(dialog).findByText(shownOnce)).toBeVisible();
    expect(within(dialog).getByDisplayValue(SECRET)).toBeVisible();
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.url).toBe('/api/tokens');
    expect(post?.body).toMatchObject({ name: 'Offer pauser', permissions: ['/tracker/offer/update'] });
    const days =
      (Date.parse((post?.body as { expires_at?: string } | undefined)?.expires_at ?? '') - Date.now()) / 86_400_000;
    await waitFor(() => expect(Math.round(days)).toBe(30));
  });
});
