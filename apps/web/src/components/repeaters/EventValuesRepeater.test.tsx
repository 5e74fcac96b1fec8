import { ZEventForm } from '@switchyard/domain';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EventValuesRepeater } from './EventValuesRepeater';
import { renderControl } from './renderControl';

describe('event-values-repeater', () => {
  it('stores the non-empty values as an array of strings', () => {
    const view = renderControl(EventValuesRepeater, ['approved']);
    fireEvent.click(screen.getByRole('button', { name: 'Add value' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add value' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Value 3' }), { target: { value: ' rejected ' } });
    expect(view.last()).toEqual(['approved', 'rejected']);
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(ZEventForm.safeParse({ name: 'Sale', label: 'Sale', values: view.last() }).success).toBe(true);
  });

  it('shows the empty text with no values', () => {
    renderControl(EventValuesRepeater, []);
    expect(screen.getByText('No values yet.')).toBeVisible();
  });

  it('shows a message on a stored value under the row it came from, empty rows not counted', () => {
    renderControl(EventValuesRepeater, ['approved', 'pending', 'rejected'], { fieldErrors: { '1': 'Too long' } });
    const invalid = () => screen.getAllByRole('textbox').map((input) => input.getAttribute('aria-invalid') === 'true');
    expect(invalid()).toEqual([false, true, false]);
    // Emptied, row 2 is no longer stored: the stored value 1 is now row 3.
    fireEvent.change(screen.getByRole('textbox', { name: 'Value 2' }), { target: { value: '' } });
    expect(invalid()).toEqual([false, false, true]);
    expect(screen.getAllByText('Too long')).toHaveLength(1);
  });
});
