import type { ResourceName } from '@switchyard/domain';
import type { ReactNode } from 'react';

/** The element kinds of §3.2 rendered today; each later kind (repeaters, …) adds one control. */
export type FormElementType =
  | 'input'
  | 'macro-url'
  | 'password'
  | 'select'
  | 'switch'
  | 'textarea'
  | 'number'
  | 'hidden'
  | 'copy-text'
  | 'text-html-editor'
  | 'text-vue-editor'
  | 'datetime'
  | 'tags'
  | 'select-offer'
  | 'select-tracker-offer'
  | 'select-tracker-lander'
  | 'switch-with-select'
  | 'radio-with-info'
  | 'offer-vars-repeater'
  | 'event-values-repeater'
  | 'email-weights-repeater'
  | 'ts-parameters-repeater'
  | 'postback-events-repeater'
  | 'condition-builder'
  | 'path-groups-repeater'
  | 'payout-rule-sets-repeater'
  | 'campaign-url'
  | 'lander-offer-link'
  | 'network-postback-url'
  | 'postback-key'
  | 'address-list'
  | 'status-map'
  | 'permissions'
  | 'template'
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
  /** Select: the resource its options list; while it has none, a link to create one shows under it. */
  createWhenEmpty?: ResourceName;
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
  /**
   * For offer selects (§4): called after a choice with the chosen offer's enabled flag, so a row can
   * copy it into its own `enabled` (tracker offers carry none and report true).
   */
  onEnabledChange?: (enabled: boolean) => void;
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
  /** The error of the element itself (translated). */
  error?: ReactNode;
  /**
   * Translated messages below the element, keyed by the path relative to it (`0.ts_parameter` for
   * `parameters.0.ts_parameter`). Only controls listed in `PLACES_FIELD_ERRORS` get them; they show each
   * under its input, and in `error` only what no input shows.
   */
  fieldErrors?: Record<string, string>;
  required: boolean;
  disabled: boolean;
}
