import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { theme } from '../../shared/theme';
import { FlowSimulator } from './FlowSimulator';

const CAMPAIGNS = [
  { external_id: 'c-on', name: 'Push DE', flow_external_id: 'flow-1' },
  { external_id: 'c-other', name: 'Search US', flow_external_id: 'flow-2' },
];

function stubFetch(campaigns: unknown[]) {
  const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
    if (String(url).startsWith('/api/tracker/campaigns?')) {
      return new Response(JSON.stringify({ list: campaigns, total: campaigns.length }), { status: 200 });
    }
    return new Response(JSON.stringify({ message: 'Not found' }), { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderSimulator() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme}>
        <QueryClientProvider client={client}>
          <FlowSimulator kind="tracker" flowId="flow-1" />
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>,
  );
}

describe("the flow editor's simulator", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('routes through a campaign that uses the flow, and only such a campaign', async () => {
    const fetchMock = stubFetch(CAMPAIGNS);
    renderSimulator();
    const picker = await screen.findByRole('combobox', { name: 'Campaign' });
    expect(picker).toHaveValue('Push DE');
    fireEvent.click(picker);
    expect(await screen.findByRole('option', { name: 'Push DE', hidden: true })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Search US', hidden: true })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Simulate' }));
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/tracker/campaigns/c-on/simulate'),
    );
  });

  it('says when no campaign uses the flow', async () => {
    stubFetch([CAMPAIGNS[1]]);
    renderSimulator();
    expect(await screen.findByText('No campaign uses this flow yet: create one to simulate a visitor.')).toBeVisible();
  });
});
