import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FormElement } from '../types';
import { DateTimeControl } from './DateTimeControl';
import { renderControl } from './renderControl';

const element: FormElement = { name: 'starts_at', type: 'datetime', label: 'Starts at' };

describe('DateTimeControl', () => {
  it('shows the stored value as Y-m-d H:i', () => {
    renderControl(DateTimeControl, element, { value: '2024-05-06 07:08' });
    expect(screen.getByText('2024-05-06 07:08')).toBeVisible();
  });

  it('stores a picked day as YYYY-MM-DD HH:mm, keeping the time', () => {
    const { onChange } = renderControl(DateTimeControl, element, { value: '2024-05-06 07:08' });
    fireEvent.click(screen.getByText('2024-05-06 07:08'));
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '15 May 2024' }));
    expect(onChange).toHaveBeenLastCalledWith('2024-05-15 07:08');
  });

  it('stores a cleared value as an empty string', () => {
    const { onChange } = renderControl(DateTimeControl, element, { value: '2024-05-06 07:08' });
    fireEvent.click(screen.getByRole('button', { name: 'Clear the date' }));
    expect(onChange).toHaveBeenLastCalledWith('');
  });
});
