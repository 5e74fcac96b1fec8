// Values a click's or lead's URLs and postbacks are filled with, and its var columns.
import { type NewTrackerClick, VAR_COLUMNS } from '../store/tracker-events.js';
import type { MacroValues } from './rules/macros.js';

/**
 * Macro values of a click or lead row besides its vars (Contract: values URL-encoded by the template);
 * each of these names wins over a var of the same name, even without a value.
 */
export function macroValues(
  row: Pick<NewTrackerClick, 'campaign_external_id' | 'offer_external_id' | 'country' | 'subaff'> & {
    lander_external_id?: string | null;
    external_click_id?: string | null;
    // What was read off the visitor, where the event has it (a click's and a stored lead's rows do).
    region?: string | null;
    city?: string | null;
    isp?: string | null;
    device?: string | null;
    platform?: string | null;
    browser?: string | null;
    language?: string | null;
    /** A click's cost as stored (Contract macros: `{cost}`). */
    cost?: number | string | null;
  },
  clickId: string,
  leadId: string | undefined,
  vars: Readonly<Record<string, string>>,
): MacroValues {
  return {
    clickid: clickId,
    lead_id: leadId,
    campaign_id: row.campaign_external_id,
    offer_id: row.offer_external_id,
    lander_id: row.lander_external_id,
    country: row.country,
    subaff: row.subaff,
    external_id: row.external_click_id ?? vars.external_id,
    region: row.region,
    city: row.city,
    isp: row.isp,
    device: row.device,
    os: row.platform,
    browser: row.browser,
    language: row.language,
    cost: row.cost === null || row.cost === undefined ? undefined : Number(row.cost),
  };
}

export function varColumns(
  vars: Readonly<Record<string, string | undefined>>,
): Record<(typeof VAR_COLUMNS)[number], string | null> {
  const columns = {} as Record<(typeof VAR_COLUMNS)[number], string | null>;
  for (const name of VAR_COLUMNS) columns[name] = vars[name] ?? null;
  return columns;
}
