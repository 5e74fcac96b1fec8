import { ALL_CONDITION_TEXT, type ConditionContext, type ConditionNode, traceCondition } from '@switchyard/domain';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ControlProviders } from '../form/controls/renderControl';
import { ConditionBuilder, type ConditionBuilderProps } from './ConditionBuilder';

const inCountry = (...codes: string[]): ConditionNode => ({
  type: 'InCondition',
  data: { Var: 'countryCode', Operation: 'IN', Values: codes },
});
const and = (...Conditions: ConditionNode[]): ConditionNode => ({ type: 'AndCondition', data: { Conditions } });
const not = (Condition: ConditionNode): ConditionNode => ({ type: 'NotCondition', data: { Condition } });
const mobile: ConditionNode = { type: 'InCondition', data: { Var: 'device', Operation: 'IN', Values: ['mobile'] } };
/** The example: countryCode IN (US, CA) AND NOT (device IN (mobile)). */
const EXAMPLE = JSON.stringify(and(inCountry('US', 'CA'), not(and(mobile))));

/** The builder with its value held in state, as a form holds it; `emitted` lists every reported text. */
function renderBuilder(initial: string = ALL_CONDITION_TEXT, props: Partial<ConditionBuilderProps> = {}) {
  const emitted: string[] = [];
  function Harness() {
    const [value, setValue] = useState(initial);
    return (
      <ConditionBuilder
        flowType="api"
        {...props}
        value={value}
        onChange={(text) => {
          emitted.push(text);
          setValue(text);
        }}
      />
    );
  }
  render(
    <ControlProviders>
      <Harness />
    </ControlProviders>,
  );
  return { emitted, last: () => emitted[emitted.length - 1] };
}

const group = (level: number) => screen.getAllByRole('group', { name: `Condition group, level ${level}` });
const button = (scope: HTMLElement, name: string) => within(scope).getAllByRole('button', { name })[0] as HTMLElement;
const ownButtons = (scope: HTMLElement, name: string) =>
  within(scope)
    .queryAllByRole('button', { name })
    .filter((candidate) => candidate.closest('[role="group"][data-depth]') === scope);

const disabled = (element: HTMLElement | undefined) => (element as HTMLButtonElement | undefined)?.disabled;

function paste(input: HTMLElement, text: string) {
  fireEvent.paste(input, { clipboardData: { getData: () => text } });
}

