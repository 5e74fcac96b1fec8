import { describe, expect, it } from 'vitest';
import { readNetworkAmount } from './network-amounts.js';

describe('readNetworkAmount', () => {
  it.each<[string, number | undefined]>([
    ['1000', 1000],
    ['12.5', 12.5],
    ['2,5', 2.5],
    ['2,50', 2.5],
    [' 7 ', 7],
    ['0', 0],
    ['0.125', 0.125],
    ['0,125', 0.125],
    ['1.0000', 1],
    ['1000.000', 1000],
    ['1234.567', 1234.567],
    // Two readings: a thousand, or one.
    ['1,000', undefined],
    ['1.000', undefined],
    ['12.500', undefined],
    ['999,999', undefined],
    // Not plain decimals.
    ['1,000.50', undefined],
    ['1.000,50', undefined],
    ['1,000,000', undefined],
    ['1 000', undefined],
    ['1e3', undefined],
    ['-5', undefined],
    ['+5', undefined],
    ['.5', 0.5],
    ['5.', undefined],
    ['', undefined],
    ['abc', undefined],
    ['Infinity', undefined],
    ['NaN', undefined],
    ['0x10', undefined],
  ])('%j reads as %s', (text, expected) => {
    expect(readNetworkAmount(text)).toBe(expected);
  });
});
