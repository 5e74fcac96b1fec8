import { POSTBACK_OUTCOMES, type PostbackLogEntry } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import i18n from '../i18n';
import { outcomeMessage, reasonBeside } from './outcomeMessage';

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
  state: null,
  previous_state: null,
  reason: null,
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
  state: 'approved' as const,
  original_currency: null,
  payout_source: 'network' as const,
  payout_rule_id: null,
});

describe('outcomeMessage', () => {
  it.each([
    [entry({ outcome: 'duplicate' }), { key: 'messages.duplicate' }],
    [entry({ outcome: 'unknown_click' }), { key: 'messages.unknown_click' }],
    [entry({ outcome: 'missing_click_id', click_id: null }), { key: 'messages.missing_click_id' }],
    [
      entry({ outcome: 'status_changed', previous_state: 'pending', state: 'approved' }),
      { key: 'messages.status_changed' },
    ],
    [entry({ outcome: 'unchanged', previous_state: 'rejected', state: 'rejected' }), { key: 'messages.unchanged' }],
    [entry({ outcome: 'refused_key', reason: 'The postback URL has no key.' }), { key: 'messages.refused_key' }],
    [entry({ outcome: 'refused_address' }), { key: 'messages.refused_address' }],
    [entry({ outcome: 'invalid_payout' }), { key: 'messages.invalid_payout' }],
    [entry({ outcome: 'unknown_currency' }), { key: 'messages.unknown_currency' }],
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

describe('every outcome', () => {
  it.each(POSTBACK_OUTCOMES)('%s has a badge and a message in the postbacks texts', (outcome) => {
    expect(i18n.exists(`postbacks:outcomes.${outcome}`)).toBe(true);
    expect(i18n.exists(`postbacks:${outcomeMessage(entry({ outcome })).key}`)).toBe(true);
  });
});

describe('reasonBeside', () => {
  it.each([
    ['refused_address', '198.51.100.7 is not on the list.', '198.51.100.7 is not on the list.'],
    ['unknown_currency', 'The currency XBT has no rate.', 'The currency XBT has no rate.'],
    ['unchanged', 'A rejected conversion stays rejected.', 'A rejected conversion stays rejected.'],
    // The message already says what these reasons would.
    ['unknown_click', 'No click or lead has this id.', null],
    ['invalid_payout', 'The payout is not a number from 0 to 1,000,000.', null],
    ['converted', null, null],
  ] as const)('%s: %j → %j', (outcome, reason, expected) => {
    expect(reasonBeside(outcome, reason)).toBe(expected);
  });
});
