import { z } from 'zod';
import { VALIDATION_MESSAGES } from './messages.js';
import { parseAddressRule } from './network-addresses.js';

// What a conversion can be, and how a network's status values say so.

/** pending (lead, hold), approved (sale) or rejected. */
export const CONVERSION_STATES = ['pending', 'approved', 'rejected'] as const;
export type ConversionState = (typeof CONVERSION_STATES)[number];

/** A postback event's status values per state; matched case-insensitively. */
export type StatusMap = Record<ConversionState, string[]>;

/** The mapping every postback event starts with (Contract). */
export const DEFAULT_STATUS_MAP: StatusMap = {
  pending: ['lead', 'pending', 'hold'],
  approved: ['sale', 'approved', 'confirmed', '1'],
  rejected: ['rejected', 'declined', 'trash', 'chargeback', 'refund', '0'],
};

/** The state a status value maps to, or undefined when the mapping does not list it. */
export function stateOfStatus(map: StatusMap, status: string): ConversionState | undefined {
  const value = status.trim().toLowerCase();
  for (const state of CONVERSION_STATES) {
    if (map[state].some((listed) => listed.toLowerCase() === value)) return state;
  }
  return undefined;
}

const statusValues = z.array(z.string().trim().min(1).max(64)).max(50);

/**
 * The form field: each state's values; a value may be listed under one state only. A field left out
 * takes the default mapping.
 */
export const ZStatusMap = z
  .object({
    pending: statusValues.default(DEFAULT_STATUS_MAP.pending),
    approved: statusValues.default(DEFAULT_STATUS_MAP.approved),
    rejected: statusValues.default(DEFAULT_STATUS_MAP.rejected),
  })
  .superRefine((map, context) => {
    const seen = new Map<string, ConversionState>();
    for (const state of CONVERSION_STATES) {
      for (const value of map[state]) {
        const key = value.toLowerCase();
        const earlier = seen.get(key);
        if (earlier && earlier !== state) {
          context.addIssue({
            code: 'custom',
            path: [state],
            message: `"${value}" is already listed under ${earlier}.`,
          });
        }
        seen.set(key, state);
      }
    }
  });

/**
 * What set a conversion's payout, in the order they are tried — a matching payout
 * rule of the campaign for the postback event, else that event's default payout; without rules for the
 * event, the amount the network sent, else the offer's payout; `none`: nothing, so 0.
 */
export const PAYOUT_SOURCES = ['rule', 'default', 'network', 'offer', 'none'] as const;
export type PayoutSource = (typeof PAYOUT_SOURCES)[number];

/** Postbacks are refused above this payout as stored, in the workspace's currency, and below 0. */
export const MAX_POSTBACK_PAYOUT = 1_000_000;

/** Lines one import may hold. */
export const MAX_IMPORT_LINES = 10_000;

/** An affiliate network's postback addresses: IPs and CIDRs, v4 and v6. */
export const ZPostbackAddressList = z
  .array(
    z
      .string()
      .trim()
      .min(1)
      .max(64)
      .refine((text) => parseAddressRule(text).ok, { error: VALIDATION_MESSAGES.invalidAddress }),
  )
  .max(100)
  .default([]);
