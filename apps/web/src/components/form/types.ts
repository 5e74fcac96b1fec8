import type { ReactNode } from 'react';

/** The element kinds of §3.2 rendered today; each later kind (rich text, repeaters, …) adds one control. */
export type FormElementType =
  | 'input'
  | 'password'
  | 'select'
  | 'switch'
  | 'textarea'
  | 'number'
  | 'hidden'
  | 'copy-text'
  | (string & {});

export type FormValues = Record<string, unknown>;

export interface FormOption {
  value: string | number;
  label: string;
  description?: string;
  disabled?: boolean;
}

/** §5.1: validate rules an element may carry. */
export interface FormElementRules {
  required?: boolean;
  min_value?: number;
}

/** What an element's `onChange` may use to change other fields. */
export interface FormElementFormApi {
  values: FormValues;
  setValue: (name: string, value: unknown) => void;
}

/** One field of a generic form (§3.2). Texts (`label`, `labelDescription`, `placeholder`, `appendText`) are i18n keys or plain text. */
export interface FormElement {
  name: string;
  type: FormElementType;
  label?: string;
  /** Help shown under the label. */
  labelDescription?: string;
  placeholder?: string;
  /** Initial value on create screens. */
  value?: unknown;
  options?: FormOption[];
  /** Select: many values. */
  multiple?: boolean;
  /** Select: the choice can be cleared. */
  allowEmpty?: boolean;
  disabled?: boolean;
  /** Marks the label with * and rejects an empty value (§5.1). */
  required?: boolean;
  validate?: FormElementRules;
  /** Textarea height. */
  rows?: number;
  numberStep?: number;
  numberMin?: number;
  numberMax?: number;
  /** Shown at the end of the input. */
  appendIcon?: ReactNode;
  appendText?: string;
  /** Called after the element's value changed, e.g. to update a dependent field. */
  onChange?: (value: unknown, form: FormElementFormApi) => void;
  /** Extra props handed to the control as they are. */
  input?: Record<string, unknown>;
  /** For offer selects: the chosen offer's enabled flag (§4). Plain kinds ignore it. */
  enabled?: boolean;
}

/** What every control of the element-kind map receives. */
export interface FormControlProps {
  element: FormElement;
  value: unknown;
  onChange: (value: unknown) => void;
  /** Translated texts. */
  label?: ReactNode;
  description?: ReactNode;
  placeholder?: string;
  error?: ReactNode;
  required: boolean;
  disabled: boolean;
}
