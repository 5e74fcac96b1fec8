import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FormElement } from '../types';
import { renderControl } from './renderControl';
import { SwitchWithSelectControl } from './SwitchWithSelectControl';

const element: FormElement = {
  name: 'send_postback',
  type: 'switch-with-select',
  label: 'Send postback',
  options: [
    { value: 1, label: 'Conversions only' },
    { value: 2, label: 'Every event' },
  ],
};

describe('SwitchWithSelectControl', () => {
  it('is off at 0, with the select hidden; switching on sets 1', () => {
    const { onChange } = renderControl(SwitchWithSelectControl, element, { value: 0 });
    expect(screen.queryByRole('combobox', { name: 'Send postback' })).toBeNull();
    fireEvent.click(screen.getByRole('switch', { name: 'Send postback' }));
    expect(onChange).toHaveBeenLastCalledWith(1);
  });

  it('shows the choice while on; choosing an option sets its value, switching off sets 0', () => {
    const { onChange } = renderControl(SwitchWithSelectControl, element, { value: 1 });
    const select = screen.getByRole('combobox', { name: 'Send postback' }) as HTMLInputElement;
    expect(select.value).toBe('Conversions only');
    fireEvent.click(select);
    fireEvent.click(screen.getByRole('option', { name: 'Every event' }));
    expect(onChange).toHaveBeenLastCalledWith(2);
    fireEvent.click(screen.getByRole('switch', { name: 'Send postback' }));
    expect(onChange).toHaveBeenLastCalledWith(0);
  });
});
