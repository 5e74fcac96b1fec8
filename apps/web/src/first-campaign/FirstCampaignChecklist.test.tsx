import type { CurrentUser } from '@switchyard/domain';
import { act, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../api/client';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { AuthContext, type AuthContextValue } from '../shared/auth/AuthContext';
import { FirstCampaignChecklist } from './FirstCampaignChecklist';

const ADMIN = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/'], workspaces: [] };

/** The server's answers: how many records each list has, and the clicks and conversions so far. */
function answer(totals: Record<string, number>, figures = { clicks: 0, conversions: 0 }) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://dashboard.test');
    if (url.pathname === '/api/reports') {
      return new Response(JSON.stringify({ list: [], total: 0, totals: figures }));
    }
    const total = totals[url.pathname.replace('/api/', '')] ?? 0;
    return new Response(JSON.stringify({ list: total ? [{}] : [], total }));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderChecklist(user: unknown = ADMIN) {
  tokenStore.set('test-token');
  return render(
    <ControlProviders>
      <AuthContext.Provider value={{ user: user as CurrentUser } as AuthContextValue}>
        <MemoryRouter>
          <FirstCampaignChecklist />
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

const step = (key: string) => document.querySelector(`[data-step="${key}"]`) as HTMLElement;

describe('first-campaign checklist', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    await act(() => i18n.changeLanguage('en'));
  });

  it.each([
    [
      'en',
      'Your first campaign',
      '2 of 8 done',
      'Add a traffic source',
      'Add an affiliate network',
      'Done',
      'Create a campaign',
      'Get a first click',
    ],
    [
      'ar',
      'حملتك الأولى',
      'أُنجز 2 من 8',
      'أضف مصدر زيارات',
      'أضف شبكة تسويق بالعمولة',
      'تم',
      'أنشئ حملة',
      'احصل على أول نقرة',
    ],
  ])('shows each step done or linking to where to do it (%s)', async (language, ...texts) => {
    const [title, progress, source, network, done, campaign, click] = texts as string[] as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    await act(() => i18n.changeLanguage(language));
    const fetchMock = answer({ 'traffic-sources': 1, 'tracker/offers': 2 });
    renderChecklist();

    expect(await screen.findByRole('heading', { name: title })).toBeVisible();
    expect(screen.getAllByText(progress)[0]).toBeVisible();
    // Done: its name, no link.
    expect(within(step('trafficSource')).getByText(source)).toBeVisible();
    expect(within(step('trafficSource')).queryByRole('link')).toBeNull();
    expect(within(step('trafficSource')).getByText(done)).toBeInTheDocument();
    expect(step('offer')).toHaveAttribute('data-done', 'true');
    // Not done: a link to its create screen, or to where a click comes from.
    expect(within(step('affiliateNetwork')).getByRole('link', { name: network })).toHaveAttribute(
      'href',
      '/admin/affiliate-networks/create',
    );
    expect(within(step('flow')).getByRole('link')).toHaveAttribute('href', '/tracker/flows/create');
    expect(within(step('campaign')).getByRole('link', { name: campaign })).toHaveAttribute(
      'href',
      '/tracker/campaigns/create',
    );
    expect(within(step('firstClick')).getByRole('link', { name: click })).toHaveAttribute('href', '/tracker/campaigns');
    expect(within(step('firstConversion')).getByRole('link')).toHaveAttribute('href', '/admin/affiliate-networks');
    expect(within(step('domain')).getByRole('link')).toHaveAttribute('href', '/admin/domains/create');

    // Counted with one record per list, and the workspace's report over all time.
    const asked = fetchMock.mock.calls.map(([input]) => String(input));
    expect(asked).toContain('/api/traffic-sources?limit=1');
    expect(asked.find((url) => url.startsWith('/api/reports?'))).not.toMatch(/date_from/);
  });

  it('marks the first click done once the report counts one', async () => {
    answer(
      {
        'traffic-sources': 1,
        'affiliate-networks': 1,
        'tracker/offers': 1,
        'tracker/flows': 1,
        'tracker/campaigns': 1,
        domains: 1,
      },
      { clicks: 1, conversions: 0 },
    );
    renderChecklist();
    expect(await screen.findByText('7 of 8 done')).toBeVisible();
    expect(step('firstClick')).toHaveAttribute('data-done', 'true');
    expect(within(step('firstConversion')).getByRole('link', { name: 'Get a first conversion' })).toBeVisible();
  });

  it('is gone once every step is done', async () => {
    const all = {
      'traffic-sources': 1,
      'affiliate-networks': 1,
      'tracker/offers': 1,
      'tracker/flows': 1,
      'tracker/campaigns': 1,
      domains: 1,
    };
    const fetchMock = answer(all, { clicks: 3, conversions: 1 });
    renderChecklist();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(7));
    await act(async () => {});
    expect(screen.queryByRole('heading', { name: 'Your first campaign' })).toBeNull();
    expect(document.querySelector('[data-step]')).toBeNull();
  });
});
