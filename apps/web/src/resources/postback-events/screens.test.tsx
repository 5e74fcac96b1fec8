import { notifications } from '@mantine/notifications';
import type { CurrentUser } from '@switchyard/domain';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import { ControlProviders } from '../../components/form/controls/renderControl';
import i18n from '../../i18n';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
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

describe('what unknown statuses become', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
    await act(() => i18n.changeLanguage('en'));
  });

  it('says unknown statuses are refused by default, and saves "Count as pending" when chosen', async () => {
    const fetchMock = answer(() => ({ status: 200, body: { ...EVENT, unknown_statuses: 'pending' } }));
    renderAt('/admin/postback-events/edit/pe-1');
    const group = await screen.findByRole('radiogroup', { name: 'Unknown statuses' });
    expect(screen.getByText(/It is never approved/)).toBeVisible();
    expect(within(group).getByRole('radio', { name: /^Refuse/ })).toBeChecked();
    expect(within(group).getByText(/Answered 400 and logged in the postback log/)).toBeVisible();
    fireEvent.click(within(group).getByRole('radio', { name: /^Count as pending/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body)).unknown_statuses).toBe('pending');
  });

  it('shows the setting in the list, and in Arabic', async () => {
    answer();
    renderAt('/admin/postback-events');
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Unknown statuses' })).toBeVisible();
    expect(within(within(table).getAllByRole('row')[1]!).getByText('Refuse')).toBeVisible();
    cleanup();
    await act(() => i18n.changeLanguage('ar'));
    answer();
    renderAt('/admin/postback-events/edit/pe-1');
    expect(await screen.findByRole('radiogroup', { name: 'الحالات غير المعروفة' })).toBeVisible();
    expect(screen.getByRole('radio', { name: /^احتسابها معلّقة/ })).toBeVisible();
  });
});

/** What a person reads, in English and in Arabic (RTL). */
const LANGUAGES = [
  {
    language: 'en',
    field: 'Status values',
    invalid: 'Invalid tag',
    problems: ['too short', 'too long', 'only letters, numbers, spaces, "-", and "()" allowed'],
    bulk: 'Possible bulk insert detected',
    multiple: 'Add as multiple values',
  },
  {
    language: 'ar',
    field: 'قيم الحالة',
    invalid: 'وسم غير صالح',
    problems: ['قصير جدًا', 'طويل جدًا', 'يُسمح فقط بالحروف والأرقام والمسافات و"-" و"()"'],
    bulk: 'تم اكتشاف إدراج جماعي محتمل',
    multiple: 'إضافة كقيم متعددة',
  },
] as const;

describe.each(LANGUAGES)('status values as new tags, §5.2 ($language)', (text) => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
    await act(() => i18n.changeLanguage('en'));
  });

  async function statusValues() {
    await act(() => i18n.changeLanguage(text.language));
    answer();
    renderAt('/admin/postback-events/edit/pe-1');
    const input = await screen.findByRole('combobox', { name: text.field });
    act(() => input.focus());
    return input;
  }

  it.each([
    ['x', 0],
    ['a'.repeat(33), 1],
    ['bad!tag', 2],
  ])('refuses %j with the danger notice "Invalid tag"', async (typed, problem) => {
    const input = await statusValues();
    fireEvent.change(input, { target: { value: typed } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(await screen.findByText(text.invalid)).toBeVisible();
    expect(screen.getByText(text.problems[problem]!)).toBeVisible();
    expect(screen.queryByText(typed)).toBeNull();
  });

  it('asks "Possible bulk insert detected" for a pasted a,b,c, then checks each value', async () => {
    const input = await statusValues();
    fireEvent.paste(input, { clipboardData: { getData: () => 'a,b,c' } });
    const dialog = await screen.findByRole('dialog', { name: text.bulk });
    expect(within(dialog).getByText('a')).toBeVisible();
    fireEvent.click(within(dialog).getByRole('button', { name: text.multiple }));
    // Each of the three is one character: refused as too short, none added.
    expect(await screen.findAllByText(text.problems[0])).toHaveLength(3);

    fireEvent.paste(input, { clipboardData: { getData: () => 'sale,approved' } });
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: text.bulk })).getByRole('button', { name: text.multiple }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: text.bulk })).toBeNull());
    const field = input.closest('.mantine-InputWrapper-root') as HTMLElement;
    expect(within(field).getByText('sale')).toBeVisible();
    expect(within(field).getByText('approved')).toBeVisible();
  });

  it('keeps Enter in the empty input from submitting the whole form', async () => {
    const input = await statusValues();
    // jsdom submits no form on Enter; a browser does unless the keydown's default is prevented.
    expect(fireEvent.keyDown(input, { key: 'Enter' })).toBe(false);
  });
});
