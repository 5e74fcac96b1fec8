import { describe, expect, it } from 'vitest';
import { normalOrigin, offerLinkPath, trackingScriptTag, ZAllowedOrigins, ZRedirectMode } from './redirect-modes.js';

describe('allowed origins of a direct campaign', () => {
  it.each([
    ['https://lander.example.com', 'https://lander.example.com'],
    ['HTTPS://Lander.Example.COM/', 'https://lander.example.com'],
    ['https://lander.example.com:443', 'https://lander.example.com'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['https://lander.example.com/page', null],
    ['https://lander.example.com?x=1', null],
    ['https://user:pw@lander.example.com', null],
    ['ftp://lander.example.com', null],
    ['*.example.com', null],
    ['https://*.example.com', null],
    ['lander.example.com', null],
    ['', null],
  ])('%s → %s', (text, origin) => {
    expect(normalOrigin(text)).toBe(origin);
  });

  it('keeps each origin once, in the form browsers send', () => {
    expect(ZAllowedOrigins.parse(['https://a.example', 'https://A.example/', 'https://b.example'])).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
    expect(ZAllowedOrigins.safeParse(Array.from({ length: 101 }, (_, i) => `https://a${i}.example`)).success).toBe(
      false,
    );
  });
});

describe('redirect modes', () => {
  it('knows the eleven modes and no other', () => {
    expect(ZRedirectMode.safeParse('double_meta').success).toBe(true);
    expect(ZRedirectMode.safeParse('308').success).toBe(false);
  });

  it('builds the tracking script tag and the offer link of a click', () => {
    expect(trackingScriptTag('https://t.example', 'AbC123')).toBe(
      '<script src="https://t.example/AbC123/t.js" async></script>',
    );
    expect(offerLinkPath('AbC123', 'click-1')).toBe('/c/AbC123/offer?clickid=click-1');
  });
});
