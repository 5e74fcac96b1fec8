import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FormElement } from '../types';
import { AddressListControl } from './AddressListControl';
import { renderControl } from './renderControl';

const element: FormElement = { name: 'postback_ips', type: 'address-list', label: 'Postback addresses' };

describe('AddressListControl', () => {
  it('takes a pasted list of addresses and ranges as separate entries, without repeats', () => {
    const { onChange } = renderControl(AddressListControl, element, { value: ['203.0.113.10'] });
    const input = screen.getByRole('combobox', { name: 'Postback addresses' });
    act(() => input.focus());
    fireEvent.paste(input, {
      clipboardData: { getData: () => '198.51.100.0/24, 2001:db8::/32\n203.0.113.10' },
    });
    expect(onChange).toHaveBeenLastCalledWith(['203.0.113.10', '198.51.100.0/24', '2001:db8::/32']);
  });

  it('names each refused entry in the message under the field', () => {
    renderControl(AddressListControl, element, {
      value: ['203.0.113.10', 'tracker.example', '10.0.0.0/99'],
      fieldErrors: { '1': 'Not an IP address or CIDR range', '2': 'Not an IP address or CIDR range' },
    });
    expect(screen.getByText('tracker.example: Not an IP address or CIDR range')).toBeVisible();
    expect(screen.getByText('10.0.0.0/99: Not an IP address or CIDR range')).toBeVisible();
    expect(screen.queryByText(/203\.0\.113\.10:/)).toBeNull();
  });
});
