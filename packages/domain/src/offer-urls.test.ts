import { describe, expect, it } from 'vitest';
import { withNetworkParameters } from './offer-urls.js';

describe("an affiliate network's offer URL parameters", () => {
  it.each([
    ['https://o.example/land', 'aff_sub={clickid}', 'https://o.example/land?aff_sub={clickid}'],
    ['https://o.example/land?x=1', 'aff_sub={clickid}', 'https://o.example/land?x=1&aff_sub={clickid}'],
    ['https://o.example/land?', '&aff_sub={clickid}', 'https://o.example/land?aff_sub={clickid}'],
    ['https://o.example/land?x=1&', '?a=1&b={var1}', 'https://o.example/land?x=1&a=1&b={var1}'],
    ['https://o.example/land#top', 'aff_sub={clickid}', 'https://o.example/land?aff_sub={clickid}#top'],
    // The offer's own value wins over the network's.
    ['https://o.example/?aff_sub=mine', 'AFF_SUB={clickid}&s2={var2}', 'https://o.example/?aff_sub=mine&s2={var2}'],
    ['https://o.example/?aff_sub=mine', 'aff_sub={clickid}', 'https://o.example/?aff_sub=mine'],
    ['https://o.example/', '', 'https://o.example/'],
    ['https://o.example/', '  & &=x ', 'https://o.example/'],
  ])('%s + %s → %s', (url, parameters, expected) => {
    expect(withNetworkParameters(url, parameters)).toBe(expected);
  });
});
