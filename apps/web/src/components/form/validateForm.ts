import { fieldErrors, type ResourceDefinition, VALIDATION_MESSAGES } from '@switchyard/domain';
import { isEmptyValue, isRequired } from './elementRules';
import type { FormElement, FormValues } from './types';

export interface FormValidation {
  /** First message per element name, as the rule or schema wrote it (English; translated when shown). */
  errors: Record<string, string>;
  /** Messages for fields no element shows. */
  otherErrors: string[];
  /** The parsed body to send when there are no errors. */
  body: unknown;
}

type Schema = NonNullable<ResourceDefinition['form']>;

/** The element of an error path: `roles.0` belongs to `roles`. */
export function elementOfPath(elements: readonly FormElement[], path: string): string | undefined {
  if (elements.some((element) => element.name === path)) return path;
  const top = path.split('.')[0];
  return elements.find((element) => element.name === top)?.name;
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
  const otherErrors: string[] = [];
  for (const element of elements) {
    const value = values[element.name];
    const min = element.validate?.min_value;
    if (isRequired(element) && isEmptyValue(value)) errors[element.name] = VALIDATION_MESSAGES.required;
    else if (min !== undefined && typeof value === 'number' && value < min) errors[element.name] = minValueMessage(min);
  }
  if (!schema) return { errors, otherErrors, body: values };

  const parsed = schema.safeParse(values);
  if (parsed.success) return { errors, otherErrors, body: parsed.data };
  for (const [path, messages] of Object.entries(fieldErrors(parsed.error.issues))) {
    const name = elementOfPath(elements, path);
    const message = messages[0];
    if (!message) continue;
    if (name) errors[name] ??= message;
    else otherErrors.push(message);
  }
  return { errors, otherErrors, body: parsed.data };
}
