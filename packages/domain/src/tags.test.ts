import { describe, expect, it } from 'vitest';
import { TAG_MESSAGES, tagProblem } from './tags.js';

describe('new tag values (§5.2)', () => {
  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['a', 'tooShort'],
    ['ab', null],
    ['x'.repeat(32), null],
    ['x'.repeat(33), 'tooLong'],
    ['Email (Gmail) - 2', null],
    ['Électricité', null],
    ['中文标签', null],
    ['no_underscores', 'characters'],
    ['semi;colon', 'characters'],
    ['Gmail', 'exists'],
    ['  gmail ', 'exists'],
    ['Yahoo', null],
  ] as const)('%j → %s', (value, expected) => {
    expect(tagProblem(value, ['GMAIL', 'Outlook'])).toBe(expected);
  });

  it('carries the texts of §5.2 word for word', () => {
    expect(Object.values(TAG_MESSAGES)).toEqual([
      'value is empty',
      'too short',
      'too long',
      'only letters, numbers, spaces, "-", and "()" allowed',
      'already exists',
    ]);
  });
});
