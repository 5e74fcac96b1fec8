import { ALL_CONDITION_TEXT, offers, trackerLanders, trackerOffers } from '@switchyard/domain';
import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resourceKeys } from '../../../api/queryKeys';
import i18n from '../../../i18n';
import { renderControl } from '../renderControl';
import { PathGroupsRepeater } from './PathGroupsRepeater';
import type { ApiPath, PathGroup, TrackerPath } from './pathGroupRows';

function emptyLookups() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  for (const resource of [offers, trackerOffers, trackerLanders]) {
    client.setQueryData(resourceKeys.lookup(resource), { list: [], total: 0 });
  }
  return client;
}

const base = { id: 'p1', name: 'Main', enabled: true, weight: 100, daily_cap: 0, postback_daily_cap: 0, subaff: '' };
const trackerPath: TrackerPath = { ...base, offers: [], landers: [], redirect_mode: null };
const apiPath: ApiPath = { ...base, offer_external_id: '' };
const groupOf = <P extends ApiPath | TrackerPath>(path: P): PathGroup<P> => ({
  id: 'g1',
  name: 'Everyone',
  enabled: true,
  priority: 0,
  condition: ALL_CONDITION_TEXT,
  paths: [path],
});

/** The flow editor of one side, with its group and path opened and a rule added to the group's condition. */
function openEditor(flowType: 'api' | 'tracker') {
  const group = flowType === 'tracker' ? groupOf(trackerPath) : groupOf(apiPath);
  renderControl(PathGroupsRepeater, [group], {
    element: { name: 'path_groups', input: { flowType } },
    queryClient: emptyLookups(),
  });
  const details = (name: string) => i18n.t('controls:pathGroups.details', { name });
  for (const name of ['Everyone', 'Main']) {
    const toggle = screen.getByRole('button', { name: details(name) });
    if (toggle.getAttribute('aria-expanded') !== 'true') fireEvent.click(toggle);
  }
  fireEvent.click(screen.getByRole('button', { name: i18n.t('controls:conditionBuilder.addRule') }));
  fireEvent.click(screen.getByRole('combobox', { name: i18n.t('controls:conditionBuilder.field') }));
  return screen.getAllByRole('option').map((option) => option.textContent);
}

const label = (key: string) => i18n.t(`controls:pathGroups.${key}`);
const field = (name: string) => i18n.t(`controls:conditionBuilder.fields.${name}`);
const LEAD_FIELDS = ['regsCount', 'payoutsCount', 'emailRate', 'age'];

describe.each(['en', 'ar'])('tracker screens show tracker fields only (%s)', (language) => {
  beforeEach(async () => {
    await i18n.changeLanguage(language);
  });
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('a tracker path keeps Subaff and Postbacks Daily Cap, which clicks use, and hides Regs Daily Cap', () => {
    const options = openEditor('tracker');
    expect(screen.getByRole('textbox', { name: label('subaff') })).toBeVisible();
    expect(screen.getByRole('textbox', { name: label('postbackDailyCap') })).toBeVisible();
    expect(screen.queryByRole('textbox', { name: label('dailyCap') })).toBeNull();
    // A tracker condition offers what a click carries, none of a lead's own fields.
    expect(options).toContain(field('countryCode'));
    expect(options).toContain(field('timeOfDay'));
    for (const lead of LEAD_FIELDS) expect(options).not.toContain(field(lead));
  });

  it('an API path still shows all three, and its conditions the lead rules', () => {
    const options = openEditor('api');
    for (const key of ['subaff', 'dailyCap', 'postbackDailyCap']) {
      expect(screen.getByRole('textbox', { name: label(key) })).toBeVisible();
    }
    for (const lead of LEAD_FIELDS) expect(options).toContain(field(lead));
  });
});
