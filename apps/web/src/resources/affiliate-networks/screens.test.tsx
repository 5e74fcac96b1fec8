import { notifications } from '@mantine/notifications';
import type { CurrentUser } from '@switchyard/domain';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import { ControlProviders } from '../../components/form/controls/renderControl';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { affiliateNetworkScreens } from './screens';

const KEY = 'Ab3dEf6hIj9kLm2nOp5qRs8t';
const ADMIN = {
  id: 1,
  name: 'Ada',
  email: 'ada@example.test',
  permissions: ['/general'],
  workspaces: [{ id: 1, name: 'Main' }],
};
/** May create networks, but read neither the workspace nor other networks. */
const CREATOR = { ...ADMIN, permissions: ['/general/affiliate-network/create'] };

const NETWORK = {
  external_id: 'an-1',
  name: 'OfferVault',
  offer_url_params: '',
  postback_params: { click_id: 'aff_sub', payout: 'amount', status: 'state', txid: 'order_id' },
  postback_ips: ['203.0.113.10'],
  postback_url: `https://track.example.com/${KEY}/postback`,
  notes: '',
  status: 'active',
  workspace_id: 1,
  created_at: '2025-06-01T00:00:00.000Z',
  updated_at: '2025-06-01T00:00:00.000Z',
};

function answer(
  save: (body: Record<string, unknown>) => { status: number; body: unknown } = (body) => ({
    status: 200,
    body: { ...NETWORK, ...body },
  }),
) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (init?.method === 'PUT' || init?.method === 'POST') {
      const { status, body } = save(JSON.parse(String(init.body)));
      return new Response(JSON.stringify(body), { status });
    }
    if (url.startsWith('/api/affiliate-networks/an-1')) return new Response(JSON.stringify(NETWORK));
    if (url.startsWith('/api/workspaces/1')) return new Response(JSON.stringify({ id: 1, postback_key: KEY }));
    return new Response(JSON.stringify({ list: [], total: 0 }));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderAt(path: string, user: object = ADMIN) {
  tokenStore.set('test-token');
  const auth = { user: user as unknown as CurrentUser } as AuthContextValue;
  const { Create, Edit } = affiliateNetworkScreens;
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/admin/affiliate-networks/create" element={<Create />} />
            <Route path="/admin/affiliate-networks/edit/:id" element={<Edit />} />
          </Routes>
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

const postbackUrl = async () => (await screen.findByRole('textbox', { name: 'Postback URL' })) as HTMLInputElement;

describe('affiliate network screens', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
  });

  it('gives the network its keyed postback URL with its own macros, in the tracker format chosen', async () => {
    answer();
    renderAt('/admin/affiliate-networks/edit/an-1');
    const base = `https://track.example.com/${KEY}`;
    expect((await postbackUrl()).value).toBe(
      `${base}/postback?clickid={aff_sub}&payout={amount}&status={state}&txid={order_id}&currency={currency}`,
    );
    expect(screen.getByRole('radio', { name: 'Switchyard' })).toBeChecked();

    fireEvent.click(screen.getByRole('radio', { name: 'Binom' }));
    expect((await postbackUrl()).value).toBe(`${base}/click.php?cnv_id={aff_sub}&payout={amount}&cnv_status={state}`);
    expect(screen.getByText(/The parameter names of Binom/)).toBeVisible();

    // The macro names typed follow into the URL before the save.
    fireEvent.change(screen.getByRole('textbox', { name: 'Click ID parameter' }), { target: { value: 'sub1' } });
    expect((await postbackUrl()).value).toBe(`${base}/click.php?cnv_id={sub1}&payout={amount}&cnv_status={state}`);
    fireEvent.click(screen.getByRole('radio', { name: 'Keitaro' }));
    expect((await postbackUrl()).value).toBe(
      `${base}/postback?subid={sub1}&status={state}&payout={amount}&tid={order_id}`,
    );
  });

  it("builds the URL of a new network from the user's workspace key", async () => {
    answer();
    renderAt('/admin/affiliate-networks/create');
    expect((await postbackUrl()).value).toBe(
      `${window.location.origin}/${KEY}/postback?clickid={clickid}&payout={payout}&status={status}&txid={txid}&currency={currency}`,
    );
  });

  it('says the URL comes with the save when the key cannot be read, and never shows a keyless one', async () => {
    const fetchMock = answer();
    renderAt('/admin/affiliate-networks/create', CREATOR);
    expect(await screen.findByText('The postback URL appears here once the network is saved.')).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'Postback URL' })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends the postback addresses and shows the server's refusal of one by name", async () => {
    const fetchMock = answer(() => ({
      status: 400,
      body: { message: 'Validation failed', errors: { 'postback_ips.1': ['Not an IP address or CIDR range'] } },
    }));
    renderAt('/admin/affiliate-networks/edit/an-1');
    await postbackUrl();
    const addresses = screen.getByRole('combobox', { name: 'Postback addresses' });
    act(() => addresses.focus());
    fireEvent.change(addresses, { target: { value: '198.51.100.0/24' } });
    fireEvent.keyDown(addresses, { key: 'Enter' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body)).postback_ips).toEqual(['203.0.113.10', '198.51.100.0/24']);
    expect(await screen.findByText('198.51.100.0/24: Not an IP address or CIDR range')).toBeVisible();
  });
});
