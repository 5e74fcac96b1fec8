import type { FormElement } from '../../components/form/types';

// Elements that several forms share.

export function nameElement(): FormElement {
  return {
    name: 'name',
    type: 'input',
    label: 'resources:fields.name',
    required: true,
    input: { autoComplete: 'off' },
  };
}

/** An http(s) URL that may carry macros such as `{clickid}`, with the list of them under it. */
export function urlElement(labelDescription: string): FormElement {
  return {
    name: 'url',
    type: 'macro-url',
    label: 'resources:fields.url',
    labelDescription,
    required: true,
    // A literal, not an i18n key (the colon would read as a namespace).
    input: { type: 'url', autoComplete: 'off', dir: 'ltr', placeholder: 'https://' },
  };
}

export function moneyElement(name: string, label: string, required = false): FormElement {
  return {
    name,
    type: 'number',
    label,
    value: 0,
    numberMin: 0,
    numberStep: 0.01,
    required,
    validate: { min_value: 0 },
  };
}

/**
 * A field whose editor is not part of this form yet (condition trees, path groups, payout rules): the form
 * carries the value it loaded (or `createValue` on create) and sends it back unchanged.
 */
export function keptElement(name: string, createValue: unknown): FormElement {
  return { name, type: 'hidden', value: createValue };
}

/** A value the server makes (a token, a URL to hand out): shown with a Copy button once the record exists. */
export function readOnlyCopyElement(name: string, label: string, labelDescription: string): FormElement {
  return { name, type: 'copy-text', label, labelDescription, input: { dir: 'ltr' } };
}
