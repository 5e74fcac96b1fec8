import { describe, expect, it } from 'vitest';
import { isKnownMacro, macroToken, URL_MACROS } from './macros.js';

describe('URL macros', () => {
  it.each([
    ['clickid', true],
    ['campaign_id', true],
    ['var1', true],
    ['var10', true],
    ['utm_source', true],
    ['utm_anything', true],
    ['var11', false],
    ['aff_sub', false],
    ['ClickId', false],
    ['', false],
  ])('%s is known: %s', (name, known) => {
    expect(isKnownMacro(name)).toBe(known);
  });

  it('lists the names the dashboard shows, each known, each once', () => {
    expect(URL_MACROS).toHaveLength(29);
    expect(new Set(URL_MACROS).size).toBe(URL_MACROS.length);
    for (const name of URL_MACROS) expect(isKnownMacro(name)).toBe(true);
    expect(macroToken('clickid')).toBe('{clickid}');
  });
});
