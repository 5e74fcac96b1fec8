import type { FormControlProps } from '../form/types';

/**
 * What a repeater control hands its `Repeater` from the element: the list's accessible name (the label
 * when it is plain text), the Add button's test id and the element's state.
 */
export function repeaterProps({ element, label, disabled }: FormControlProps) {
  return { label: typeof label === 'string' ? label : element.name, addTestId: `${element.name}-add`, disabled };
}
