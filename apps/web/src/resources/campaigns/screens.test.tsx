import { notifications } from '@mantine/notifications';
import type { CurrentUser } from '@switchyard/domain';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import { ControlProviders } from '../../components/form/controls/renderControl';
import { CreateFormsContext } from '../../components/form/createForms';
import i18n from '../../i18n';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { createFormOf } from '..';
import { trackerCampaignScreens } from './screens';

const ADMIN = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/'], workspaces: [] };

const SOURCE = {
  external_id: 'ts-1',
  name: 'PropellerAds',
  parameters: [
    { name: 'Click ID', ts_parameter: 'clickid', ts_token: '{clickid}', internal_token: 'var1', enabled: true },
    { name: 'Zone', ts_parameter: 'zone', ts_token: '{zoneid}', internal_token: 'var2', enabled: true },
  ],
};
const FLOW = { external_id: 'tf-1', name: 'Main flow' };
const CAMPAIGN = {
  external_id: 'tc-9',
  name: 'Summer push',
  traffic_source_external_id: 'ts-1',
  flow_external_id: 'tf-1',
  cost_model: 'CPC',
  cost: 0.01,
  postback_events: [],
  payout_rule_sets: [],
  status: 'active',
  created_at: '2025-06-01T00:00:00.000Z',
  updated_at: '2025-06-01T00:00:00.000Z',
};
const URL = `${window.location.origin}/c/tc-9?clickid={clickid}&zone={zoneid}`;

