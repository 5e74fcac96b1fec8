import type { PostbackLogEntry } from '@switchyard/domain';

export interface OutcomeMessage {
  /** A key of the `postbacks` namespace. */
  key: string;
  values?: Record<string, string>;
}

/**
 * Why a postback ended as it did, in the operator's words: the log stores the outcome, the conversion
 * tells whether its event counted.
 */
export function outcomeMessage(entry: PostbackLogEntry): OutcomeMessage {
  if (entry.outcome !== 'converted') return { key: `messages.${entry.outcome}` };
  const conversion = entry.conversion;
  if (!conversion || conversion.is_conversion) return { key: 'messages.converted' };
  if (conversion.event) {
    return {
      key: 'messages.convertedNotCounted',
      values: { event: conversion.event.name ?? conversion.event.external_id },
    };
  }
  return { key: 'messages.convertedNoEvent' };
}
