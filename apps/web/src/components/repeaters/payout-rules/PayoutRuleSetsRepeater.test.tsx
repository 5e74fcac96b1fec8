import { ALL_CONDITION_TEXT, ZPayoutRuleSets } from '@switchyard/domain';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../../../i18n';
import type { FormControlProps } from '../../form/types';
import { renderControl } from '../renderControl';
import { PayoutRuleSetsRepeater } from './PayoutRuleSetsRepeater';
import { type CampaignPostbackEvent, type PayoutRuleSet, syncPayoutRuleSets } from './payoutRuleSets';

const LEAD = { value: 'ev_lead', label: 'Lead' };
const SALE = { value: 'ev_sale', label: 'Sale' };
const DE = JSON.stringify({ type: 'InCondition', data: { Var: 'countryCode', Operation: 'IN', Values: ['DE'] } });

function withEvents(events: CampaignPostbackEvent[]) {
  return function WithEvents(props: FormControlProps) {
    return <PayoutRuleSetsRepeater {...props} events={events} flowType="api" />;
  };
}

const set = (event: CampaignPostbackEvent, rules: PayoutRuleSet['rules'] = [], default_payout = 0): PayoutRuleSet => ({
  id: `set-${event.value}`,
  postback_event_external_id: event.value,
  event_name: event.label,
  default_payout,
  rules,
});
const rule = (id: string, payout: number, priority: number, condition = ALL_CONDITION_TEXT) => ({
  id,
  payout,
  payout_id: 0,
  priority,
  condition,
});

const setGroup = (name: string) => screen.getByRole('group', { name: `Payout rules of ${name}` });

