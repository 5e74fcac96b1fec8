import { offers, trackerOffers } from '@switchyard/domain';
import { useMemo } from 'react';
import { type LookupOption, type LookupRecord, lookupOptionOf, useLookupRecords } from './useLookup';

/** An offer of the offer selects with the extras of §3.1. */
export interface OfferLookupOption extends LookupOption {
  value: string;
  /** From `backup_offer_external_id`. */
  backup_offer: string | null;
  /** The smallest non-zero daily cap of the offer and its chain; 0 when none is capped. */
  min_daily_cap: number;
  /** External ids of the backup chain (computed by the server). */
  backup_offers_chain: string[];
  /** API offers only; tracker offers carry no enabled flag. */
  enabled?: boolean;
}

export type OfferKind = 'offers' | 'tracker-offers';

function offerOptionOf(kind: OfferKind, record: LookupRecord): OfferLookupOption {
  const base = lookupOptionOf(kind === 'offers' ? offers : trackerOffers, record);
  const backup = record.backup_offer_external_id;
  const cap = record.min_daily_cap;
  const chain = record.backup_offers_chain;
  const option: OfferLookupOption = {
    value: String(base.value),
    label: base.label,
    backup_offer: typeof backup === 'string' && backup !== '' ? backup : null,
    min_daily_cap: Number(cap) || 0,
    backup_offers_chain: Array.isArray(chain) ? chain.map(String) : [],
  };
  if (kind === 'offers') option.enabled = record.enabled !== false && record.enabled !== 0;
  return option;
}

/** API offers (`offers`) or tracker offers with their §3.1 extras; shares the cache of `useLookup`. */
export function useOfferLookup(kind: OfferKind): OfferLookupOption[] {
  const records = useLookupRecords(kind === 'offers' ? offers : trackerOffers);
  return useMemo(() => records.map((record) => offerOptionOf(kind, record)), [records, kind]);
}
