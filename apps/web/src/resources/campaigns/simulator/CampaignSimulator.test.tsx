import { MantineProvider } from '@mantine/core';
import type { SimulationAnswer } from '@switchyard/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { theme } from '../../../shared/theme';
import { CampaignSimulator } from './CampaignSimulator';

/** A German visitor on a flow whose first group wants the US: as the server answers it. */
const ANSWER: SimulationAnswer = {
  context: {
    country: 'DE',
    region: 'Berlin',
    city: 'Berlin',
    asn: 31334,
    isp: 'Vodafone',
    device: 'mobile',
    platform: 'iOS',
    browser: 'Safari',
    language: 'de',
    referrer: null,
    vars: {},
    isBot: false,
    botReason: null,
    fields: { countryCode: 'DE' },
    time: '2026-11-24T12:00:00.000Z',
  },
  groups: [
    {
      id: 'g1',
      name: 'US visitors',
      priority: 1,
      matched: false,
      condition_trace: {
        type: 'AndCondition',
        verdict: false,
        conditions: [
          {
            type: 'InCondition',
            verdict: false,
            data: { Var: 'countryCode', Operation: 'IN', Values: ['US', 'CA'] },
            value: 'DE',
          },
          { type: 'EqualCondition', verdict: true, data: { Var: 'isBot', Value: 'false' }, value: 'false' },
        ],
      },
    },
    {
      id: 'g2',
      name: 'Everyone else',
      priority: 2,
      matched: true,
      condition_trace: { type: 'AllCondition', verdict: true },
    },
  ],
  path_group: { id: 'g2', name: 'Everyone else' },
  path: { id: 'p1', name: 'Main path' },
  lander: null,
  offer: { external_id: 'off-1', name: 'Dating DE' },
  backup_chain: [],
  caps: [{ kind: 'offer', id: 'off-1', name: 'Dating DE', day: '2026-11-24', limit: 100, remaining: 40 }],
  url: 'https://offers.example.com/de?click={clickid}',
  redirect_mode: 'meta',
  probabilities: {
    paths: [
      {
        id: 'p1',
        name: 'Main path',
        chance: 1,
        landers: [],
        offers: [{ external_id: 'off-1', name: 'Dating DE', chance: 0.75 }],
      },
    ],
    offers: [
      { external_id: 'off-1', name: 'Dating DE', chance: 0.75 },
      { external_id: 'off-2', name: 'Dating AT', chance: 0.25 },
    ],
  },
  reason: 'matched',
};

function stubFetch(status: number, body: unknown) {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderSimulator(kind: 'tracker' | 'api' = 'tracker') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme}>
        <QueryClientProvider client={client}>
          <CampaignSimulator kind={kind} campaignId="camp-1" />
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>,
  );
}

describe('the campaign simulator', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the visitor as typed and explains why the first group did not match', async () => {
    const fetchMock = stubFetch(200, ANSWER);
    renderSimulator();
    fireEvent.change(screen.getByLabelText('Address (IP)'), { target: { value: '91.64.0.1' } });
    fireEvent.change(screen.getByLabelText('User agent'), { target: { value: 'Mozilla/5.0 (iPhone)' } });
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'de' } });
    fireEvent.change(screen.getByLabelText('Parameters'), {
      target: { value: 'var1=banner-7\nnot a pair\nsubid = 42' },
    });
    fireEvent.change(screen.getByLabelText('Time'), { target: { value: '2026-11-24T13:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Simulate' }));

    const usGroup = await screen.findByRole('region', { name: 'US visitors' });
    expect(within(usGroup).getByText('Not matched')).toBeVisible();
    const countryLeaf = within(usGroup).getByText('countryCode IN (US, CA)').closest('[data-verdict]')!;
    expect(countryLeaf.getAttribute('data-verdict')).toBe('false');
    expect(countryLeaf.textContent).toContain('false');
    expect(countryLeaf.textContent).toContain('tested: DE');
    const botLeaf = within(usGroup).getByText('isBot = false').closest('[data-verdict]')!;
    expect(botLeaf.textContent).toContain('true');

    const otherGroup = screen.getByRole('region', { name: 'Everyone else' });
    expect(within(otherGroup).getByText('Chosen')).toBeVisible();
    expect(within(usGroup).queryByText('Chosen')).toBeNull();

    expect(screen.getByText('Dating DE (75%)')).toBeVisible();
    expect(screen.getByText('https://offers.example.com/de?click={clickid}')).toBeVisible();
    // How a click would be sent there, by the path's or campaign's redirect mode.
    expect(screen.getByText('Meta refresh')).toBeVisible();
    expect(screen.getByText('Dating DE: 40 of 100 left')).toBeVisible();
    expect(screen.getByText('Vodafone', { exact: false }).textContent).toBe('AS31334 Vodafone');

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/tracker/campaigns/camp-1/simulate');
    const sent = JSON.parse(String(init?.body));
    expect(sent).toMatchObject({
      ip: '91.64.0.1',
      user_agent: 'Mozilla/5.0 (iPhone)',
      language: 'de',
      params: { var1: 'banner-7', subid: '42' },
    });
    expect(new Date(sent.time).getTime()).toBe(new Date('2026-11-24T13:00').getTime());
  });

  it('says so when no group matched, and sends an API campaign a lead with vars', async () => {
    const fetchMock = stubFetch(200, {
      ...ANSWER,
      groups: [ANSWER.groups[0]],
      path_group: null,
      path: null,
      offer: null,
      url: null,
      caps: [],
      probabilities: { paths: [], offers: [] },
      reason: 'no_matching_path_group',
      context: { ...ANSWER.context, isBot: true, botReason: 'empty_user_agent' },
    });
    renderSimulator('api');
    fireEvent.change(screen.getByLabelText('Lead vars'), { target: { value: 'subaff=7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Simulate' }));
    expect(await screen.findByText('No path group matched this visitor.')).toBeVisible();
    expect(screen.getByText('Bot: No browser name')).toBeVisible();
    expect(screen.queryByText('Final URL')).toBeNull();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/campaigns/camp-1/simulate');
    expect(JSON.parse(String(init?.body))).toMatchObject({ email: 'visitor@example.com', vars: { subaff: '7' } });
  });

  it('shows the server refusing an address', async () => {
    stubFetch(400, { message: 'Invalid value', errors: { ip: 'Invalid value' } });
    renderSimulator();
    fireEvent.click(screen.getByRole('button', { name: 'Simulate' }));
    expect(await screen.findByRole('alert')).toBeVisible();
  });
});
