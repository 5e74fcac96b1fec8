import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FormElement } from '../types';
import { RadioWithInfoControl } from './RadioWithInfoControl';
import { renderControl } from './renderControl';

const element: FormElement = { name: 'mode', type: 'radio-with-info', label: 'Mode' };

describe('RadioWithInfoControl', () => {
  it('says "No options available" when it has none', () => {
    renderControl(RadioWithInfoControl, { ...element, options: [] }, { value: null });
    expect(screen.getByText('No options available')).toBeVisible();
    expect(screen.queryByRole('radio')).toBeNull();
  });

  it('shows each option with its description and stores the chosen value as given', () => {
    const { onChange } = renderControl(
      RadioWithInfoControl,
      {
        ...element,
        options: [
          { value: 1, label: 'Weighted', description: 'Paths share traffic by weight' },
          { value: 2, label: 'Ordered', description: 'The first matching path wins' },
        ],
      },
      { value: 1 },
    );
    expect(screen.getByText('Paths share traffic by weight')).toBeVisible();
    expect((screen.getByRole('radio', { name: 'Weighted' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: 'Ordered' }));
    expect(onChange).toHaveBeenLastCalledWith(2);
    expect(screen.queryByText('No options available')).toBeNull();
  });
});
