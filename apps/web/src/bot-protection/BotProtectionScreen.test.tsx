import { ModalsProvider } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { BotProtectionSettings, CurrentUser } from '@switchyard/domain';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../api/client';
import { ControlProviders } from '../components/form/controls/renderControl';
import { AuthContext, type AuthContextValue } from '../shared/auth/AuthContext';
import { BotProtectionScreen } from './BotProtectionScreen';

const READER = { id: 2, name: 'Rita', email: 'rita@example.test', permissions: ['/instance/settings/get'] };
const ADMIN = { ...READER, permissions: ['/instance/settings'] };

const SHIPPED: BotProtectionSettings = {
  datacenter_asns: [
    { asn: 16509, name: 'Amazon' },
    { asn: 14061, name: 'DigitalOcean' },
  ],
  is_default: true,
};

type Call = { method: string; body: unknown };
type Answer = { status: number; body: unknown };

/** GET answers the shipped list; PUT and DELETE answer `onChange`'s status and body (the sent list by default). */
function answer(onChange?: (call: Call) => Answer) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      if (method === 'GET') return new Response(JSON.stringify(SHIPPED));
      const call = { method, body: init?.body ? JSON.parse(String(init.body)) : null };
      calls.push(call);
      const fallback = method === 'DELETE' ? SHIPPED : { ...(call.body as BotProtectionSettings), is_default: false };
      const { status, body } = onChange?.(call) ?? { status: 200, body: fallback };
      return new Response(JSON.stringify(body), { status });
    }),
  );
  return calls;
}

function renderScreen(user: object) {
  tokenStore.set('test-token');
  const auth = { user: user as unknown as CurrentUser } as AuthContextValue;
  return render(
    <ControlProviders>
      <ModalsProvider>
        <AuthContext.Provider value={auth}>
          <MemoryRouter initialEntries={['/admin/bot-protection']}>
            <BotProtectionScreen />
          </MemoryRouter>
        </AuthContext.Provider>
      </ModalsProvider>
    </ControlProviders>,
  );
}

async function listed(): Promise<string[]> {
  const table = await screen.findByRole('table', { name: 'Datacenter networks' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => (row.textContent ?? '').trim());
}

describe('BotProtectionScreen', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
  });

  it('lists the networks and explains the five reasons, read-only without the right to change users', async () => {
    answer();
    renderScreen(READER);
    expect(await listed()).toEqual(['AS16509Amazon', 'AS14061DigitalOcean']);
    expect(screen.getByText('Shipped list')).toBeVisible();
    const reasons = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(reasons.map((item) => item.textContent?.split(':')[0])).toEqual([
      'No browser name',
      'Known bot',
      'Crawler address',
      'Datacenter network',
      'Too many clicks',
    ]);
    expect(screen.queryByRole('textbox', { name: 'AS number' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Remove AS/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Restore the shipped list' })).toBeNull();
  });

  it('finds a network by part of its name or number', async () => {
    answer();
    renderScreen(READER);
    await listed();
    const search = screen.getByRole('searchbox', { name: 'Find a network' });
    fireEvent.change(search, { target: { value: 'digital' } });
    expect(await listed()).toEqual(['AS14061DigitalOcean']);
    fireEvent.change(search, { target: { value: 'AS165' } });
    expect(await listed()).toEqual(['AS16509Amazon']);
    fireEvent.change(search, { target: { value: 'Hetzner' } });
    expect(await screen.findByText('No network matches “Hetzner”.')).toBeVisible();
  });

  it('adds a network, removes one and saves the list as it stands', async () => {
    const calls = answer();
    renderScreen(ADMIN);
    await listed();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    fireEvent.change(screen.getByRole('textbox', { name: 'AS number' }), { target: { value: '24940' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Hetzner' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove AS14061 DigitalOcean' }));
    expect(await listed()).toEqual(['AS16509Amazon', 'AS24940Hetzner']);
    expect(screen.getByText('Unsaved changes')).toBeVisible();

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls).toEqual([
        {
          method: 'PUT',
          body: {
            datacenter_asns: [
              { asn: 16509, name: 'Amazon' },
              { asn: 24940, name: 'Hetzner' },
            ],
          },
        },
      ]),
    );
    expect(await screen.findByText('Bot protection saved.')).toBeVisible();
    expect(await screen.findByText('Edited')).toBeVisible();
  });

  it('refuses an ASN that is no whole number, or one already listed, under the field', async () => {
    answer();
    renderScreen(ADMIN);
    await listed();
    const asn = screen.getByRole('textbox', { name: 'AS number' });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Enter a number')).toBeVisible();
    fireEvent.change(asn, { target: { value: '16509' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('AS16509 is already in the list.')).toBeVisible();
    expect(asn).toHaveAttribute('aria-invalid', 'true');
    expect(await listed()).toHaveLength(2);
  });

  it('adds a pasted list, skipping known networks and naming the lines it cannot read', async () => {
    answer();
    renderScreen(ADMIN);
    await listed();
    fireEvent.change(screen.getByRole('textbox', { name: /Paste a list/ }), {
      target: { value: 'AS24940 Hetzner Online\n16509,Amazon\nOVH\n16276,OVH SAS' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add these networks' }));
    expect(await screen.findByText('Added: 2. Already in the list: 1. Lines not understood: 3.')).toBeVisible();
    expect(await listed()).toEqual(['AS16509Amazon', 'AS14061DigitalOcean', 'AS24940Hetzner Online', 'AS16276OVH SAS']);
  });

  it("shows the server's refusal under the field of the row it names", async () => {
    answer(() => ({
      status: 400,
      body: { message: 'Validation failed', errors: { 'datacenter_asns.1.name': ['This value is too long'] } },
    }));
    renderScreen(ADMIN);
    await listed();
    fireEvent.change(screen.getByRole('textbox', { name: 'AS number' }), { target: { value: '24940' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const table = await screen.findByRole('table', { name: 'Datacenter networks' });
    const row = within(table).getAllByRole('row')[2] as HTMLElement;
    expect(await within(row).findByText('This value is too long')).toBeVisible();
    expect(within(row).getByText('AS14061')).toBeVisible();
    expect(screen.queryByText('Validation failed')).toBeNull();
  });

  it('puts the shipped list back after a confirmation', async () => {
    const calls = answer();
    renderScreen(ADMIN);
    await listed();
    fireEvent.click(screen.getByRole('button', { name: 'Remove AS16509 Amazon' }));
    expect(await listed()).toEqual(['AS14061DigitalOcean']);
    fireEvent.click(screen.getByRole('button', { name: 'Restore the shipped list' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore the shipped list?' });
    expect(calls).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(calls).toEqual([{ method: 'DELETE', body: null }]));
    expect(await screen.findByText('The shipped list is back.')).toBeVisible();
    expect(await listed()).toEqual(['AS16509Amazon', 'AS14061DigitalOcean']);
  });
});
