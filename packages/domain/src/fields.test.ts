import { describe, expect, it } from 'vitest';
import { hasMacroInHost, ZMacroUrl, ZOptionalMacroUrl } from './fields.js';
import { VALIDATION_MESSAGES as M } from './messages.js';

describe('macro URLs', () => {
  it.each([
    'https://{var1}/x',
    'https://{offer_id}.example.com/',
    'http://example.{var2}/',
    'https://example.com:{var1}/',
    'https://{var1}@example.com/',
    'https://example.com{var1}',
    'https://exa}mple.com/',
    'HTTPS://{VAR1}',
    // Read as a browser reads them.
    'https://\\{var1}/x',
    'https:/\\{var1}/x',
    'https:{var1}/x',
    'https:\\\\{var1}.example.com/x',
    'https://\t{var1}/x',
    'https://u:{var1}\\@example.com/',
  ])('refuses a macro in the host of %s', (url) => {
    expect(hasMacroInHost(url)).toBe(true);
    const result = ZMacroUrl.safeParse(url);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toContain(M.macroInHost);
  });

  it.each([
    'https://example.com/{var1}',
    'https://example.com/?c={clickid}&o={offer_id}',
    'https://example.com#{var1}',
    'https://example.com\\{var1}',
    'https://example.com:8443/p/{clickid}',
    'https://example.com',
  ])('keeps macros in the path, query and fragment: %s', (url) => {
    expect(hasMacroInHost(url)).toBe(false);
    expect(ZMacroUrl.parse(url)).toBe(url);
  });

  it('answers the optional field the same way', () => {
    expect(ZOptionalMacroUrl.parse('')).toBe('');
    expect(ZOptionalMacroUrl.safeParse('https://{var1}/').error?.issues[0]?.message).toBe(M.macroInHost);
  });
});
