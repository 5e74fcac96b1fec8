import type { PostbackLogEntry, PostbackOutcome } from '@switchyard/domain';

export interface OutcomeMessage {
  /** A key of the `postbacks` namespace. */
  key: string;
  values?: Record<string, string>;
}

/** What the message of a postback reads: its outcome, and the conversion it made or moved, if any. */
export type OutcomeSubject = Pick<PostbackLogEntry, 'outcome' | 'conversion'>;

/**
 * A postback that was recorded but whose event does not count as a conversion (its payout still counts
 * as revenue in the reports). A recorded line whose conversion row is gone is taken as it was logged.
 */
export function recordedNotCounted(entry: OutcomeSubject): boolean {
  return entry.outcome === 'converted' && entry.conversion !== null && !entry.conversion.is_conversion;
}

/**
 * Why a postback ended as it did, in the operator's words: the log stores the outcome, the conversion
 * tells whether its event counted. The server's own words for a refusal (`reason`) are shown beside it.
 */
export function outcomeMessage(entry: OutcomeSubject): OutcomeMessage {
  if (entry.outcome !== 'converted') return { key: `messages.${entry.outcome}` };
  if (!recordedNotCounted(entry)) return { key: 'messages.converted' };
  const event = entry.conversion?.event;
  if (event) return { key: 'messages.convertedNotCounted', values: { event: event.name ?? event.external_id } };
  return { key: 'messages.convertedNoEvent' };
}

/** Outcomes whose message says all the tracker's reason would: its reason is not repeated beside it. */
const SAID_BY_MESSAGE = new Set<PostbackOutcome>(['unknown_click', 'missing_click_id', 'invalid_payout']);

/**
 * The tracker's own words for a postback (`reason`), when they add to its message: which address was
 * refused, which currency has no rate, why a state stayed as it was.
 */
export function reasonBeside(outcome: PostbackOutcome, reason: string | null): string | null {
  return reason && !SAID_BY_MESSAGE.has(outcome) ? reason : null;
}