function answer(campaign: Record<string, unknown> = CAMPAIGN) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const json = (body: unknown) => new Response(JSON.stringify(body));
    if (init?.method === 'POST') return json({ ...campaign, ...JSON.parse(String(init.body)) });
    if (url.startsWith('/api/tracker/campaigns/tc-9')) return json(campaign);
    if (url.startsWith('/api/tracker/campaigns')) return json({ list: [campaign], total: 1 });
    if (url.startsWith('/api/traffic-sources')) return json({ list: [SOURCE], total: 1 });
    if (url.startsWith('/api/tracker/flows')) return json({ list: [FLOW], total: 1 });
    return json({ list: [], total: 0 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderAt(path: string) {
  tokenStore.set('test-token');
  const auth = { user: ADMIN as unknown as CurrentUser } as AuthContextValue;
  const { List, Create, Edit } = trackerCampaignScreens;
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <CreateFormsContext.Provider value={createFormOf}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path="/tracker/campaigns" element={<List />} />
              <Route path="/tracker/campaigns/create" element={<Create />} />
              <Route path="/tracker/campaigns/edit/:id" element={<Edit />} />
            </Routes>
          </MemoryRouter>
        </CreateFormsContext.Provider>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

async function choose(label: string, option: string) {
  fireEvent.click(await screen.findByRole('combobox', { name: new RegExp(`^${label}`) }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

describe('tracker campaign screens: the campaign URL', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
    await act(() => i18n.changeLanguage('en'));
  });

  it.each([
    ['en', 'Campaign URL', 'Copy'],
    ['ar', 'رابط الحملة', 'نسخ'],
  ])('lists each campaign with its URL and a Copy button (%s)', async (language, header, copy) => {
    await act(() => i18n.changeLanguage(language));
    answer();
    renderAt('/tracker/campaigns');
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('columnheader', { name: header })).toBeVisible();
    const row = within(table).getAllByRole('row')[1]!;
    expect(await within(row).findByText(URL)).toBeVisible();
    expect(within(row).getByRole('button', { name: copy })).toBeVisible();
  });

  it.each([
    ['en', 'Name', 'Traffic source', 'Flow', 'Save', 'Campaign created. Give its URL to the traffic source.'],
    ['ar', 'الاسم', 'مصدر الزيارات', 'التدفق', 'حفظ', 'أُنشئت الحملة. أعطِ رابطها لمصدر الزيارات.'],
  ])('shows the new campaign URL with Copy right after the create (%s)', async (language, ...texts) => {
    const [name, source, flow, save, created] = texts as [string, string, string, string, string];
    await act(() => i18n.changeLanguage(language));
    answer();
    renderAt('/tracker/campaigns/create');
    fireEvent.change(await screen.findByRole('textbox', { name: new RegExp(`^${name}`) }), {
      target: { value: 'Summer push' },
    });
    await choose(source, 'PropellerAds');
    await choose(flow, 'Main flow');
    fireEvent.click(screen.getByRole('button', { name: save }));

    // The campaign form is long: a cheap wait for the save's answer first (a getByText over the whole form
    // on every change of the DOM can outlast findByText's deadline on a busy machine).
    await waitFor(() => expect(document.body.textContent).toContain(created), { timeout: 10_000 });
    const notice = screen.getByText(created).closest('[role="alert"]') as HTMLElement;
    expect(notice).toBeVisible();
    expect(within(notice).getByDisplayValue(URL)).toBeVisible();
    expect(within(notice).getByRole('button', { name: i18n.t('resources:form.copy') })).toBeVisible();
  });

  it('shows no such notice on a later visit of the edit screen', async () => {
    answer();
    renderAt('/tracker/campaigns/edit/tc-9');
    expect(await screen.findByDisplayValue('Summer push')).toBeVisible();
    expect(screen.queryByText('Campaign created. Give its URL to the traffic source.')).toBeNull();
  });

  it('shows the URL on the public origin the server gives the record (SWITCHYARD_PUBLIC_URL)', async () => {
    const onPublicOrigin = 'https://track.example.com/c/tc-9?clickid={clickid}&zone={zoneid}';
    answer({ ...CAMPAIGN, campaign_url: onPublicOrigin });
    renderAt('/tracker/campaigns');
    const row = within(await screen.findByRole('table')).getAllByRole('row')[1]!;
    expect(await within(row).findByText(onPublicOrigin)).toBeVisible();
    cleanup();

    // The edit screen builds it on the same origin, following the traffic source chosen in the form.
    renderAt('/tracker/campaigns/edit/tc-9');
    expect(await screen.findByDisplayValue(onPublicOrigin)).toBeVisible();
  });
});

describe('tracker campaign screens: "Update cost" with the settings', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    await act(() => i18n.changeLanguage('en'));
  });

  it.each(['en', 'ar'])('shows it on the Settings tab only (%s)', async (language) => {
    await act(() => i18n.changeLanguage(language));
    const t = i18n.getFixedT(language);
    answer();
    renderAt('/tracker/campaigns/edit/tc-9');
    expect(await screen.findByDisplayValue('Summer push')).toBeVisible();
    const updateCost = screen.getByRole('button', { name: t('resources:campaignCosts.open') });
    expect(updateCost).toBeVisible();
    fireEvent.click(screen.getByRole('tab', { name: t('history:tabs.history') }));
    await waitFor(() => expect(updateCost).not.toBeVisible());
    fireEvent.click(screen.getByRole('tab', { name: t('history:tabs.form') }));
    await waitFor(() => expect(updateCost).toBeVisible());
  });
});

describe("tracker campaign screens: the landers' link to the offer", () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    await act(() => i18n.changeLanguage('en'));
  });

  it.each([
    ['en', "Landers' link to the offer", 'Copy'],
    ['ar', 'رابط صفحات الهبوط إلى العرض', 'نسخ'],
  ])('shows the offer link of this campaign, on this server, to copy (%s)', async (language, label, copy) => {
    await act(() => i18n.changeLanguage(language));
    // The server gives the record its campaign URL on the tracker's public origin; the link uses it too.
    const publicUrl = 'https://track.example/c/tc-9?clickid={clickid}';
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = String(input);
        const body = url.startsWith('/api/tracker/campaigns/tc-9')
          ? { ...CAMPAIGN, campaign_url: publicUrl }
          : url.startsWith('/api/traffic-sources')
            ? { list: [SOURCE], total: 1 }
            : { list: [], total: 0 };
        return new Response(JSON.stringify(body));
      }),
    );
    renderAt('/tracker/campaigns/edit/tc-9');
    const link = await screen.findByRole('textbox', { name: label });
    expect(link).toHaveValue('https://track.example/c/tc-9/offer?clickid={clickid}');
    const field = link.closest('.mantine-InputWrapper-root') as HTMLElement;
    expect(within(field).getByRole('button', { name: copy })).toBeVisible();
  });
});

