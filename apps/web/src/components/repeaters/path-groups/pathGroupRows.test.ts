import { ALL_CONDITION_TEXT, pruneCondition, ZFlowForm, ZTrackerFlowForm } from '@switchyard/domain';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type RepeaterRowsController, useRepeaterRows } from '../useRepeaterRows';
import {
  type ApiPath,
  allOffersDisabled,
  createApiPath,
  createPathGroup,
  createTrackerPath,
  duplicatePathGroup,
  errorsUnder,
  normalizePathGroups,
  type PathGroup,
  pathGroupStartsExpanded,
  pathStartsExpanded,
  routeRowExpanded,
  type TrackerPath,
} from './pathGroupRows';

const US_CA = '{"type":"InCondition","data":{"Var":"countryCode","Operation":"IN","Values":["US","CA"]}}';
// The same tree as a person might have stored it: spaced out.
const US_CA_SPACED = JSON.stringify(JSON.parse(US_CA), null, 2);

const apiPath = (id: string, offer: string, enabled = true): ApiPath => ({
  id,
  name: '',
  enabled,
  weight: 100,
  daily_cap: 0,
  postback_daily_cap: 0,
  subaff: '',
  offer_external_id: offer,
});

const group = (
  id: string,
  priority: number,
  paths: ApiPath[] = [],
  condition = ALL_CONDITION_TEXT,
): PathGroup<ApiPath> => ({
  id,
  name: `Group ${id}`,
  enabled: true,
  priority,
  condition,
  paths,
});

function renderGroups(initial: PathGroup<ApiPath>[]) {
  let stored = initial;
  const hook = renderHook(() =>
    useRepeaterRows<PathGroup<ApiPath>>({
      rows: stored,
      onChange: (next) => {
        stored = next;
      },
      createRow: createPathGroup,
      duplicateRow: duplicatePathGroup,
      normalize: normalizePathGroups,
    }),
  );
  return {
    act: (change: (rows: RepeaterRowsController<PathGroup<ApiPath>>) => void) => {
      act(() => change(hook.result.current));
      hook.rerender();
    },
    value: () => stored,
  };
}

