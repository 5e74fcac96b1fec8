import { notifications } from '@mantine/notifications';
import { DEFAULT_STATUS_MAP } from '@switchyard/domain';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FormElement } from '../types';
import { renderControl } from './renderControl';
import { StatusMapControl } from './StatusMapControl';

const element: FormElement = {
  name: 'status_map',
  type: 'status-map',
  label: 'Conversion states',
  labelDescription: 'Which status values mean each state.',
};

function typeInto(state: 'Pending' | 'Approved' | 'Rejected', text: string) {
  const input = screen.getByRole('combobox', { name: state });
  act(() => input.focus());
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: 'Enter' });
}

describe('StatusMapControl', () => {
  afterEach(() => notifications.clean());

  it('shows the three lists with their values and what each state means', () => {
    renderControl(StatusMapControl, element, { value: DEFAULT_STATUS_MAP, description: element.labelDescription });
    expect(screen.getByRole('group', { name: 'Conversion states' })).toBeVisible();
    expect(screen.getByText('Which status values mean each state.')).toBeVisible();
    expect(screen.getByRole('combobox', { name: 'Pending' })).toBeVisible();
    expect(screen.getByText('Counted as a sale.')).toBeVisible();
    for (const value of ['lead', 'hold', 'sale', 'confirmed', 'chargeback', 'refund']) {
      expect(screen.getByText(value)).toBeVisible();
    }
  });

  it('adds a value typed under one state and leaves the others as they were', () => {
    const { onChange } = renderControl(StatusMapControl, element, { value: DEFAULT_STATUS_MAP });
    typeInto('Approved', 'paid');
    expect(onChange).toHaveBeenLastCalledWith({
      ...DEFAULT_STATUS_MAP,
      approved: [...DEFAULT_STATUS_MAP.approved, 'paid'],
    });
  });

  it('names a value listed under two states under both lists', () => {
    renderControl(StatusMapControl, element, {
      value: { pending: ['lead', 'Sale'], approved: ['sale'], rejected: ['trash'] },
    });
    expect(screen.getByText('“Sale” is also listed under Approved.')).toBeVisible();
    expect(screen.getByText('“sale” is also listed under Pending.')).toBeVisible();
    expect(screen.getByRole('combobox', { name: 'Rejected' })).not.toHaveAttribute('aria-invalid', 'true');
  });

  it("shows the server's message under the list it names", () => {
    renderControl(StatusMapControl, element, {
      value: DEFAULT_STATUS_MAP,
      fieldErrors: { rejected: 'At most 50 values' },
    });
    expect(screen.getByText('At most 50 values')).toBeVisible();
    expect(screen.getByRole('combobox', { name: 'Rejected' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('combobox', { name: 'Pending' })).not.toHaveAttribute('aria-invalid', 'true');
  });
});
