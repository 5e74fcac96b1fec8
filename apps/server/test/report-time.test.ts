import { describe, expect, it } from 'vitest';
import { localBucket, nextDay, offsetSpans, startOfLocalDay, utcGrain } from '../src/report-plan/time.js';

// Local days and hours of a report's timezone, against instants known from the zones' rules.

describe('report time buckets', () => {
  it('finds local midnights across zones and DST', () => {
    expect(startOfLocalDay('2026-11-10', 'UTC').toISOString()).toBe('2026-11-10T00:00:00.000Z');
    expect(startOfLocalDay('2026-11-10', 'America/New_York').toISOString()).toBe('2026-11-10T05:00:00.000Z');
    expect(startOfLocalDay('2026-07-10', 'America/New_York').toISOString()).toBe('2026-07-10T04:00:00.000Z');
    expect(startOfLocalDay('2026-11-10', 'Asia/Kolkata').toISOString()).toBe('2026-11-09T18:30:00.000Z');
    // Europe/London: the day of the spring change is 23 hours long.
    expect(startOfLocalDay('2026-03-29', 'Europe/London').toISOString()).toBe('2026-03-29T00:00:00.000Z');
    expect(startOfLocalDay('2026-03-30', 'Europe/London').toISOString()).toBe('2026-03-29T23:00:00.000Z');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });

  it('finds the instants a zone changes its offset, the same when its offsets are read again', () => {
    // New York fell back on 2026-11-01 at 06:00 UTC (02:00 EDT); Kolkata has one offset throughout.
    const range = ['2026-10-25T04:00:00.000Z', '2026-11-26T05:00:00.000Z'] as const;
    const expected = [
      { until: '2026-11-01T06:00:00.000Z', offsetMinutes: -240 },
      { until: null, offsetMinutes: -300 },
    ];
    expect(offsetSpans(...range, 'America/New_York')).toEqual(expected);
    // Read again, and one day of it, which starts before the change.
    expect(offsetSpans(...range, 'America/New_York')).toEqual(expected);
    expect(offsetSpans('2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z', 'America/New_York')).toEqual(expected);
    expect(offsetSpans(...range, 'Asia/Kolkata')).toEqual([{ until: null, offsetMinutes: 330 }]);
  });

  it('folds UTC quarter-hours into local days and hours', () => {
    const cache = new Map<string, { day: string; hour: string }>();
    expect(localBucket('2026-11-10T18', 1, 'Asia/Kolkata', cache)).toEqual({ day: '2026-11-10', hour: '23' });
    expect(localBucket('2026-11-10T18', 2, 'Asia/Kolkata', cache)).toEqual({ day: '2026-11-11', hour: '00' });
    expect(localBucket('2026-11-10T03', 0, 'America/New_York', cache)).toEqual({ day: '2026-11-09', hour: '22' });
  });

  it('groups events by UTC day, hour or quarter-hour, as coarse as the zone allows over the range', () => {
    const winter = ['2026-11-10T00:00:00.000Z', '2026-12-10T00:00:00.000Z'] as const;
    const acrossSpringChange = ['2026-03-01T00:00:00.000Z', '2026-04-10T00:00:00.000Z'] as const;
    expect(utcGrain(...winter, 'UTC', false)).toBe('day');
    expect(utcGrain(null, null, 'UTC', false)).toBe('day');
    expect(utcGrain(...winter, 'UTC', true)).toBe('hour');
    // London is UTC in winter, not once the clocks go forward.
    expect(utcGrain(...winter, 'Europe/London', false)).toBe('day');
    expect(utcGrain(...acrossSpringChange, 'Europe/London', false)).toBe('hour');
    expect(utcGrain(null, null, 'Europe/London', false)).toBe('hour');
    expect(utcGrain(...winter, 'America/New_York', false)).toBe('hour');
    expect(utcGrain(...winter, 'Asia/Kolkata', false)).toBe('quarter');
    expect(utcGrain(...acrossSpringChange, 'Asia/Kathmandu', true)).toBe('quarter');
  });
});