describe('tracker campaign screens: empty choices lead to creating them', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    await act(() => i18n.changeLanguage('en'));
  });

  it.each([
    ['en', 'No traffic sources yet.', 'No tracker flows yet.', 'No postback events yet.', 'Create one now'],
    [
      'ar',
      'لا توجد مصادر زيارات بعد.',
      'لا توجد تدفقات للمتتبّع بعد.',
      'لا توجد أحداث إعادة إرسال بعد.',
      'أنشئ واحدًا الآن',
    ],
  ])('offers to create each empty choice (%s)', async (language, ...texts) => {
    const [noSources, noFlows, noEvents, createOne] = texts as [string, string, string, string];
    await act(() => i18n.changeLanguage(language));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ list: [], total: 0 }))),
    );
    renderAt('/tracker/campaigns/create');
    const sources = await screen.findByTestId('traffic-sources-none-yet');
    expect(sources).toHaveTextContent(noSources);
    expect(within(sources).getByRole('button', { name: createOne })).toBeVisible();
    const flows = await screen.findByTestId('tracker-flows-none-yet');
    expect(flows).toHaveTextContent(noFlows);
    expect(within(flows).getByRole('button', { name: createOne })).toBeVisible();
    // The postback events: the repeater says there are none; the offer to create one was missing.
    expect(screen.getByText(noEvents)).toBeVisible();
    const events = await screen.findByTestId('postback-events-none-yet');
    expect(within(events).getByRole('button', { name: createOne })).toBeVisible();
  });

  it.each(['en', 'ar'])(
    'creates a traffic source in a drawer, keeping what was typed, and chooses it (%s)',
    async (language) => {
      await act(() => i18n.changeLanguage(language));
      const t = i18n.getFixedT(language);
      const posted: { url: string; body: Record<string, unknown> }[] = [];
      let sources: object[] = [];
      vi.stubGlobal(
        'fetch',
        vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
          const url = String(input);
          if (init?.method === 'POST') {
            const body = JSON.parse(String(init.body)) as Record<string, unknown>;
            posted.push({ url, body });
            sources = [{ ...body, external_id: 'ts-new' }];
            return new Response(JSON.stringify(sources[0]));
          }
          const list = url.startsWith('/api/traffic-sources') ? sources : [];
          return new Response(JSON.stringify({ list, total: list.length }));
        }),
      );
      renderAt('/tracker/campaigns/create');
      const name = await screen.findByRole('textbox', { name: new RegExp(`^${t('resources:fields.name')}`) });
      fireEvent.change(name, { target: { value: 'Summer push' } });
      const none = await screen.findByTestId('traffic-sources-none-yet');
      fireEvent.click(within(none).getByRole('button', { name: t('resources:form.createOne') }));

      const drawer = await screen.findByRole('dialog', { name: t('resources:traffic-sources.createTitle') });
      const sourceName = await within(drawer).findByRole('textbox', {
        name: new RegExp(`^${t('resources:fields.name')}`),
      });
      fireEvent.change(sourceName, { target: { value: 'Zeropark' } });
      fireEvent.click(within(drawer).getByRole('button', { name: t('resources:form.save') }));

      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      // Only the source was sent; the campaign form is as it was, with the new source chosen.
      expect(posted.map((call) => call.url)).toEqual(['/api/traffic-sources']);
      expect(posted[0]?.body).toMatchObject({ name: 'Zeropark' });
      expect(name).toHaveValue('Summer push');
      await waitFor(() =>
        expect(
          screen.getByRole('combobox', { name: new RegExp(`^${t('resources:fields.traffic_source')}`) }),
        ).toHaveValue('Zeropark'),
      );
    },
  );

  it('says nothing of the kind once there is something to choose', async () => {
    answer();
    renderAt('/tracker/campaigns/create');
    await choose('Traffic source', 'PropellerAds');
    expect(screen.queryByTestId('traffic-sources-none-yet')).toBeNull();
    expect(screen.queryByTestId('tracker-flows-none-yet')).toBeNull();
  });
});