describe('ConditionBuilder (§2.7)', () => {
  it('shows "Everyone" for an empty top group, with Not/And/Or disabled and no delete', () => {
    renderBuilder();
    const top = group(1)[0] as HTMLElement;
    expect(within(top).getByText('Everyone')).toBeVisible();
    for (const name of ['Not', 'And', 'Or']) expect(disabled(button(top, name))).toBe(true);
    expect(screen.queryByRole('button', { name: 'Delete group' })).toBeNull();
    expect(disabled(button(top, 'Add rule'))).toBe(false);
    expect(disabled(button(top, 'Add group'))).toBe(false);
  });

  it('enables the toggles once a group has children; only nested groups can be deleted', () => {
    const { emitted } = renderBuilder();
    const top = group(1)[0] as HTMLElement;
    fireEvent.click(button(top, 'Add group'));
    expect(screen.queryByText('Everyone')).toBeNull();
    for (const name of ['Not', 'And', 'Or']) expect(disabled(ownButtons(top, name)[0])).toBe(false);

    const nested = group(2)[0] as HTMLElement;
    for (const name of ['Not', 'And', 'Or']) expect(disabled(ownButtons(nested, name)[0])).toBe(true);
    expect(screen.getAllByRole('button', { name: 'Delete group' })).toHaveLength(1);
    expect(ownButtons(top, 'Delete group')).toHaveLength(0);

    fireEvent.click(within(nested).getByRole('button', { name: 'Delete group' }));
    expect(screen.queryAllByRole('group', { name: 'Condition group, level 2' })).toHaveLength(0);
    expect(screen.getByText('Everyone')).toBeVisible();
    // Nothing storable was ever there: the stored value never changed.
    expect(emitted).toEqual([]);
  });

  it('disables "Add group" at the depth limit', () => {
    renderBuilder(ALL_CONDITION_TEXT, { maxDepth: 3 });
    fireEvent.click(button(group(1)[0] as HTMLElement, 'Add group'));
    fireEvent.click(button(group(2)[0] as HTMLElement, 'Add group'));
    const deepest = group(3)[0] as HTMLElement;
    expect(disabled(button(deepest, 'Add group'))).toBe(true);
    expect(disabled(button(deepest, 'Add rule'))).toBe(false);
    expect(disabled(ownButtons(group(2)[0] as HTMLElement, 'Add group')[0])).toBe(false);
  });

  it('stops at the default depth of 10 for a stored tree that deep', () => {
    let tree: ConditionNode = inCountry('US');
    for (let level = 0; level < 10; level += 1) tree = and(tree);
    renderBuilder(JSON.stringify(tree));
    expect(disabled(button(group(10)[0] as HTMLElement, 'Add group'))).toBe(true);
    expect(disabled(ownButtons(group(9)[0] as HTMLElement, 'Add group')[0])).toBe(false);
  });

  it('asks on a bulk paste and adds the chunks as multiple values', () => {
    const { last } = renderBuilder();
    fireEvent.click(button(group(1)[0] as HTMLElement, 'Add rule'));
    paste(screen.getByRole('combobox', { name: 'Values' }), 'US, CA, DE');
    const dialog = screen.getByRole('dialog', { name: 'Possible bulk insert detected' });
    expect(within(dialog).getByText('Values found: 3')).toBeVisible();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add as multiple values' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(JSON.parse(last() ?? '')).toEqual(and(inCountry('US', 'CA', 'DE')));
  });

  it('asks on a bulk paste and adds the text as a single value', () => {
    const vars = and({
      type: 'VarsCondition',
      data: { Var: 'vars', Value: { Var: 'utm_source', Operation: 'contains', Value: ['mail'] } },
    });
    const { last } = renderBuilder(JSON.stringify(vars));
    paste(screen.getByRole('combobox', { name: 'Values' }), 'spring sale 2026');
    const dialog = screen.getByRole('dialog', { name: 'Possible bulk insert detected' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add as a single value' }));
    expect(JSON.parse(last() ?? '')).toEqual(
      and({
        type: 'VarsCondition',
        data: { Var: 'vars', Value: { Var: 'utm_source', Operation: 'contains', Value: ['mail', 'spring sale 2026'] } },
      }),
    );
  });

  it('keeps Enter in an empty value input from submitting the form around the builder', () => {
    renderBuilder(
      JSON.stringify(
        and({
          type: 'VarsCondition',
          data: { Var: 'vars', Value: { Var: 'utm_source', Operation: 'contains', Value: ['mail'] } },
        }),
      ),
    );
    // jsdom submits no form on Enter; a browser does unless the keydown's default is prevented.
    expect(fireEvent.keyDown(screen.getByRole('combobox', { name: 'Values' }), { key: 'Enter' })).toBe(false);
  });

  it('lets a one-value paste through without asking', () => {
    renderBuilder();
    fireEvent.click(button(group(1)[0] as HTMLElement, 'Add rule'));
    paste(screen.getByRole('combobox', { name: 'Values' }), 'US');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('gives back the same stored JSON for countryCode IN (US, CA) AND NOT (device IN (mobile))', () => {
    const { last } = renderBuilder(EXAMPLE);
    const top = group(1)[0] as HTMLElement;
    const nested = group(2)[0] as HTMLElement;
    expect(button(nested, 'Not').getAttribute('aria-pressed')).toBe('true');
    expect(ownButtons(top, 'Not')[0]?.getAttribute('aria-pressed')).toBe('false');
    // Change the tree and change it back: what is stored is what was loaded.
    fireEvent.click(ownButtons(top, 'Or')[0] as HTMLElement);
    expect(JSON.parse(last() ?? '')).toMatchObject({ type: 'OrCondition' });
    fireEvent.click(ownButtons(top, 'And')[0] as HTMLElement);
    expect(last()).toBe(EXAMPLE);
  });

  it('builds countryCode IN (US, CA) AND NOT (device IN (mobile)) from an empty tree', () => {
    const { last } = renderBuilder();
    const top = group(1)[0] as HTMLElement;
    fireEvent.click(button(top, 'Add rule'));
    paste(screen.getByRole('combobox', { name: 'Values' }), 'US\nCA');
    fireEvent.click(screen.getByRole('button', { name: 'Add as multiple values' }));

    fireEvent.click(button(top, 'Add group'));
    const nested = group(2)[0] as HTMLElement;
    fireEvent.click(button(nested, 'Add rule'));
    const rules = within(nested).getAllByRole('combobox', { name: 'Rule' });
    fireEvent.click(rules[0] as HTMLElement);
    fireEvent.click(screen.getByRole('option', { name: 'Device' }));
    const deviceValues = within(nested).getByRole('combobox', { name: 'Values' });
    fireEvent.click(deviceValues);
    fireEvent.click(screen.getByRole('option', { name: 'Mobile' }));
    fireEvent.click(button(group(2)[0] as HTMLElement, 'Not'));

    expect(last()).toBe(EXAMPLE);
  });

  it('drops invalid leaves and empty groups from what it reports, yet keeps them on screen', () => {
    const stored = and(inCountry(), inCountry('US'), {
      type: 'VarsCondition',
      data: { Var: 'vars', Value: { Var: 'subaff', Operation: 'IN', Value: [] } },
    });
    const { last, emitted } = renderBuilder(JSON.stringify(stored));
    const top = group(1)[0] as HTMLElement;
    fireEvent.click(ownButtons(top, 'Or')[0] as HTMLElement);
    expect(JSON.parse(last() ?? '')).toEqual({ type: 'OrCondition', data: { Conditions: [inCountry('US')] } });

    const before = emitted.length;
    fireEvent.click(ownButtons(top, 'Add rule')[0] as HTMLElement);
    fireEvent.click(ownButtons(top, 'Add group')[0] as HTMLElement);
    expect(emitted).toHaveLength(before);
    expect(within(top).getAllByRole('button', { name: 'Delete rule' })).toHaveLength(4);
    expect(group(2)).toHaveLength(1);
  });

  it('reports AllCondition when the last storable rule goes', () => {
    const { last } = renderBuilder(JSON.stringify(and(inCountry('US'))));
    fireEvent.click(screen.getByRole('button', { name: 'Delete rule' }));
    expect(last()).toBe(ALL_CONDITION_TEXT);
    expect(screen.getByText('Everyone')).toBeVisible();
    expect(disabled(button(group(1)[0] as HTMLElement, 'And'))).toBe(true);
  });

  it('makes a value list of more than 4 values scroll (§9)', () => {
    renderBuilder(JSON.stringify(and(inCountry('US', 'CA', 'DE', 'FR'), inCountry('US', 'CA', 'DE', 'FR', 'ES'))));
    const lists = screen.getAllByRole('combobox', { name: 'Values' });
    expect(lists.map((input) => input.closest('[data-scrollable]') !== null)).toEqual([false, true]);
  });

  it('offers only the available rules', () => {
    renderBuilder(ALL_CONDITION_TEXT, { availableRules: ['age', 'device'] });
    fireEvent.click(button(group(1)[0] as HTMLElement, 'Add rule'));
    fireEvent.click(screen.getByRole('combobox', { name: 'Rule' }));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Device', 'Age']);
  });
});

describe('the builder marked by a simulation', () => {
  const visitor: ConditionContext = {
    fields: { countryCode: 'US', device: 'mobile' },
    vars: {},
    now: new Date('2026-11-24T12:00:00Z'),
    inSegment: () => false,
  };
  const stored = and(inCountry('US', 'CA'), not(and(mobile)));
  const trace = traceCondition(stored, visitor);
  const rules = () => screen.getAllByRole('combobox', { name: 'Rule' }).map((input) => input.closest('[data-rule]'));
  const markOf = (element: Element | null) =>
    (element?.querySelector('[data-verdict]') as HTMLElement | null)?.textContent ?? null;

  it('marks each rule where it stands with its verdict and what the visitor had, and each group', () => {
    renderBuilder(JSON.stringify(stored), { trace });
    expect(rules().map(markOf)).toEqual(['truevisitor had: US', 'truevisitor had: mobile']);
    // The top group is false: the NOT group around "device is mobile" is.
    expect(group(1).map((scope) => within(scope).getAllByText(/^(true|false)$/)[0]?.textContent)).toEqual(['false']);
    expect(within(group(2)[0] as HTMLElement).getAllByText(/^(true|false)$/)[0]).toHaveTextContent('false');
    expect(screen.queryByText(/changed since the simulation/)).toBeNull();
  });

  it('drops the marks and says why once a rule is edited since', () => {
    renderBuilder(JSON.stringify(stored), { trace });
    fireEvent.click(screen.getAllByRole('button', { name: 'Delete rule' })[1] as HTMLElement);
    expect(rules().map(markOf)).toEqual([null]);
    expect(
      screen.getByText(
        'This condition changed since the simulation. Save the flow and simulate again to mark its rules.',
      ),
    ).toBeVisible();
  });

  it('shows no mark without a simulation', () => {
    renderBuilder(JSON.stringify(stored));
    expect(rules().map(markOf)).toEqual([null, null]);
  });
});