describe('report time buckets at odd transitions', () => {
  it('starts a day whose midnight does not exist at the first local time that does', () => {
    // São Paulo's clocks went 00:00 → 01:00 (-03 → -02) on 2018-11-04; Beirut's on 2026-03-29 (+02 → +03).
    expect(startOfLocalDay('2018-11-04', 'America/Sao_Paulo').toISOString()).toBe('2018-11-04T03:00:00.000Z');
    expect(startOfLocalDay('2018-11-03', 'America/Sao_Paulo').toISOString()).toBe('2018-11-03T03:00:00.000Z');
    expect(startOfLocalDay('2026-03-29', 'Asia/Beirut').toISOString()).toBe('2026-03-28T22:00:00.000Z');
    // Kathmandu went 00:00 → 00:15 (+05:30 → +05:45) on 1986-01-01: a gap of a quarter-hour.
    expect(startOfLocalDay('1986-01-01', 'Asia/Kathmandu').toISOString()).toBe('1985-12-31T18:30:00.000Z');
    // Apia skipped 2011-12-30 entirely: that day is empty, starting where the 31st does.
    expect(startOfLocalDay('2011-12-30', 'Pacific/Apia').toISOString()).toBe('2011-12-30T10:00:00.000Z');
    expect(startOfLocalDay('2011-12-31', 'Pacific/Apia').toISOString()).toBe('2011-12-30T10:00:00.000Z');
  });

  it('folds quarter-hours of 45-minute zones and across a gap', () => {
    const kathmandu = new Map<string, { day: string; hour: string }>();
    expect(localBucket('2026-11-10T18', 0, 'Asia/Kathmandu', kathmandu)).toEqual({ day: '2026-11-10', hour: '23' });
    expect(localBucket('2026-11-10T18', 1, 'Asia/Kathmandu', kathmandu)).toEqual({ day: '2026-11-11', hour: '00' });
    const saoPaulo = new Map<string, { day: string; hour: string }>();
    expect(localBucket('2018-11-04T02', 3, 'America/Sao_Paulo', saoPaulo)).toEqual({ day: '2018-11-03', hour: '23' });
    expect(localBucket('2018-11-04T03', 0, 'America/Sao_Paulo', saoPaulo)).toEqual({ day: '2018-11-04', hour: '01' });
  });

  it('finds changes that fall between whole hours, to the minute', () => {
    expect(offsetSpans('1985-12-31T00:00:00.000Z', '1986-01-02T00:00:00.000Z', 'Asia/Kathmandu')).toEqual([
      { until: '1985-12-31T18:30:00.000Z', offsetMinutes: 330 },
      { until: null, offsetMinutes: 345 },
    ]);
    // Lord Howe moves its clocks by half an hour, at 02:00 local (+10:30) on 2026-10-04.
    expect(offsetSpans('2026-10-01T00:00:00.000Z', '2026-10-10T00:00:00.000Z', 'Australia/Lord_Howe')).toEqual([
      { until: '2026-10-03T15:30:00.000Z', offsetMinutes: 630 },
      { until: null, offsetMinutes: 660 },
    ]);
    expect(offsetSpans('2018-11-03T03:00:00.000Z', '2018-11-05T02:00:00.000Z', 'America/Sao_Paulo')).toEqual([
      { until: '2018-11-04T03:00:00.000Z', offsetMinutes: -180 },
      { until: null, offsetMinutes: -120 },
    ]);
  });

  it('groups by quarter-hour only while an offset is not a whole hour', () => {
    const winter = ['2026-11-10T00:00:00.000Z', '2026-12-10T00:00:00.000Z'] as const;
    expect(utcGrain(...winter, 'Asia/Kathmandu', false)).toBe('quarter');
    expect(utcGrain(null, null, 'Asia/Kolkata', false)).toBe('quarter');
    expect(utcGrain(...winter, 'Asia/Tokyo', false)).toBe('hour');
    // Lord Howe is +11 in its summer, +10:30 in its winter.
    expect(utcGrain(...winter, 'Australia/Lord_Howe', false)).toBe('hour');
    expect(utcGrain('2026-06-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z', 'Australia/Lord_Howe', false)).toBe(
      'quarter',
    );
  });

  it('refuses a zone Intl does not know, even one whose name reads as an offset', () => {
    for (const zone of ['Mars/Base', 'Mars+05:30']) {
      expect(() => startOfLocalDay('2026-11-10', zone)).toThrow(RangeError);
      expect(() => localBucket('2026-11-10T18', 0, zone, new Map())).toThrow(RangeError);
      expect(() => utcGrain(null, null, zone, false)).toThrow(RangeError);
      expect(() => offsetSpans('2026-11-10T00:00:00.000Z', '2026-11-11T00:00:00.000Z', zone)).toThrow(RangeError);
    }
  });
});
