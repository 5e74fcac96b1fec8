import { describe, expect, it } from 'vitest';
import { currencyDecimals } from './currency-precision.js';

describe('currencyDecimals', () => {
  it.each([
    ['USD', 2],
    ['eur', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['BHD', 3],
    ['KWD', 3],
    ['XXZ', 2],
    ['', 2],
    [null, 2],
  ])('%s has %i decimals', (currency, decimals) => {
    expect(currencyDecimals(currency)).toBe(decimals);
  });
});
