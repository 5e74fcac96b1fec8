// Keitaro's URL macros (https://docs.keitaro.io/en/campaigns-and-streams/macros.html) as Switchyard's
// (packages/domain macros.ts). One with no equivalent stays as written (the engine leaves an unknown
// `{name}` alone) and is named by the caller.
import { macroTranslator } from './macros.js';

const MACROS: Record<string, string> = {
  subid: 'clickid',
  campaign_id: 'campaign_id',
  offer_id: 'offer_id',
  landing_id: 'lander_id',
  country: 'country',
  region: 'region',
  city: 'city',
  isp: 'isp',
  device_type: 'device',
  os: 'os',
  browser: 'browser',
  language: 'language',
  cost: 'cost',
  payout: 'payout',
  status: 'status',
  tid: 'txid',
  external_id: 'external_id',
  ...Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`sub_id_${index + 1}`, `var${index + 1}`])),
};

/** The URL with Keitaro's macros written as Switchyard's, and the macros that have no equivalent. */
export const translateMacros = macroTranslator(MACROS);

/** Keitaro's postback parameters, as the affiliate network's `postback_params` name what they carry. */
const POSTBACK_VALUES: ReadonlyMap<string, 'click_id' | 'payout' | 'status' | 'txid'> = new Map([
  ['subid', 'click_id'],
  ['payout', 'payout'],
  ['status', 'status'],
  ['tid', 'txid'],
]);

/**
 * The network's own macro for each value of its Keitaro postback URL (`subid={aff_sub}` → click_id
 * `aff_sub`; one written with other delimiters, `[sub]`, as it is), so the postback URL shown for the
 * imported network in Keitaro's format is the one the network already sends. Undefined: none found.
 */
export function keitaroPostbackParams(
  postbackUrl: string | null | undefined,
): Partial<Record<'click_id' | 'payout' | 'status' | 'txid', string>> | undefined {
  const question = postbackUrl?.indexOf('?') ?? -1;
  if (!postbackUrl || question < 0) return undefined;
  const found: Partial<Record<'click_id' | 'payout' | 'status' | 'txid', string>> = {};
  for (const [parameter, value] of new URLSearchParams(postbackUrl.slice(question + 1))) {
    const key = POSTBACK_VALUES.get(parameter.toLowerCase());
    const text = value.trim();
    const braced = /^\{([A-Za-z0-9_.-]{1,62})\}$/.exec(text)?.[1];
    const macro = braced ?? (/^[#[%][^\s#[\]%]{1,62}[#\]%]$/.test(text) ? text : undefined);
    if (key && macro && !(key in found)) found[key] = macro;
  }
  return Object.keys(found).length > 0 ? found : undefined;
}
