import type { CurrentUser } from '@switchyard/domain';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import { ControlProviders } from '../../components/form/controls/renderControl';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { DomainStatusPanel } from './DomainStatusPanel';

const ADMIN = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/'], workspaces: [] };

const DOMAIN = {
  id: 3,
  name: 'bücher.example',
  name_ascii: 'xn--bcher-kva.example',
  workspace: 1,
  index_campaign: null,
  not_found: '404',
  https_only: false,
  dashboard: false,
  noindex: true,
  dns: {
    addresses: ['192.0.2.10'],
    points_here: false,
    public_ip: '203.0.113.7',
    error: null,
    checked_at: '2026-11-28T08:00:00.000Z',
  },
  certificate: {
    status: 'failed',
    source: null,
    expires_at: null,
    issuer: null,
    reason: 'Invalid response from http://xn--bcher-kva.example/.well-known/acme-challenge/abc: 404',
    retry_at: '2026-11-28T09:00:00.000Z',
  },
  status: 'active',
  created_at: '2026-11-28T07:00:00.000Z',
  updated_at: '2026-11-28T07:00:00.000Z',
};

function answer() {
  let current = DOMAIN;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url === '/api/domains/3/certificate' && init?.method === 'PUT') {
      return new Response(
        JSON.stringify({
          message: 'The data you sent is not valid',
          errors: { key: ['This key does not match the certificate.'] },
        }),
        { status: 400 },
      );
    }
    if (url === '/api/domains/3/certificate/renew') {
      current = { ...DOMAIN, certificate: { ...DOMAIN.certificate, status: 'pending' } };
      return new Response(JSON.stringify(current));
    }
    if (url.startsWith('/api/domains/3')) return new Response(JSON.stringify(current));
    return new Response(JSON.stringify({ list: [], total: 0 }));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderPanel() {
  tokenStore.set('test-token');
  return render(
    <ControlProviders>
      <AuthContext.Provider value={{ user: ADMIN as unknown as CurrentUser } as AuthContextValue}>
        <MemoryRouter>
          <DomainStatusPanel id="3" />
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

describe('a domain’s DNS and certificate', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
  });

  it('shows where the name points, what it should point to, and the CA’s reason', async () => {
    answer();
    renderPanel();
    expect(await screen.findByText('bücher.example (xn--bcher-kva.example)')).toBeVisible();
    expect(screen.getByText('Points elsewhere')).toBeVisible();
    expect(screen.getByText('Resolves to 192.0.2.10')).toBeVisible();
    expect(screen.getByText(/Set an A record to 203\.0\.113\.7/)).toBeVisible();
    expect(screen.getByText('Failed')).toBeVisible();
    expect(screen.getByText(/Reason: Invalid response from .*: 404/)).toBeVisible();
    expect(screen.getByText(/^Next attempt/)).toBeVisible();
  });

  it('orders a renewal, and shows a refused upload’s reason on the key', async () => {
    const fetchMock = answer();
    renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: 'Renew now' }));
    expect(await screen.findByText('Ordering…')).toBeVisible();
    expect(screen.getByText('Certificate ordered; this page shows its progress.')).toBeVisible();
    expect(
      fetchMock.mock.calls.some(([url, init]) => url === '/api/domains/3/certificate/renew' && init?.method === 'POST'),
    ).toBe(true);

    fireEvent.change(screen.getByLabelText(/Certificate \(PEM\)/), {
      target: { value: '-----BEGIN CERTIFICATE-----' },
    });
    fireEvent.change(screen.getByLabelText(/Private key \(PEM\)/), {
      target: { value: '-----BEGIN PRIVATE KEY-----' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(screen.getByText('This key does not match the certificate.')).toBeVisible());
  });
});
