import { fieldErrors, nulCharacterIssues } from '@switchyard/domain';
import type { z } from 'zod';
import { ValidationError } from '../errors.js';

/**
 * Parses request input with a domain schema; a failure becomes a 400 with `errors` per field. A NUL in
 * any value is refused on its field (PostgreSQL cannot store it, and what was typed is not changed).
 */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const nul = nulCharacterIssues(input);
  // A missing body reads as an empty object, so the answer names each required field.
  const result = schema.safeParse(input ?? {});
  if (nul.length > 0 || !result.success) {
    throw new ValidationError(fieldErrors([...nul, ...(result.success ? [] : result.error.issues)]));
  }
  return result.data;
}
