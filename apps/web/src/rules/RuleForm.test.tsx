import { notifications } from '@mantine/notifications';
import type { Rule, RulePreviewAnswer } from '@switchyard/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../api/client';
import { answer, renderRules } from './testRules';

const PREVIEW: RulePreviewAnswer = {
  rule_id: null,
  matched: 2,
  rows: [
    {
      value: 'z-101',
      label: 'z-101',
      values: { clicks: 7, conversions: 0 },
      actions: [{ type: 'exclude', done: false, detail: 'var2=z-101 excluded from Summer push' }],
    },
    {
      value: 'z-202',
      label: 'z-202',
      values: { clicks: 9, conversions: 0 },
      actions: [{ type: 'exclude', done: false, detail: 'cooldown' }],
    },
  ],
};

function fill(label: string, value: string, index = 0) {
  fireEvent.change(screen.getAllByRole('textbox', { name: label })[index] as HTMLElement, { target: { value } });
}

describe('the rule form', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    notifications.clean();
  });

  it('shows the API’s field errors under their fields', async () => {
    const calls = answer({
      'POST rules': {
        status: 400,
        body: {
          message: 'Invalid input',
          errors: { window: ['Use 15 to 43200 minutes (30 days).'], 'conditions.0.value': ['Use a number.'] },
        },
      },
    });
    renderRules('/tracker/rules/new');
    fill('Name', 'Zones that never convert');
    fill('Window', '5');
    fireEvent.click(screen.getByRole('combobox', { name: 'Unit' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Minutes' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    const window = screen.getByRole('textbox', { name: 'Window' });
    expect(await screen.findByText('Use 15 to 43200 minutes (30 days).')).toBeVisible();
    expect(window).toHaveAccessibleDescription('Use 15 to 43200 minutes (30 days).');
    expect(window).toBeInvalid();
    expect(screen.getByRole('textbox', { name: 'Value' })).toHaveAccessibleDescription('Use a number.');
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeValid();
    expect(screen.getByRole('alert')).toHaveTextContent('Some fields need a change');
    // The empty value went as null (NaN in JSON), for the server to name; the window in minutes.
    const sent = calls.find((call) => call.method === 'POST')?.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      name: 'Zones that never convert',
      window: 5,
      conditions: [{ metric: 'clicks', value: null }],
    });
  });

  it('previews the unsaved rule: the matching rows, their values and each action', async () => {
    const calls = answer({ 'POST rules/preview': { body: PREVIEW } });
    renderRules('/tracker/rules/new');
    fill('Name', 'Zones that never convert');
    fill('Value', '5');
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));

    const table = await screen.findByRole('table', { name: 'What it would do now' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'z-101Clicks: 7Conversions: 0Would runExclude — var2=z-101 excluded from Summer push',
      'z-202Clicks: 9Conversions: 0SkippedExclude — in its cooldown',
    ]);
    expect(screen.getByRole('status')).toHaveTextContent('Matching rows: 2. Nothing has been changed.');
    const sent = calls.find((call) => call.path === 'rules/preview')?.body;
    expect(sent).toMatchObject({ name: 'Zones that never convert', window: 1440, conditions: [{ value: 5 }] });
    // Nothing was saved.
    expect(calls.filter((call) => call.path === 'rules' && call.method !== 'GET')).toEqual([]);
  });

  it('turns off the actions that do not fit the grouping, and asks a webhook for its address', async () => {
    answer({});
    renderRules('/tracker/rules/new');
    fireEvent.click(screen.getByRole('combobox', { name: 'Action' }));
    expect(await screen.findByRole('option', { name: 'Pause' })).toHaveAttribute('data-combobox-disabled', 'true');
    fireEvent.click(screen.getByRole('option', { name: 'Webhook' }));
    expect(await screen.findByRole('textbox', { name: 'Webhook address' })).toBeVisible();
  });
});

describe('a saved rule’s screen', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
  });

  const RULE: Rule = {
    id: 7,
    name: 'Pause weak paths',
    scope: { kind: 'workspace' },
    group_by: 'path',
    window: 180,
    conditions: [{ metric: 'roi', operator: '<', value: -50, min_clicks: 200 }],
    actions: [{ type: 'pause' }],
    schedule: 5,
    cooldown: 60,
    enabled: true,
    created_at: '2026-11-28T10:00:00.000Z',
    updated_at: '2026-11-28T10:00:00.000Z',
    last_run_at: '2026-11-28T11:00:00.000Z',
  };

  it('reads the rule into the form and lists its runs, with what was skipped and why', async () => {
    answer({
      'GET rules/7': { body: RULE },
      'GET rules/7/runs': {
        body: {
          total: 1,
          list: [
            {
              id: 3,
              started_at: '2026-11-28T11:00:00.000Z',
              window_start: '2026-11-28T08:00:00.000Z',
              matched: 1,
              error: null,
              rows: [
                {
                  value: 'p1',
                  label: 'Path A',
                  values: { clicks: 250, roi: -80 },
                  actions: [
                    {
                      type: 'pause',
                      done: false,
                      detail: 'not paused: path Path A is the last enabled path of its group',
                    },
                    { type: 'notify', done: true, detail: 'notified instead of pausing the last one enabled' },
                  ],
                },
              ],
            },
          ],
        },
      },
    });
    renderRules('/tracker/rules/edit/7');
    expect(await screen.findByRole('textbox', { name: 'Name' })).toHaveValue('Pause weak paths');
    expect(screen.getByRole('textbox', { name: 'Window' })).toHaveValue('3');
    expect(screen.getByRole('combobox', { name: 'Unit' })).toHaveValue('Hours');
    expect(screen.getByRole('textbox', { name: 'Value' })).toHaveValue('-50');

    const run = await screen.findByTestId('rule-run');
    expect(within(run).getByText('Matching rows: 1')).toBeVisible();
    const cells = within(run).getAllByRole('row')[1]?.textContent;
    expect(cells).toBe(
      'Path Ap1Clicks: 250ROI: -80SkippedPause — not paused, the last one enabled: path Path A is the last enabled path of its groupDoneNotify — notified instead of pausing the last one enabled',
    );
  });
});
