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
