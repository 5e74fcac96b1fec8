import { z } from 'zod';
import { ZPostbackAddressList } from '../conversions.js';
import { ZName, ZOptionalText } from '../fields.js';
import { defineResource } from './types.js';

/** The parameter names a network sends on its postbacks. */
export const ZPostbackParameterNames = z.object({
  click_id: z.string().trim().max(64).default('clickid'),
  payout: z.string().trim().max(64).default('payout'),
  status: z.string().trim().max(64).default('status'),
  txid: z.string().trim().max(64).default('txid'),
});

export const ZAffiliateNetworkForm = z.object({
  name: ZName,
  /** Appended to every offer URL of this network, e.g. `sub1={clickid}`. */
  offer_url_params: ZOptionalText(1024),
  postback_params: ZPostbackParameterNames.default({
    click_id: 'clickid',
    payout: 'payout',
    status: 'status',
    txid: 'txid',
  }),
  notes: ZOptionalText(4000),
  /**
   * Where its postbacks come from (IPs and CIDRs, v4 and v6); when set, postbacks for its offers from
   * anywhere else are refused.
   */
  postback_ips: ZPostbackAddressList,
});
export type TAffiliateNetworkForm = z.infer<typeof ZAffiliateNetworkForm>;

export const affiliateNetworks = defineResource({
  name: 'affiliate-networks',
  apiPath: 'affiliate-networks',
  route: '/admin/affiliate-networks',
  idField: 'external_id',
  permission: { section: 'general', resource: 'affiliate-network' },
  archivable: true,
  menuSection: 'general',
  lookup: { value: 'external_id', label: 'name' },
  form: ZAffiliateNetworkForm,
  references: [],
});
