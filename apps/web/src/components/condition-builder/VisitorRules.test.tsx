import { ALL_CONDITION_TEXT, type ConditionNode } from '@switchyard/domain';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ControlProviders } from '../form/controls/renderControl';
import { ConditionBuilder } from './ConditionBuilder';

// The visitor fields in the builder, each with its control, writing the leaves routing reads.

function renderBuilder(initial: string = ALL_CONDITION_TEXT) {
  const emitted: string[] = [];
  function Harness() {
    const [value, setValue] = useState(initial);
    return (
      <ConditionBuilder
        flowType="tracker"
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
  return { last: () => JSON.parse(emitted[emitted.length - 1] ?? 'null') as ConditionNode | null };
}

const and = (...Conditions: ConditionNode[]): ConditionNode => ({ type: 'AndCondition', data: { Conditions } });

/** Adds a rule to the top group and picks its field by the name shown. */
function addRule(fieldName: string) {
  fireEvent.click(screen.getAllByRole('button', { name: 'Add rule' })[0] as HTMLElement);
  const fields = screen.getAllByRole('combobox', { name: 'Rule' });
  fireEvent.click(fields[fields.length - 1] as HTMLElement);
  fireEvent.click(screen.getByRole('option', { name: fieldName }));
}

function typeValue(input: HTMLElement, text: string) {
  // Mantine takes a change only in the focused input (others are autofill).
  input.focus();
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: 'Enter' });
}

const optionsOf = (combobox: HTMLElement) => {
  fireEvent.click(combobox);
  return screen.getAllByRole('option').map((option) => option.textContent);
};

describe('visitor fields in the builder', () => {
  it('offers them on the tracker side, where a click carries them', () => {
    renderBuilder();
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    expect(optionsOf(screen.getByRole('combobox', { name: 'Rule' }))).toEqual(
      expect.arrayContaining([
        'Region',
        'City',
        'Language',
        'OS version',
        'Browser version',
        'IP address',
        'Network (ASN)',
        'Provider (ISP)',
        'Referrer',
        'Bot',
        'Unique visitor',
        'Day of the week',
      ]),
    );
  });

  it('writes an ip rule from a typed CIDR, and offers only in and not in', () => {
    const { last } = renderBuilder();
    addRule('IP address');
    const values = screen.getByRole('combobox', { name: 'Values' });
    expect(values.getAttribute('placeholder')).toBe('An address or CIDR, e.g. 10.0.0.0/8');
    typeValue(values, '10.0.0.0/8');
    expect(last()).toEqual(and({ type: 'InCondition', data: { Var: 'ip', Operation: 'IN', Values: ['10.0.0.0/8'] } }));
    expect(optionsOf(screen.getByRole('combobox', { name: 'Operation' }))).toEqual(['in', 'not in']);
  });

  it('says which typed value the field refuses', () => {
    renderBuilder();
    addRule('Network (ASN)');
    typeValue(screen.getByRole('combobox', { name: 'Values' }), 'AS15169');
    expect(screen.queryByText(/Not a valid value here/)).toBeNull();
    typeValue(screen.getByRole('combobox', { name: 'Values' }), 'Google');
    expect(screen.getByText('Not a valid value here: Google')).toBeVisible();
  });

  it('offers contains on isp and every text operation on referrer', () => {
    renderBuilder();
    addRule('Provider (ISP)');
    expect(optionsOf(screen.getByRole('combobox', { name: 'Operation' }))).toEqual(['in', 'not in', 'contains']);
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    addRule('Referrer');
    const operations = screen.getAllByRole('combobox', { name: 'Operation' });
    expect(optionsOf(operations[1] as HTMLElement)).toEqual(['in', 'not in', 'contains', 'starts with', 'ends with']);
  });

  it('finds California among the regions and writes its ISO code', () => {
    const { last } = renderBuilder();
    addRule('Region');
    const values = screen.getByRole('combobox', { name: 'Values' });
    fireEvent.click(values);
    fireEvent.change(values, { target: { value: 'Califor' } });
    fireEvent.click(screen.getByRole('option', { name: 'California, United States (US-CA)' }));
    expect(last()).toEqual(and({ type: 'InCondition', data: { Var: 'region', Operation: 'IN', Values: ['US-CA'] } }));
  });

  it('finds Bayern by its English name, Bavaria', () => {
    const { last } = renderBuilder();
    addRule('Region');
    const values = screen.getByRole('combobox', { name: 'Values' });
    fireEvent.click(values);
    fireEvent.change(values, { target: { value: 'Bavaria' } });
    fireEvent.click(screen.getByRole('option', { name: 'Bayern (Bavaria), Germany (DE-BY)' }));
    expect(last()).toEqual(and({ type: 'InCondition', data: { Var: 'region', Operation: 'IN', Values: ['DE-BY'] } }));
  });

  it('names languages and writes their ISO 639-1 codes', () => {
    const { last } = renderBuilder();
    addRule('Language');
    const values = screen.getByRole('combobox', { name: 'Values' });
    fireEvent.click(values);
    fireEvent.change(values, { target: { value: 'German' } });
    fireEvent.click(screen.getByRole('option', { name: 'German (de)' }));
    expect(last()).toEqual(and({ type: 'InCondition', data: { Var: 'language', Operation: 'IN', Values: ['de'] } }));
  });

  it('shows a weekday rule with its days and zone, and keeps days in week order', () => {
    const stored = and({
      type: 'InCondition',
      data: { Var: 'weekday', Operation: 'NOT IN', Values: ['sat', 'sun'], Timezone: 'Europe/Paris' },
    });
    const { last } = renderBuilder(JSON.stringify(stored));
    const days = screen.getByRole('group', { name: 'Days' });
    const checked = within(days)
      .getAllByRole('checkbox')
      .filter((day) => (day as HTMLInputElement).checked)
      .map((day) => day.closest('div')?.textContent);
    expect(checked).toEqual(['Sat', 'Sun']);
    expect((screen.getByRole('combobox', { name: 'Timezone' }) as HTMLInputElement).value).toBe('Europe/Paris');
    fireEvent.click(within(days).getByRole('checkbox', { name: 'Mon' }));
    expect(last()).toEqual(
      and({
        type: 'InCondition',
        data: { Var: 'weekday', Operation: 'NOT IN', Values: ['mon', 'sat', 'sun'], Timezone: 'Europe/Paris' },
      }),
    );
  });

  it('writes a new weekday rule in UTC until a zone is chosen', () => {
    const { last } = renderBuilder();
    addRule('Day of the week');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Fri' }));
    expect(last()).toEqual(
      and({ type: 'InCondition', data: { Var: 'weekday', Operation: 'IN', Values: ['fri'], Timezone: 'UTC' } }),
    );
  });

  it('writes isBot from a yes/no choice and a version comparison', () => {
    const { last } = renderBuilder();
    addRule('Bot');
    fireEvent.click(screen.getByRole('combobox', { name: 'Value' }));
    fireEvent.click(screen.getByRole('option', { name: 'No' }));
    expect(last()).toEqual(and({ type: 'EqualCondition', data: { Var: 'isBot', Value: 'false' } }));
    addRule('OS version');
    fireEvent.change(screen.getByRole('textbox', { name: 'Number' }), { target: { value: '14' } });
    expect(last()).toEqual(
      and(
        { type: 'EqualCondition', data: { Var: 'isBot', Value: 'false' } },
        { type: 'CompareIntCondition', data: { Var: 'osVersion', Values: { Value: 14, Comparator: '>' } } },
      ),
    );
  });
});
