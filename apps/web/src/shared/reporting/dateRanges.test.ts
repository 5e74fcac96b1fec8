import { describe, expect, it } from 'vitest';
import { addDays, daysOf, isDay, presetOf, presetRange, todayIn } from './dateRanges';

// 2026-03-01 02:30 UTC: still February 28 in New York, already March 1 in Tokyo.
const NOW = new Date('2026-03-01T02:30:00Z');

describe('report date ranges', () => {
  it.each([
    ['UTC', '2026-03-01'],
    ['America/New_York', '2026-02-28'],
    ['Asia/Tokyo', '2026-03-01'],
    ['Pacific/Kiritimati', '2026-03-01'],
  ])('finds today in %s', (zone, day) => {
    expect(todayIn(zone, NOW)).toBe(day);
  });

  it.each([
    ['today', 'UTC', { from: '2026-03-01', to: '2026-03-01' }],
    ['yesterday', 'UTC', { from: '2026-02-28', to: '2026-02-28' }],
    ['last7', 'UTC', { from: '2026-02-23', to: '2026-03-01' }],
    ['last30', 'UTC', { from: '2026-01-31', to: '2026-03-01' }],
    ['thisMonth', 'UTC', { from: '2026-03-01', to: '2026-03-01' }],
    // The same moment in New York: the presets follow the report's timezone, not the machine's.
    ['today', 'America/New_York', { from: '2026-02-28', to: '2026-02-28' }],
    ['yesterday', 'America/New_York', { from: '2026-02-27', to: '2026-02-27' }],
    ['last7', 'America/New_York', { from: '2026-02-22', to: '2026-02-28' }],
    ['thisMonth', 'America/New_York', { from: '2026-02-01', to: '2026-02-28' }],
    ['lastMonth', 'UTC', { from: '2026-02-01', to: '2026-02-28' }],
    // Still February in New York: last month is January, all 31 days of it.
    ['lastMonth', 'America/New_York', { from: '2026-01-01', to: '2026-01-31' }],
  ] as const)('%s in %s', (preset, zone, range) => {
    expect(presetRange(preset, zone, NOW)).toEqual(range);
  });

  it.each([
    // January: last month is the previous year's December.
    ['2027-01-15T12:00:00Z', 'UTC', { from: '2026-12-01', to: '2026-12-31' }],
    ['2027-01-01T00:30:00Z', 'UTC', { from: '2026-12-01', to: '2026-12-31' }],
    // 00:30 UTC on January 1 is still December 31 in New York: last month is November.
    ['2027-01-01T00:30:00Z', 'America/New_York', { from: '2026-11-01', to: '2026-11-30' }],
    // March of a leap year: February has 29 days.
    ['2028-03-10T12:00:00Z', 'UTC', { from: '2028-02-01', to: '2028-02-29' }],
  ] as const)('last month seen from %s in %s', (now, zone, range) => {
    expect(presetRange('lastMonth', zone, new Date(now))).toEqual(range);
  });

  it('counts days across month, leap-year and year ends', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(daysOf({ from: '2026-02-27', to: '2026-03-02' })).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
    expect(daysOf({ from: '2026-03-02', to: '2026-03-01' })).toEqual([]);
  });

  it('names the preset a range is, and accepts only real days', () => {
    expect(presetOf({ from: '2026-02-23', to: '2026-03-01' }, 'UTC', NOW)).toBe('last7');
    // On the 1st, "today" and "this month" are the same day: the first preset listed wins.
    expect(presetOf({ from: '2026-03-01', to: '2026-03-01' }, 'UTC', NOW)).toBe('today');
    expect(presetOf({ from: '2026-02-20', to: '2026-03-01' }, 'UTC', NOW)).toBeUndefined();
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('2026-2-28')).toBe(false);
    expect(isDay(null)).toBe(false);
  });
});
