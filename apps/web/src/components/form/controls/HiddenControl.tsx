import type { FormControlProps } from '../types';

/** A value the form carries without showing it. */
export function HiddenControl({ element, value }: FormControlProps) {
  return <input type="hidden" name={element.name} value={value == null ? '' : String(value)} />;
}
