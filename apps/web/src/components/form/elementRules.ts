import type { FormElement } from './types';

export function isRequired(element: FormElement): boolean {
  return Boolean(element.required || element.validate?.required);
}

export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** The value an element starts with when neither the record nor the element gives one. */
export function emptyValueOf(element: FormElement): unknown {
  switch (element.type) {
    case 'switch':
      return false;
    case 'select':
      return element.multiple ? [] : null;
    case 'number':
      return null;
    default:
      return '';
  }
}
