import { fieldErrors, type ResourceDefinition, VALIDATION_MESSAGES } from '@switchyard/domain';
import { isEmptyValue, isRequired } from './elementRules';
import type { FormElement, FormValues } from './types';
import { nestValues, valueAtPath } from './valuePaths';

/** Messages inside elements: element name → path relative to it (`0.ts_parameter`) → first message. */
export type NestedErrors = Record<string, Record<string, string>>;

export interface FormValidation {
  /** First message per element name for the element itself, as the rule or schema wrote it (English; translated when shown). */
  errors: Record<string, string>;
  /** First message per path inside an element (`parameters.0.ts_parameter` → `fieldErrors.parameters['0.ts_parameter']`). */
  fieldErrors: NestedErrors;
  /** Messages for fields no element shows. */
  otherErrors: string[];
  /** The parsed body to send when there are no errors. */
  body: unknown;
}

type Schema = NonNullable<ResourceDefinition['form']>;

/** Where an error path lands: the element and the path inside it ('' for the element itself). */
export interface ErrorPlace {
  name: string;
  path: string;
}

/**
 * The element of an error path and the rest of the path: `roles.0` is `{ name: 'roles', path: '0' }`.
 * Names with dots (`postback_params.click_id`) match as a whole; the longest matching name wins.
 */
export function placeOfPath(elements: readonly FormElement[], path: string): ErrorPlace | undefined {
  let best: string | undefined;
  for (const { name } of elements) {
    if (name === path) return { name, path: '' };
    if (path.startsWith(`${name}.`) && (best === undefined || name.length > best.length)) best = name;
  }
  return best === undefined ? undefined : { name: best, path: path.slice(best.length + 1) };
}

/** The element of an error path: `roles.0` belongs to `roles`. */
export function elementOfPath(elements: readonly FormElement[], path: string): string | undefined {
  return placeOfPath(elements, path)?.name;
}

/** Adds `message` at `place` unless that element or path already has one (the first message wins). */
export function addError(
  errors: Record<string, string>,
  nested: NestedErrors,
  place: ErrorPlace,
  message: string,
): void {
  if (place.path === '') {
    errors[place.name] ??= message;
    return;
  }
  const inside = nested[place.name] ?? {};
  nested[place.name] = inside;
  inside[place.path] ??= message;
}

/** Whether an edit from `before` to `after` changed what `path` points at inside the element's value. */
export function changedAt(before: unknown, after: unknown, path: string): boolean {
  const at = (value: unknown) =>
    value !== null && typeof value === 'object' ? valueAtPath(value as Record<string, unknown>, path) : undefined;
  return JSON.stringify(at(before)) !== JSON.stringify(at(after));
}

/**
 * Client-side validation (§5.1): each element's own rules (required, min_value), then the domain
 * schema shared with the server. `minValueMessage` words the min_value rule.
 */
export function validateForm(
  elements: readonly FormElement[],
  values: FormValues,
  schema: Schema | undefined,
  minValueMessage: (min: number) => string,
): FormValidation {
  const errors: Record<string, string> = {};
  const nested: NestedErrors = {};
  const otherErrors: string[] = [];
  for (const element of elements) {
    const value = values[element.name];
    const min = element.validate?.min_value;
    if (isRequired(element) && isEmptyValue(value)) errors[element.name] = VALIDATION_MESSAGES.required;
    else if (min !== undefined && typeof value === 'number' && value < min) errors[element.name] = minValueMessage(min);
  }
  const body = nestValues(values);
  if (!schema) return { errors, fieldErrors: nested, otherErrors, body };

  const parsed = schema.safeParse(body);
  if (parsed.success) return { errors, fieldErrors: nested, otherErrors, body: parsed.data };
  for (const [path, messages] of Object.entries(fieldErrors(parsed.error.issues))) {
    const place = placeOfPath(elements, path);
    const message = messages[0];
    if (!message) continue;
    if (place) addError(errors, nested, place, message);
    else otherErrors.push(message);
  }
  return { errors, fieldErrors: nested, otherErrors, body: parsed.data };
}
