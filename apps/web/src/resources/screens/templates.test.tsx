import { notifications } from '@mantine/notifications';
import type { CurrentUser } from '@switchyard/domain';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import { ControlProviders } from '../../components/form/controls/renderControl';
import i18n from '../../i18n';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { affiliateNetworkScreens } from '../affiliate-networks/screens';
import { trafficSourceScreens } from '../traffic-sources/screens';

// A new traffic source or affiliate network can start from a well-known one.

const KEY = 'Ab3dEf6hIj9kLm2nOp5qRs8t';
const ADMIN = {
  id: 1,
  name: 'Ada',
  email: 'ada@example.test',
  permissions: ['/'],
  workspaces: [{ id: 1, name: 'Main' }],
};

function answer() {
  const saved: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (init?.method === 'POST') {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        saved.push(body);
        return new Response(JSON.stringify({ ...body, external_id: 'new-1' }));
      }
      if (url.startsWith('/api/workspaces/1')) return new Response(JSON.stringify({ id: 1, postback_key: KEY }));
      return new Response(JSON.stringify({ list: [], total: 0 }));
    }),
  );
  return saved;
}

function renderCreate(screens: typeof trafficSourceScreens, route: string) {
  tokenStore.set('test-token');
  const auth = { user: ADMIN as unknown as CurrentUser } as AuthContextValue;
  const { Create } = screens;
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={[`${route}/create`]}>
          <Routes>
            <Route path={`${route}/create`} element={<Create />} />
            <Route path={`${route}/edit/:id`} element={<p>Saved</p>} />
          </Routes>
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

async function chooseTemplate(label: string, name: string) {
  fireEvent.click(await screen.findByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name }));
}

/** The record's own name field (parameter rows have a Name too). */
const recordName = () => document.querySelector<HTMLInputElement>('input[name="name"]') as HTMLInputElement;
const value = (name: string | RegExp) => (screen.getByRole('textbox', { name }) as HTMLInputElement).value;
const values = (name: string | RegExp) =>
  screen.getAllByRole('textbox', { name }).map((input) => (input as HTMLInputElement).value);

const TEXTS = {
  en: {
    template: 'Start from a template',
    name: /^Name/,
    token: 'Token',
    parameter: /^Parameter/,
    costParameter: 'Cost parameter',
    postbackOf: 'Postback URL of PropellerAds',
    offerParams: 'Offer URL parameters',
    clickId: 'Click ID parameter',
    payout: 'Payout parameter',
    save: 'Save',
  },
  ar: {
    template: 'البدء من قالب',
    name: /^الاسم/,
    token: i18n.getFixedT('ar')('controls:repeaters.tsParameters.tsToken'),
    parameter: new RegExp(`^${i18n.getFixedT('ar')('controls:repeaters.tsParameters.tsParameter')}`),
    costParameter: i18n.getFixedT('ar')('resources:traffic-sources.fields.cost_parameter'),
    postbackOf: 'رابط الإشعار الراجع لـ PropellerAds',
    offerParams: i18n.getFixedT('ar')('resources:affiliate-networks.fields.offer_url_params'),
    clickId: i18n.getFixedT('ar')('resources:affiliate-networks.fields.postback_params.click_id'),
    payout: i18n.getFixedT('ar')('resources:affiliate-networks.fields.postback_params.payout'),
    save: 'حفظ',
  },
};

