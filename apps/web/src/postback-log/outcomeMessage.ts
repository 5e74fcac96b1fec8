import type { PostbackLogEntry } from '@switchyard/domain';

export interface OutcomeMessage {
  /** A key of the `postbacks` namespace. */
  key: string;
  values?: Record<string, string>;
}

/**
 * A postback that was recorded but whose event does not count as a conversion (its payout still counts
 * as revenue in the reports). A recorded line whose conversion row is gone is taken as it was logged.
 */
export function recordedNotCounted(entry: PostbackLogEntry): boolean {
  return entry.outcome === 'converted' && entry.conversion !== null && !entry.conversion.is_conversion;
}

/**
 * Why a postback ended as it did, in the operator's words: the log stores the outcome, the conversion
 * tells whether its event counted.
 */
export function outcomeMessage(entry: PostbackLogEntry): OutcomeMessage {
  if (entry.outcome !== 'converted') return { key: `messages.${entry.outcome}` };
  if (!recordedNotCounted(entry)) return { key: 'messages.converted' };
  const event = entry.conversion?.event;
  if (event) return { key: 'messages.convertedNotCounted', values: { event: event.name ?? event.external_id } };
  return { key: 'messages.convertedNoEvent' };
}
