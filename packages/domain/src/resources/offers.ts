import { z } from 'zod';
import { DEFAULT_DAILY_CAP, DEFAULT_PAYOUT } from '../constants.js';
import {
  ZCount,
  ZCountryCode,
  ZCurrencyCode,
  ZMacroUrl,
  ZMoney,
  ZName,
  ZOptionalExternalIdRef,
  ZOptionalText,
} from '../fields.js';
import { VALIDATION_MESSAGES as M } from '../messages.js';
import { defineResource } from './types.js';

/** §3.7 offer vars: pairs with an empty key or value are dropped on save. */
export function dropEmptyVars(vars: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(vars)
      .map(([key, value]) => [key.trim(), String(value ?? '').trim()] as const)
      .filter(([key, value]) => key !== '' && value !== ''),
  );
}

const ZTimezone = z
  .string()
  .trim()
  .default('UTC')
  .refine(
    (zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    },
    { error: M.invalidTimezone },
  );

/** Fields a tracker offer shares with an API offer. */
const offerFields = {
  name: ZName,
  affiliate_network_external_id: ZOptionalExternalIdRef,
  url: ZMacroUrl,
  daily_cap: ZCount.default(DEFAULT_DAILY_CAP),
  cap_timezone: ZTimezone,
  backup_offer_external_id: ZOptionalExternalIdRef,
  payout: ZMoney.default(DEFAULT_PAYOUT),
  currency: ZCurrencyCode.default('USD'),
  countries: z.array(ZCountryCode).default([]),
  /** Rich text; the server sanitizes it. */
  description: ZOptionalText(20_000),
};

export const ZTrackerOfferForm = z.object({
  ...offerFields,
  /** A paused offer passes its traffic to its backup, as an archived one does. */
  enabled: z.boolean().default(true),
});
export type TTrackerOfferForm = z.infer<typeof ZTrackerOfferForm>;

export const ZOfferForm = z.object({
  ...offerFields,
  enabled: z.boolean().default(true),
  vars: z.record(z.string(), z.string()).default({}).transform(dropEmptyVars),
  email_weights: z.record(z.string(), z.number().int().min(0)).default({}),
});
export type TOfferForm = z.infer<typeof ZOfferForm>;

const offerReferences = [{ field: 'affiliate_network_external_id', resource: 'affiliate-networks' }] as const;

export const offers = defineResource({
  name: 'offers',
  apiPath: 'offers',
  route: '/admin/offers',
  idField: 'external_id',
  permission: { section: 'api', resource: 'offer' },
  archivable: true,
  menuSection: 'api',
  lookup: { value: 'external_id', label: 'name' },
  form: ZOfferForm,
  references: [...offerReferences, { field: 'backup_offer_external_id', resource: 'offers' }],
  richTextFields: ['description'],
});
