import { TAG_MAX_LENGTH, TAG_MIN_LENGTH } from './constants.js';

/** §5.2: the messages of the "Invalid tag" notice, word for word. */
export const TAG_MESSAGES = {
  empty: 'value is empty',
  tooShort: 'too short',
  tooLong: 'too long',
  characters: 'only letters, numbers, spaces, "-", and "()" allowed',
  exists: 'already exists',
} as const;
export type TagProblem = keyof typeof TAG_MESSAGES;

const ALLOWED = /^[\p{L}\p{N} ()-]+$/u;

/** The first rule a new tag value breaks (§5.2), or null when it may be added. */
export function tagProblem(value: string, existing: readonly string[]): TagProblem | null {
  const tag = value.trim();
  if (tag === '') return 'empty';
  if (tag.length < TAG_MIN_LENGTH) return 'tooShort';
  if (tag.length > TAG_MAX_LENGTH) return 'tooLong';
  if (!ALLOWED.test(tag)) return 'characters';
  const lower = tag.toLowerCase();
  if (existing.some((other) => other.toLowerCase() === lower)) return 'exists';
  return null;
}
