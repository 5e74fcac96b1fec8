/** Sample user agents, labelled by product names (not translated); any real one may be pasted instead. */
export const USER_AGENT_PRESETS = [
  {
    label: 'iPhone · Safari',
    value:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  },
  {
    label: 'Android · Chrome',
    value:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  },
  {
    label: 'Windows · Chrome',
    value:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  },
  { label: 'Googlebot', value: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
] as const;

/**
 * The API reads the country from the address only, so a country is picked through an address that the
 * shipped location data places there.
 */
export const SAMPLE_ADDRESSES = [
  { country: 'US', ip: '73.162.0.1' },
  { country: 'GB', ip: '81.2.69.160' },
  { country: 'DE', ip: '91.64.0.1' },
  { country: 'FR', ip: '90.0.0.1' },
  { country: 'RU', ip: '95.24.0.1' },
  { country: 'JP', ip: '126.0.0.1' },
] as const;

/** `key=value` lines to an object; blank lines and lines without `=` are left out. */
export function readParameterLines(text: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at <= 0) continue;
    params[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return params;
}

/** The value a `datetime-local` input shows for a moment, in this browser's zone. */
export function localDateTime(date: Date): string {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}
