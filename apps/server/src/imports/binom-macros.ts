// Binom's URL tokens (its `/system/tokens` list; https://docs.binom.org/create-source-v2.php for t1 … t30)
// as Switchyard's macros (packages/domain macros.ts). A token with no equivalent stays as written and is
// named by the caller.
import { MAX_TRAFFIC_SOURCE_PARAMETERS } from '@switchyard/domain';
import { macroTranslator } from './macros.js';

const TOKENS: Record<string, string> = {
  clickid: 'clickid',
  campaign_id: 'campaign_id',
  campaign: 'campaign_id',
  offer_id: 'offer_id',
  landing_id: 'lander_id',
  lander: 'lander_id',
  country_code: 'country',
  region: 'region',
  city: 'city',
  isp: 'isp',
  device_type: 'device',
  os_name: 'os',
  browser_name: 'browser',
  language: 'language',
  clickcost: 'cost',
  payout: 'payout',
  cnv_status: 'status',
  externalid: 'external_id',
  external_id: 'external_id',
  ...Object.fromEntries(
    Array.from({ length: MAX_TRAFFIC_SOURCE_PARAMETERS }, (_, index) => [`t${index + 1}`, `var${index + 1}`]),
  ),
};

/** The URL with Binom's tokens written as Switchyard's macros, and the tokens that have no equivalent. */
export const translateBinomTokens = macroTranslator(TOKENS);
