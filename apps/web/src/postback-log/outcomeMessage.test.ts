import type { PostbackLogEntry } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import { outcomeMessage } from './outcomeMessage';

const entry = (changes: Partial<PostbackLogEntry>): PostbackLogEntry => ({
  id: 1,
  created_at: '2025-04-01T09:00:00.000Z',
  outcome: 'converted',
  response_status: 200,
  click_id: 'c',
  txid: null,
  ip: null,
  raw: {},
  conversion: null,
  campaign: null,
  ...changes,
});

const conversion = (isConversion: boolean, event: { name: string | null } | null) => ({
  conversion_id: 'cv',
  payout: 1,
  revenue: null,
  currency: 'USD',
  status: 'sale',
  event: event ? { external_id: 'ev-1', kind: 'postback-events', ...event } : null,
  is_conversion: isConversion,
});

describe('outcomeMessage', () => {
  it.each([
    [entry({ outcome: 'duplicate' }), { key: 'messages.duplicate' }],
    [entry({ outcome: 'unknown_click' }), { key: 'messages.unknown_click' }],
    [entry({ outcome: 'missing_click_id', click_id: null }), { key: 'messages.missing_click_id' }],
    [entry({ conversion: conversion(true, { name: 'Sale' }) }), { key: 'messages.converted' }],
    // A converted line whose conversion row is gone still says what happened then.
    [entry({ conversion: null }), { key: 'messages.converted' }],
    [
      entry({ conversion: conversion(false, { name: 'Registration' }) }),
      { key: 'messages.convertedNotCounted', values: { event: 'Registration' } },
    ],
    [
      entry({ conversion: conversion(false, { name: null }) }),
      { key: 'messages.convertedNotCounted', values: { event: 'ev-1' } },
    ],
    [entry({ conversion: conversion(false, null) }), { key: 'messages.convertedNoEvent' }],
  ])('%#', (input, expected) => {
    expect(outcomeMessage(input)).toEqual(expected);
  });
});
