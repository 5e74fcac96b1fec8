import { fieldErrors } from '@switchyard/domain';
import type { z } from 'zod';
import { ValidationError } from '../errors.js';

/** Parses request input with a domain schema; a failure becomes a 400 with `errors` per field. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  // A missing body reads as an empty object, so the answer names each required field.
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw new ValidationError(fieldErrors(result.error.issues));
  return result.data;
}
