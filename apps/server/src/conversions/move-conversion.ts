// What a postback does to its conversion (Contract). A conversion is keyed by its click (or
// lead), postback event and txid. The first postback of a key stores it (new). A later one of the same
// state is a duplicate; one whose move is allowed moves it (pending → approved or rejected, approved →
// rejected); any other is refused and leaves the conversion as it is, its log line saying why. Each
// postback is one log line, the conversion's history, committed with the conversion itself, its click's
// cost (CPA, RevShare: an approved conversion adds to it) and its outbound postback.
import type { ConversionState, PostbackOutcome } from '@switchyard/domain';
import type { NewPostbackLog } from '../store/conversions.js';
import { type ConversionCost, conversionCost } from '../store/cost-models.js';
import type { ConversionRepository, FoundConversion, IncomingConversion, NewOutbound } from './repository.js';

export type { IncomingConversion, NewOutbound } from './repository.js';

/** The moves a later postback may make; any other keeps the conversion as it is. */
const MOVES: Record<ConversionState, readonly ConversionState[]> = {
  pending: ['approved', 'rejected'],
  approved: ['rejected'],
  rejected: [],
};

export function canMove(from: ConversionState, to: ConversionState): boolean {
  return MOVES[from].includes(to);
}

/** A postback's conversion, with the state its status maps to (rules/postback-rules.ts). */
export type PostbackConversion = IncomingConversion & { state: ConversionState };

/** What a postback did to its conversion. */
export interface StoredConversion {
  outcome: 'converted' | 'status_changed' | 'duplicate' | 'unchanged';
  conversionId: string;
  /** The conversion's state after the postback. */
  state: ConversionState;
  previous?: ConversionState;
}

/** What a later postback of a stored conversion's key does to it. */
export type Move =
  | { kind: 'duplicate' }
  | { kind: 'refused'; reason: string }
  | {
      kind: 'moved';
      from: ConversionState;
      /** What the conversion adds to its click's cost now, in place of `found.cost`. */
      cost: number;
      /** The amount the postback sent, which replaces the stored one. */
      amount: { payout: number; revenue: number | null; original_currency: string | null } | null;
    };

/** What a conversion in `state` adds to its click's cost: only an approved one, and only under CPA or RevShare. */
export function costOf(
  costing: Pick<ConversionCost, 'model' | 'cost'> | null,
  state: string,
  isConversion: number,
  payout: number,
): number {
  return costing && state === 'approved' && isConversion === 1 ? conversionCost(costing, payout) : 0;
}

/**
 * The move a postback makes on the conversion its key found. `logReason` is the postback's own reason
 * (a pre-move postback's), kept in front of a refusal's.
 */
export function decideMove(
  found: Pick<FoundConversion, 'state' | 'payout' | 'is_conversion'>,
  postback: Pick<PostbackConversion, 'state' | 'payout' | 'revenue' | 'original_currency'>,
  costing: Pick<ConversionCost, 'model' | 'cost'> | null,
  logReason: string | null | undefined,
): Move {
  const from = found.state as ConversionState;
  const to = postback.state;
  if (from === to) return { kind: 'duplicate' };
  if (!canMove(from, to)) {
    return {
      kind: 'refused',
      reason: `${logReason ? `${logReason}: ` : ''}A conversion that is ${from} is not moved to ${to}.`,
    };
  }
  // A network that sends the final amount with the approval is taken at its word.
  const amountSent = postback.revenue !== null && postback.revenue !== undefined;
  return {
    kind: 'moved',
    from,
    cost: costOf(costing, to, found.is_conversion, amountSent ? postback.payout : found.payout),
    amount: amountSent
      ? {
          payout: postback.payout,
          revenue: postback.revenue ?? null,
          original_currency: postback.original_currency ?? null,
        }
      : null,
  };
}

/**
 * A postback's conversion, its log line and its outbound postback (a new conversion's, not rejected) in
 * one transaction: the conversion is stored, or the one its key names is moved, left as a duplicate, or
 * refused the move.
 */
export function moveConversion(
  repository: ConversionRepository,
  conversion: PostbackConversion,
  log: Omit<NewPostbackLog, 'outcome' | 'conversion_id'>,
  outbound: NewOutbound | null,
  /** A click's conversion: its cost model, and the click whose cost it moves. */
  costing: ConversionCost | null = null,
): Promise<StoredConversion> {
  return repository.transaction(conversion.workspace_id, async (tx) => {
    const logged = (outcome: PostbackOutcome, conversionId: string, extra: Partial<NewPostbackLog> = {}) =>
      tx.log({ ...log, outcome, conversion_id: conversionId, state: conversion.state, ...extra });
    const added = costOf(costing, conversion.state, conversion.is_conversion, conversion.payout);
    if (await tx.insertNew(conversion, added)) {
      if (costing) await tx.moveClickCost(costing.click, added);
      await logged('converted', conversion.conversion_id);
      if (outbound && conversion.state !== 'rejected') await tx.queueOutbound(conversion.conversion_id, outbound);
      return { outcome: 'converted', conversionId: conversion.conversion_id, state: conversion.state };
    }
    const found = await tx.findByKey(conversion);
    const move = decideMove(found, conversion, costing, log.reason);
    const from = found.state as ConversionState;
    if (move.kind === 'duplicate') {
      await logged('duplicate', found.conversion_id);
      return { outcome: 'duplicate', conversionId: found.conversion_id, state: from };
    }
    if (move.kind === 'refused') {
      await logged('unchanged', found.conversion_id, { state: from, reason: move.reason });
      return { outcome: 'unchanged', conversionId: found.conversion_id, state: from };
    }
    if (costing) await tx.moveClickCost(costing.click, move.cost - found.cost);
    await tx.update(found.conversion_id, {
      state: conversion.state,
      status: conversion.status ?? null,
      updated_at: conversion.created_at,
      cost: move.cost,
      ...(move.amount ?? {}),
    });
    await logged('status_changed', found.conversion_id, { previous_state: from });
    return { outcome: 'status_changed', conversionId: found.conversion_id, state: conversion.state, previous: from };
  });
}
