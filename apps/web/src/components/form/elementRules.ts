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
    case 'select-offer':
    case 'select-tracker-offer':
    case 'select-tracker-lander':
      return element.multiple ? [] : null;
    case 'tags':
    case 'address-list':
    case 'event-values-repeater':
    case 'ts-parameters-repeater':
    case 'postback-events-repeater':
      return [];
    case 'offer-vars-repeater':
    case 'email-weights-repeater':
      return {};
    case 'switch-with-select':
      return 0;
    case 'number':
    case 'radio-with-info':
      return null;
    default:
      return '';
  }
}
