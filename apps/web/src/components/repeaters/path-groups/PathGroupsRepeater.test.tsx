import {
  ALL_CONDITION_TEXT,
  offers,
  pruneCondition,
  trackerLanders,
  trackerOffers,
  ZFlowForm,
} from '@switchyard/domain';
import { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { resourceKeys } from '../../../api/queryKeys';
import i18n from '../../../i18n';
import { renderControl } from '../renderControl';
import { PathGroupsRepeater } from './PathGroupsRepeater';
import type { ApiPath, PathGroup, TrackerPath } from './pathGroupRows';

const US_CA_NOT_MOBILE = JSON.stringify(
  pruneCondition({
    type: 'AndCondition',
    data: {
      Conditions: [
        { type: 'InCondition', data: { Var: 'countryCode', Operation: 'IN', Values: ['US', 'CA'] } },
        {
          type: 'NotCondition',
          data: { Condition: { type: 'InCondition', data: { Var: 'device', Operation: 'IN', Values: ['mobile'] } } },
        },
      ],
    },
  }),
);

function withOffers(list: { external_id: string; name: string; enabled: boolean }[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(resourceKeys.lookup(offers), { list, total: list.length });
  for (const empty of [trackerOffers, trackerLanders])
    client.setQueryData(resourceKeys.lookup(empty), { list: [], total: 0 });
  return client;
}

const OFFERS = [
  { external_id: 'off-a', name: 'Offer A', enabled: false },
  { external_id: 'off-b', name: 'Offer B', enabled: false },
  { external_id: 'on-c', name: 'Offer C', enabled: true },
];

const apiPath = (id: string, offer: string): ApiPath => ({
  id,
  name: `Path ${id}`,
  enabled: true,
  weight: 100,
  daily_cap: 0,
  postback_daily_cap: 0,
  subaff: '',
  offer_external_id: offer,
});

const group = (id: string, name: string, paths: ApiPath[], condition = ALL_CONDITION_TEXT): PathGroup<ApiPath> => ({
  id,
  name,
  enabled: true,
  priority: 0,
  condition,
  paths,
});

const element = { name: 'path_groups', input: { flowType: 'api' } };
const groupRows = () => screen.getAllByTestId('path-group');

describe('path-groups-repeater', { timeout: 15_000 }, () => {
  it('shows each header: name, status, "all offers disabled" and the condition read as one line', () => {
    renderControl(
      PathGroupsRepeater,
      [
        group('1', 'North America', [apiPath('p1', 'off-a'), apiPath('p2', 'off-b')], US_CA_NOT_MOBILE),
        { ...group('2', 'Everyone else', [apiPath('p3', 'off-a'), apiPath('p4', 'on-c')]), enabled: false },
      ],
      { element, queryClient: withOffers(OFFERS) },
    );
    const [first, second] = groupRows() as [HTMLElement, HTMLElement];
    expect(within(first).getByText('North America')).toBeVisible();
    expect(within(first).getByText('Enabled')).toBeVisible();
    expect(within(first).getByText('All offers disabled')).toBeVisible();
    expect(within(first).getByText('Country is US or CA and not (Device is mobile)')).toBeVisible();
    expect(within(second).getByText('Disabled')).toBeVisible();
    expect(within(second).queryByText('All offers disabled')).toBeNull();
    expect(within(second).getByText('Everyone')).toBeVisible();
  });

  it('starts loaded groups with paths collapsed, opens empty and new ones, and toggles on request', () => {
    renderControl(PathGroupsRepeater, [group('1', 'Routed', [apiPath('p1', 'on-c')]), group('2', 'Empty', [])], {
      element,
      queryClient: withOffers(OFFERS),
    });
    expect(screen.getAllByRole('textbox', { name: 'Group name' })).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Details of Routed' }).getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByRole('button', { name: 'Details of Empty' }).getAttribute('aria-expanded')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Add path group' }));
    expect(screen.getAllByRole('textbox', { name: 'Group name' })).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Details of Path group 3' }).getAttribute('aria-expanded')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Details of Routed' }));
    expect(screen.getAllByRole('textbox', { name: 'Group name' })).toHaveLength(3);
  });

  it('duplicates a group last with new ids and rewritten priorities', () => {
    const view = renderControl(
      PathGroupsRepeater,
      [group('1', 'First', [apiPath('p1', 'on-c')]), group('2', 'Second', [])],
      { element, queryClient: withOffers(OFFERS) },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Duplicate row 1' }));
    const stored = view.last() as PathGroup<ApiPath>[];
    expect(stored.map((row) => [row.name, row.priority])).toEqual([
      ['First', 0],
      ['Second', 1],
      ['First', 2],
    ]);
    expect(stored[2]?.id).not.toBe('1');
    expect(stored[2]?.paths[0]?.id).not.toBe('p1');
    expect(groupRows().map((row) => within(row).getByTestId('path-group-name').textContent)).toEqual([
      'First',
      'Second',
      'First',
    ]);
    // The copy is new, so it opens.
    expect(screen.getAllByRole('button', { name: 'Details of First' })[1]?.getAttribute('aria-expanded')).toBe('true');
  });

  it('adds an API path on the first offer, enabled as that offer is, with weight 100 and caps 0', () => {
    const view = renderControl(PathGroupsRepeater, [group('1', 'Only', [])], {
      element,
      queryClient: withOffers(OFFERS),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add path' }));
    const stored = view.last() as PathGroup<ApiPath>[];
    expect(stored[0]?.paths[0]).toMatchObject({
      offer_external_id: 'off-a',
      enabled: false,
      weight: 100,
      daily_cap: 0,
      postback_daily_cap: 0,
    });
    expect(screen.getByRole('textbox', { name: 'Regs Daily Cap' })).toHaveValue('0');
    expect(screen.getByRole('textbox', { name: 'Postbacks Daily Cap' })).toHaveValue('0');
    expect(screen.getByText('All offers disabled')).toBeVisible();
    expect(ZFlowForm.safeParse({ name: 'Flow', path_groups: stored }).success).toBe(true);
  });

  it('gives a tracker path offer and lander rows of weight 100, enabled, showing weight once chosen', () => {
    const path: TrackerPath = {
      id: 'p1',
      name: 'Rotation',
      enabled: true,
      weight: 100,
      daily_cap: 0,
      postback_daily_cap: 0,
      subaff: '',
      redirect_mode: null,
      offers: [],
      landers: [{ id: 'l1', lander_external_id: 'lander-1', weight: 40, enabled: true }],
    };
    const view = renderControl(PathGroupsRepeater, [{ ...group('1', 'Tracker', []), paths: [path] }], {
      element: { name: 'path_groups', input: { flowType: 'tracker' } },
      queryClient: withOffers([]),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Details of Tracker' }));
    fireEvent.click(screen.getByRole('button', { name: 'Details of Rotation' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add offer' }));
    const stored = view.last() as PathGroup<TrackerPath>[];
    expect(stored[0]?.paths[0]?.offers[0]).toMatchObject({ offer_external_id: '', weight: 100, enabled: true });
    const [offerRow] = screen.getAllByTestId('path-offers-row') as [HTMLElement];
    expect(within(offerRow).queryByRole('textbox', { name: 'Weight' })).toBeNull();
    const [landerRow] = screen.getAllByTestId('path-landers-row') as [HTMLElement];
    expect((within(landerRow).getByRole('textbox', { name: 'Weight' }) as HTMLInputElement).value).toBe('40');
  });

  describe('share of traffic beside each weight', () => {
    const LONG_OFFER = `Sweepstakes ${'iPhone 16 Pro Max '.repeat(6)}`.trim();
    const trackerClient = () => {
      const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      const list = [
        { external_id: 'o1', name: LONG_OFFER, enabled: true },
        { external_id: 'o2', name: 'Dating trial', enabled: true },
        { external_id: 'o3', name: 'VPN plan', enabled: true },
      ];
      client.setQueryData(resourceKeys.lookup(trackerOffers), { list, total: list.length });
      client.setQueryData(resourceKeys.lookup(trackerLanders), { list: [], total: 0 });
      client.setQueryData(resourceKeys.lookup(offers), { list: [], total: 0 });
      return client;
    };
    const trackerPath = (id: string, weight: number, enabled: boolean, rows: [string, number, boolean][]) =>
      ({
        id,
        name: `Path ${id}`,
        enabled,
        weight,
        daily_cap: 0,
        postback_daily_cap: 0,
        subaff: '',
        offers: rows.map(([offer, rowWeight, rowEnabled], index) => ({
          id: `${id}-${index}`,
          offer_external_id: offer,
          weight: rowWeight,
          enabled: rowEnabled,
        })),
        landers: [],
        redirect_mode: null,
      }) satisfies TrackerPath;
    // Paths 60 : 30 and a disabled one; the first path's offers 70 : 30 and a disabled one.
    const flow = (): PathGroup<TrackerPath>[] => [
      {
        ...group('g1', 'Rotation', []),
        paths: [
          trackerPath('a', 60, true, [
            ['o1', 70, true],
            ['o2', 30, true],
            ['o3', 500, false],
          ]),
          trackerPath('b', 30, true, [['o2', 100, true]]),
          trackerPath('c', 900, false, [['o3', 100, true]]),
        ],
      },
    ];
    const trackerElement = { name: 'path_groups', input: { flowType: 'tracker' } };
    const shareOf = (row: HTMLElement) =>
      within(row)
        .queryAllByTestId('traffic-share')
        .map((node) => node.textContent);

    it("shows each path's share of its group and each offer's share of its path, live as a weight is typed", () => {
      renderControl(PathGroupsRepeater, flow(), { element: trackerElement, queryClient: trackerClient() });
      fireEvent.click(screen.getByRole('button', { name: 'Details of Rotation' }));
      const [pathA, pathB, pathC] = screen.getAllByTestId('path') as [HTMLElement, HTMLElement, HTMLElement];
      // Closed paths show their share in their first line; the disabled one shows none.
      expect(shareOf(pathA)).toEqual(['66.7% of traffic']);
      expect(shareOf(pathB)).toEqual(['33.3% of traffic']);
      expect(shareOf(pathC)).toEqual([]);

      fireEvent.click(screen.getByRole('button', { name: 'Details of Path a' }));
      const offerRows = () => within(pathA).getAllByTestId('path-offers-row');
      expect(offerRows().map(shareOf)).toEqual([['70% of traffic'], ['30% of traffic'], []]);
      // The offer's whole name reads in its row.
      expect(within(offerRows()[0] as HTMLElement).getAllByText(LONG_OFFER)[0]).toBeVisible();
      // Beside the path's weight field too.
      expect(shareOf(pathA)).toEqual(['66.7% of traffic', '66.7% of traffic', '70% of traffic', '30% of traffic']);

      fireEvent.change(within(offerRows()[0] as HTMLElement).getByRole('textbox', { name: 'Weight' }), {
        target: { value: '90' },
      });
      expect(offerRows().map(shareOf)).toEqual([['75% of traffic'], ['25% of traffic'], []]);

      const pathWeight = within(pathA).getAllByRole('textbox', { name: 'Weight' })[0] as HTMLElement;
      fireEvent.change(pathWeight, { target: { value: '90' } });
      expect(shareOf(pathB)).toEqual(['25% of traffic']);
      expect(within(pathA).getAllByTestId('traffic-share')[0]).toHaveTextContent('75% of traffic');

      // Switching an offer off takes it out of the sums.
      fireEvent.click(within(offerRows()[1] as HTMLElement).getByRole('switch', { name: 'Enabled' }));
      expect(offerRows().map(shareOf)).toEqual([['100% of traffic'], [], []]);
    });

    it('shows the shares in Arabic too', async () => {
      await act(() => i18n.changeLanguage('ar'));
      try {
        const t = i18n.getFixedT('ar');
        renderControl(PathGroupsRepeater, flow(), { element: trackerElement, queryClient: trackerClient() });
        fireEvent.click(screen.getByRole('button', { name: t('controls:pathGroups.details', { name: 'Rotation' }) }));
        const [pathA, pathB] = screen.getAllByTestId('path') as [HTMLElement, HTMLElement];
        const percent = (share: number) =>
          t('controls:pathGroups.share', {
            share: new Intl.NumberFormat('ar', { style: 'percent', maximumFractionDigits: 1 }).format(share),
          });
        expect(percent(0.25)).toContain('من الزيارات');
        expect(shareOf(pathB)).toEqual([percent(1 / 3)]);
        fireEvent.click(screen.getByRole('button', { name: t('controls:pathGroups.details', { name: 'Path a' }) }));
        fireEvent.change(
          within(within(pathA).getAllByTestId('path-offers-row')[1] as HTMLElement).getByRole('textbox', {
            name: t('controls:pathGroups.weight'),
          }),
          { target: { value: '210' } },
        );
        expect(within(pathA).getAllByTestId('path-offers-row').map(shareOf)).toEqual([
          [percent(0.25)],
          [percent(0.75)],
          [],
        ]);
      } finally {
        await act(() => i18n.changeLanguage('en'));
      }
    });
  });
});