describe('path-group rows', () => {
  it('rewrites priorities to the row index and re-serialises conditions after a drag', () => {
    const groups = renderGroups([group('a', 0, [], US_CA_SPACED), group('b', 1), group('c', 2)]);
    groups.act((rows) => rows.move(0, 2));
    expect(groups.value().map((row) => [row.id, row.priority])).toEqual([
      ['b', 0],
      ['c', 1],
      ['a', 2],
    ]);
    expect(groups.value()[2]?.condition).toBe(JSON.stringify(pruneCondition(JSON.parse(US_CA))));
    expect(groups.value()[2]?.condition).not.toBe(US_CA_SPACED);
  });

  it('duplicates a group last, with new ids for it and its paths, and the next priority', () => {
    const groups = renderGroups([group('a', 0, [apiPath('p1', 'o1'), apiPath('p2', 'o2')]), group('b', 1)]);
    groups.act((rows) => rows.duplicate(0));
    const [first, second, copy] = groups.value();
    expect([first?.id, second?.id]).toEqual(['a', 'b']);
    expect(copy?.priority).toBe(2);
    expect(copy?.name).toBe('Group a');
    expect(copy?.id).not.toBe('a');
    const ids = groups.value().flatMap((row) => [row.id, ...row.paths.map((path) => path.id)]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(copy?.paths.map((path) => path.offer_external_id)).toEqual(['o1', 'o2']);
    // What the editor stores is what the flow form accepts.
    expect(ZFlowForm.safeParse({ name: 'Flow', path_groups: groups.value() }).success).toBe(true);
  });

  it('duplicates a tracker path group with new ids for its offer and lander rows', () => {
    const path: TrackerPath = {
      ...createTrackerPath(),
      offers: [{ id: 'r1', offer_external_id: 'to1', weight: 100, enabled: true }],
      landers: [{ id: 'r2', lander_external_id: 'l1', weight: 50, enabled: true }],
    };
    const original: PathGroup<TrackerPath> = { ...createPathGroup<TrackerPath>(), paths: [path] };
    const copy = duplicatePathGroup(original);
    expect(copy.paths[0]?.offers[0]?.id).not.toBe('r1');
    expect(copy.paths[0]?.landers[0]).toMatchObject({ lander_external_id: 'l1', weight: 50 });
    expect(copy.paths[0]?.landers[0]?.id).not.toBe('r2');
    expect(ZTrackerFlowForm.safeParse({ name: 'Flow', path_groups: [original, copy] }).success).toBe(true);
  });

  it('makes new rows with the defaults of §3.4', () => {
    expect(createApiPath({ value: 'o1', enabled: false })).toMatchObject({
      enabled: false,
      weight: 100,
      daily_cap: 0,
      postback_daily_cap: 0,
      subaff: '',
      offer_external_id: 'o1',
    });
    expect(createApiPath()).toMatchObject({ enabled: true, offer_external_id: '' });
    expect(createPathGroup()).toMatchObject({ enabled: true, condition: ALL_CONDITION_TEXT, paths: [] });
    const first = createPathGroup();
    expect(createPathGroup().id).not.toBe(first.id);
  });

  const enabledOffers: Record<string, boolean> = { on: true, off: false, off2: false };
  const offerEnabled = (id: string) => enabledOffers[id];
  const trackerPath = (...flags: boolean[]): TrackerPath => ({
    ...createTrackerPath(),
    offers: flags.map((enabled, index) => ({ id: `r${index}`, offer_external_id: `t${index}`, weight: 100, enabled })),
  });

  it.each([
    ['no paths', [], false],
    ['every API offer disabled', [apiPath('1', 'off'), apiPath('2', 'off2')], true],
    ['one API offer enabled', [apiPath('1', 'off'), apiPath('2', 'on')], false],
    ['an offer the lookup does not know', [apiPath('1', 'unknown')], false],
    ['every tracker offer row disabled', [trackerPath(false, false), trackerPath(false)], true],
    ['one tracker offer row enabled', [trackerPath(false, true)], false],
    ['tracker paths without offer rows', [trackerPath()], false],
  ] as const)('"all offers disabled" with %s', (_, paths, expected) => {
    const row = { ...createPathGroup(), paths: [...paths] } as PathGroup;
    expect(allOffersDisabled(row, offerEnabled)).toBe(expected);
  });

  it.each([
    ['a loaded group with paths', [apiPath('1', 'on')], false, false],
    ['a loaded group without paths', [], false, true],
    ['a new group', [apiPath('1', 'on')], true, true],
  ] as const)('%s starts expanded or not', (_, paths, isNew, expected) => {
    expect(pathGroupStartsExpanded({ ...createPathGroup(), paths: [...paths] }, isNew)).toBe(expected);
  });

  it('opens paths whose key fields are empty, and route rows once they name an offer or lander', () => {
    expect(pathStartsExpanded(apiPath('1', 'on'), false)).toBe(false);
    expect(pathStartsExpanded(apiPath('1', ''), false)).toBe(true);
    expect(pathStartsExpanded(apiPath('1', 'on'), true)).toBe(true);
    expect(pathStartsExpanded(trackerPath(true), false)).toBe(false);
    expect(pathStartsExpanded(createTrackerPath(), false)).toBe(true);
    expect(routeRowExpanded('')).toBe(false);
    expect(routeRowExpanded('lander-1')).toBe(true);
  });

  it('hands each group the messages under it', () => {
    expect(errorsUnder({ '1.paths.0.weight': 'Too large', '10.name': 'Too long' }, '1')).toEqual({
      'paths.0.weight': 'Too large',
    });
    expect(errorsUnder({ '0.name': 'x' }, '1')).toBeUndefined();
  });
});