describe('payout-rule-sets-repeater', () => {
  it('shows one set per postback event, named after it, with a default payout of 0 (min 0, step 0.01)', () => {
    renderControl(withEvents([LEAD, SALE]), []);
    expect(within(setGroup('Lead')).getByRole('heading', { name: 'Lead' })).toBeVisible();
    expect(within(setGroup('Sale')).getByRole('heading', { name: 'Sale' })).toBeVisible();
    const payout = within(setGroup('Lead')).getByRole('textbox', { name: 'Default payout' }) as HTMLInputElement;
    expect(payout.value).toBe('0');
    // Mantine's NumberInput: the arrow keys step by `step`, and never below `min`.
    fireEvent.keyDown(payout, { key: 'ArrowUp' });
    expect(payout.value).toBe('0.01');
    fireEvent.keyDown(payout, { key: 'ArrowDown' });
    fireEvent.keyDown(payout, { key: 'ArrowDown' });
    expect(payout.value).toBe('0');
  });

  it('says what to do while the campaign has no postback events', () => {
    renderControl(withEvents([]), []);
    expect(screen.getByText(/Choose the campaign’s postback events above/)).toBeVisible();
  });

  it('adds rules with payout 0, an AllCondition and priority = position; the value fits the domain schema', () => {
    const view = renderControl(withEvents([LEAD]), []);
    const add = () => within(setGroup('Lead')).getByRole('button', { name: 'Add Payout' });
    fireEvent.click(add());
    fireEvent.click(add());
    const [stored] = view.last() as PayoutRuleSet[];
    expect(stored?.postback_event_external_id).toBe('ev_lead');
    expect(stored?.event_name).toBe('Lead');
    expect(stored?.rules.map((r) => [r.payout, r.priority, r.condition])).toEqual([
      [0, 0, ALL_CONDITION_TEXT],
      [0, 1, ALL_CONDITION_TEXT],
    ]);
    expect(new Set(stored?.rules.map((r) => r.id)).size).toBe(2);
    expect(ZPayoutRuleSets.safeParse(view.last()).success).toBe(true);
  });

  it('hides Add Payout and the row actions while the element is disabled', () => {
    renderControl(withEvents([LEAD]), [set(LEAD, [rule('r1', 2.5, 0, DE)])], { disabled: true });
    expect(screen.queryByRole('button', { name: 'Add Payout' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete row 1' })).toBeNull();
  });

  it('hands the change on when a rule is deleted, priorities rewritten', () => {
    const view = renderControl(withEvents([LEAD]), [set(LEAD, [rule('r1', 1, 0), rule('r2', 2.5, 1, DE)])]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete row 1' }));
    expect(view.values()).toHaveLength(1);
    expect((view.last() as PayoutRuleSet[])[0]?.rules).toEqual([rule('r2', 2.5, 0, DE)]);
  });

  it('labels a rule with its payout and its condition; a loaded rule starts collapsed', () => {
    renderControl(withEvents([LEAD]), [set(LEAD, [rule('r1', 2.5, 0, DE)])]);
    const lead = setGroup('Lead');
    expect(within(lead).getByText('Pays 2.50')).toBeVisible();
    expect(within(lead).getByText('Country is DE')).toBeVisible();
    const toggle = within(lead).getByRole('button', { name: 'Show payout rule 1' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(lead).queryByRole('textbox', { name: 'Payout' })).toBeNull();
    fireEvent.click(toggle);
    expect((within(lead).getByRole('textbox', { name: 'Payout' }) as HTMLInputElement).value).toBe('2.5');
  });

  it('follows the postback events: a set for a new event, a blank set of a removed event dropped', () => {
    const view = renderControl(withEvents([SALE]), [set(LEAD)]);
    expect(screen.queryByRole('group', { name: 'Payout rules of Lead' })).toBeNull();
    fireEvent.click(within(setGroup('Sale')).getByRole('button', { name: 'Add Payout' }));
    expect((view.last() as PayoutRuleSet[]).map((s) => s.postback_event_external_id)).toEqual(['ev_sale']);
  });

  it('keeps the rules of a removed event, flagged, until the operator removes them', () => {
    const view = renderControl(withEvents([SALE]), [set(LEAD, [rule('r1', 2.5, 0, DE)])]);
    const lead = setGroup('Lead');
    expect(within(lead).getByText(/no longer among the campaign’s events/)).toBeVisible();
    fireEvent.click(within(lead).getByRole('button', { name: 'Remove these payout rules' }));
    expect((view.last() as PayoutRuleSet[]).map((s) => s.postback_event_external_id)).toEqual(['ev_sale']);
  });
});

describe('syncPayoutRuleSets', () => {
  const lead = set(LEAD);
  const paid = set(SALE, [], 3);
  it.each([
    ['unchanged events keep the very same list', [lead], [LEAD], [lead]],
    ['a new event gets a blank set, in the events’ order', [lead], [SALE, LEAD], ['ev_sale', 'ev_lead']],
    ['a removed event’s blank set goes', [lead], [], []],
    ['a removed event’s set with a default payout stays', [paid], [], ['ev_sale']],
  ] as const)('%s', (_, sets, events, expected) => {
    const synced = syncPayoutRuleSets(sets as unknown as PayoutRuleSet[], events as unknown as CampaignPostbackEvent[]);
    if (expected.length > 0 && typeof expected[0] === 'object') expect(synced).toBe(sets);
    else expect(synced.map((s) => s.postback_event_external_id)).toEqual(expected);
  });

  it('renames a set after its event', () => {
    const [renamed] = syncPayoutRuleSets([set(LEAD)], [{ value: 'ev_lead', label: 'Qualified lead' }]);
    expect(renamed?.event_name).toBe('Qualified lead');
  });
});

describe.each([
  { language: 'en', setName: 'Payout rules of Lead', defaultPayout: 'Default payout', payout: 'Payout' },
  { language: 'ar', setName: 'قواعد العمولة لـ Lead', defaultPayout: 'العمولة الافتراضية', payout: 'العمولة' },
])('payout fields keep a minus sign ($language)', (text) => {
  afterEach(async () => {
    await act(() => i18n.changeLanguage('en'));
  });

  function type(input: HTMLInputElement, typed: string) {
    act(() => input.focus());
    fireEvent.change(input, { target: { value: typed } });
  }

  it('hands on a default payout and a rule payout of -2 as typed, for §5.1 minimum 0 to name', async () => {
    await act(() => i18n.changeLanguage(text.language));
    const view = renderControl(withEvents([LEAD]), [set(LEAD, [rule('r1', 0, 0)])], {
      fieldErrors: { '0.default_payout': 'The value must be 0 or more' },
    });
    const group = screen.getByRole('group', { name: text.setName });
    const defaultPayout = within(group).getByRole('textbox', { name: text.defaultPayout }) as HTMLInputElement;
    type(defaultPayout, '-');
    expect(defaultPayout.value).toBe('-');
    type(defaultPayout, '-2');
    fireEvent.blur(defaultPayout);
    expect(defaultPayout.value).toBe('-2');

    const rulePayout = within(group).getByRole('textbox', { name: text.payout }) as HTMLInputElement;
    type(rulePayout, '-');
    type(rulePayout, '-2');
    fireEvent.blur(rulePayout);
    expect(rulePayout.value).toBe('-2');

    const [stored] = view.last() as PayoutRuleSet[];
    expect(stored?.default_payout).toBe(-2);
    expect(stored?.rules[0]?.payout).toBe(-2);
    const parsed = ZPayoutRuleSets.safeParse(view.last());
    expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['0.default_payout', 'The value must be 0 or more'],
      ['0.rules.0.payout', 'The value must be 0 or more'],
    ]);
    expect(within(group).getByText('The value must be 0 or more')).toBeVisible();
  });
});