describe.each(Object.entries(TEXTS))('start from a template (%s)', (language, texts) => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
    await act(() => i18n.changeLanguage('en'));
  });

  it("fills a new traffic source with PropellerAds' parameters, cost parameter and postback URL", async () => {
    await act(() => i18n.changeLanguage(language));
    const saved = answer();
    renderCreate(trafficSourceScreens, '/admin/traffic-sources');
    await chooseTemplate(texts.template, 'PropellerAds');

    expect(recordName().value).toBe('PropellerAds');
    expect(values(texts.parameter)).toEqual(['click_id', 'zone_id', 'campaign_id', 'banner_id', 'geo', 'os', 'cost']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: PropellerAds' own macros.
    expect(values(texts.token).slice(0, 2)).toEqual(['${SUBID}', '${zoneid}']);
    expect(value(texts.costParameter)).toBe('cost');
    expect(value(texts.postbackOf)).toBe(
      'https://ad.propellerads.com/conversion.php?aid=YOUR_AID&pid=&tid=YOUR_TID&visitor_id={var1}&payout={payout}',
    );

    // What was filled can be changed before the save, and the choice itself is not saved.
    fireEvent.change(recordName(), { target: { value: 'Propeller push' } });
    fireEvent.click(screen.getByRole('button', { name: texts.save }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ name: 'Propeller push', cost_parameter: 'cost' });
    expect(saved[0]?.parameters).toHaveLength(7);
    expect(saved[0]).not.toHaveProperty('template');
  });

  it("fills a new affiliate network with AdCombo's offer URL parameters and postback macros", async () => {
    await act(() => i18n.changeLanguage(language));
    answer();
    renderCreate(affiliateNetworkScreens, '/admin/affiliate-networks');
    await chooseTemplate(texts.template, 'AdCombo');

    expect(value(texts.name)).toBe('AdCombo');
    expect(value(texts.offerParams)).toBe('subacc={clickid}');
    expect(value(texts.clickId)).toBe('subacc');
    expect(value(texts.payout)).toBe('revenue');
    expect(
      screen.getByDisplayValue(/\/postback\?clickid=\{subacc\}&payout=\{revenue\}&status=\{status\}&txid=\{trans_id\}/),
    ).toBeVisible();
  });
});

describe('a traffic source from a template keeps its postback URL and cost model', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
    await act(() => i18n.changeLanguage('en'));
  });

  /** The server with one postback event, answering a save with what was sent. */
  function answerWithEvent() {
    const saved: Record<string, unknown>[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input);
        if (init?.method === 'POST') {
          const body = JSON.parse(String(init.body)) as Record<string, unknown>;
          saved.push(body);
          return new Response(JSON.stringify({ ...body, external_id: 'new-1' }));
        }
        if (url.startsWith('/api/postback-events')) {
          return new Response(JSON.stringify({ list: [{ external_id: 'pe-1', name: 'Sale' }], total: 1 }));
        }
        return new Response(JSON.stringify({ list: [], total: 0 }));
      }),
    );
    return saved;
  }

  it.each(['en', 'ar'])('puts the URL in a postback row that is saved, and picks Auto (%s)', async (language) => {
    await act(() => i18n.changeLanguage(language));
    const t = i18n.getFixedT(language);
    const saved = answerWithEvent();
    renderCreate(trafficSourceScreens, '/admin/traffic-sources');
    // The events are known before the choice, as when someone picks a template after the page loaded.
    await screen.findByText(t('controls:repeaters.postbackEvents.add'));
    await chooseTemplate(t('resources:templates.label'), 'PropellerAds');

    const url =
      'https://ad.propellerads.com/conversion.php?aid=YOUR_AID&pid=&tid=YOUR_TID&visitor_id={var1}&payout={payout}';
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: t('controls:repeaters.postbackEvents.postbackUrl') })).toHaveValue(
        url,
      ),
    );
    expect(
      screen.getByRole('switch', { name: t('controls:repeaters.postbackEvents.sendToTrafficSource') }),
    ).toBeChecked();
    // PropellerAds passes each click's cost: the source is billed by it.
    expect(
      screen.getByRole('radio', { name: (name) => name.startsWith(t('resources:costModels.Auto.label')) }),
    ).toBeChecked();

    fireEvent.click(screen.getByRole('button', { name: t('resources:form.save') }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({
      cost_model: 'Auto',
      postback_events: [{ postback_event_external_id: 'pe-1', postback_url: url, send_to_traffic_source: true }],
    });
  });

  it('keeps CPC for a source that passes no cost, and follows a second choice of template', async () => {
    answerWithEvent();
    renderCreate(trafficSourceScreens, '/admin/traffic-sources');
    await screen.findByText('Add postback event');
    await chooseTemplate('Start from a template', 'Microsoft Advertising (Bing)');
    expect(screen.getByRole('radio', { name: (name) => name.startsWith('Cost per click (CPC)') })).toBeChecked();
    await chooseTemplate('Start from a template', 'PropellerAds');
    await chooseTemplate('Start from a template', 'Clickadu');
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Postback URL' })).toHaveValue(
        'https://ad.clickadu.com/conversion.php?aid=YOUR_ID&pid=YOUR_PID&tid={var1}&revenue={payout}',
      ),
    );
    expect(screen.getAllByRole('textbox', { name: 'Postback URL' })).toHaveLength(1);
  });
});
