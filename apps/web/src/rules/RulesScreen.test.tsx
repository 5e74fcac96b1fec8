import type { Rule } from '@switchyard/domain';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../api/client';
import { answer, RULE_ADMIN, renderRules } from './testRules';

const ZONES: Rule = {
  id: 1,
  name: 'Zones that never convert',
  scope: { kind: 'campaign', id: 'c1' },
  group_by: 'var2',
  window: 1440,
  conditions: [
    { metric: 'clicks', operator: '>=', value: 5, min_clicks: 5 },
    { metric: 'conversions', operator: '=', value: 0, min_clicks: 5 },
  ],
  actions: [{ type: 'exclude' }, { type: 'set_weight', weight: 0 }],
  schedule: 5,
  cooldown: 60,
  enabled: false,
  created_at: '2026-11-28T10:00:00.000Z',
  updated_at: '2026-11-28T10:00:00.000Z',
  last_run_at: null,
};

describe('the rules list', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
  });

  it('shows each rule: its name and scope, what it watches, what it does, its state and last run', async () => {
    answer({
      'GET rules': { body: { list: [ZONES], total: 1 } },
      'GET tracker/campaigns': { body: { list: [{ external_id: 'c1', name: 'Summer push' }], total: 1 } },
    });
    renderRules('/tracker/rules');
    // The campaign's name comes with the campaigns' lookup.
    await screen.findByText('Campaign: Summer push');
    const table = screen.getByRole('table', { name: 'Rules' });
    const cells = within(within(table).getAllByRole('row')[1] as HTMLElement).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toEqual([
      'Zones that never convertCampaign: Summer push',
      'Each Custom var 2 over the last 1 dayWhen Clicks ≥ 5 and Conversions = 0',
      'Exclude and Set weight to 0',
      'Off',
      'Not yet',
    ]);
    expect(within(table).getByRole('link', { name: 'Zones that never convert' })).toHaveAttribute(
      'href',
      '/tracker/rules/edit/1',
    );
    expect(screen.getByRole('link', { name: 'Add rule' })).toBeVisible();
  });

  it('offers no “Add rule” to a user who may only read rules', async () => {
    answer({ 'GET rules': { body: { list: [], total: 0 } } });
    renderRules('/tracker/rules', { ...RULE_ADMIN, permissions: ['/tracker/rule/get'] });
    expect(await screen.findByText(/No rules yet/)).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Add rule' })).toBeNull();
  });
});
