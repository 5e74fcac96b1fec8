import { describe, expect, it } from 'vitest';
import { fieldErrors, VALIDATION_MESSAGES as M } from './messages.js';
import { nulCharacterIssues, stripNul, withoutNul } from './nul-characters.js';

describe('NUL characters', () => {
  it.each<[string, unknown, Record<string, string[]>]>([
    ['none', { name: 'Offer', tags: ['a'], n: 1, z: null }, {}],
    ['in a value', { name: 'Off\u0000er' }, { name: [M.nulCharacter] }],
    [
      'in a nested row',
      { path_groups: [{ name: 'ok' }, { name: '\u0000' }] },
      { 'path_groups.1.name': [M.nulCharacter] },
    ],
    ['in a key', { vars: { 'var\u00001': 'x' } }, { 'vars.var\u00001': [M.nulCharacter] }],
    ['as the whole input', 'a\u0000', { _: [M.nulCharacter] }],
  ])('names the fields holding one: %s', (_case, input, errors) => {
    expect(fieldErrors(nulCharacterIssues(input))).toEqual(errors);
  });

  it('walks input of any depth without recursion, and names at most 20 fields', () => {
    let deep: unknown = 'x\u0000';
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(nulCharacterIssues(deep)).toHaveLength(1);
    expect(nulCharacterIssues(Array.from({ length: 1000 }, () => '\u0000'))).toHaveLength(20);
  });

  it('strips them from traffic input, keys included, leaving the rest as it was', () => {
    expect(stripNul('a\u0000b\u0000')).toBe('ab');
    expect(withoutNul({ q: ['a\u0000', 'b'], 'k\u0000': 'v', n: 2 })).toEqual({ q: ['a', 'b'], k: 'v', n: 2 });
    const clean = { a: 'b' };
    expect(withoutNul(clean)).toBe(clean);
  });

  it('keeps a __proto__ key a key when it strips', () => {
    const input = JSON.parse('{"__proto__": {"polluted": "x\\u0000"}}') as Record<string, unknown>;
    const copy = withoutNul(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ polluted: 'x' });
  });
});
