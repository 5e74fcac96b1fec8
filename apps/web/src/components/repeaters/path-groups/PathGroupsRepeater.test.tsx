import {
  ALL_CONDITION_TEXT,
  offers,
  pruneCondition,
  trackerLanders,
  trackerOffers,
  ZFlowForm,
} from '@switchyard/domain';
import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { resourceKeys } from '../../../api/queryKeys';
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
    expect(within(first).getByText('countryCode IN (US, CA) AND NOT (device IN (mobile))')).toBeVisible();
    expect(within(second).getByText('Disabled')).toBeVisible();
    expect(within(second).queryByText('All offers disabled')).toBeNull();
    expect(within(second).getByText('All Condition')).toBeVisible();
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
});
