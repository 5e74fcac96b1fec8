// Macros in offer, lander and postback URLs: the engine fills each known `{name}`
// (URL-encoded; empty without a value) and leaves any other `{name}` as written, since it may be the
// network's own. Kept here so the dashboard lists exactly the names the server fills.

/** The known macro names, in the order the dashboard lists them; any `utm_…` name is known too. */
export const URL_MACROS = [
  'clickid',
  'lead_id',
  'campaign_id',
  'offer_id',
  'lander_id',
  'country',
  'region',
  'city',
  'isp',
  'device',
  'os',
  'browser',
  'language',
  'cost',
  'payout',
  'status',
  'txid',
  'external_id',
  'subaff',
  ...Array.from({ length: 10 }, (_, index) => `var${index + 1}`),
] as const;

/** Every parameter of a click named `utm_…` is a macro of the same name (`{utm_source}`). */
export const UTM_MACRO_PREFIX = 'utm_';

const KNOWN_MACROS: ReadonlySet<string> = new Set(URL_MACROS);

export function isKnownMacro(name: string): boolean {
  return KNOWN_MACROS.has(name) || name.startsWith(UTM_MACRO_PREFIX);
}

/** `{name}`: a macro as written in a URL. */
export function macroToken(name: string): string {
  return `{${name}}`;
}
