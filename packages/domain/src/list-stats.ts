// Lists of campaigns, offers, landers, traffic sources and networks take `?stats=<period>` and answer
// each row's figures for the period (`stats`), as a report grouped by that record would.
import { z } from 'zod';
import type { ReportGroup } from './reports.js';

/** The periods a list's figures cover; days are counted in `stats_timezone` (UTC by default). */
export const LIST_STATS_PERIODS = [
  'today',
  'yesterday',
  'last_7_days',
  'last_30_days',
  'this_month',
  'last_month',
  'all_time',
] as const;
export type ListStatsPeriod = (typeof LIST_STATS_PERIODS)[number];

/** The figures each row carries: money ones only for a user who sees money. */
export const LIST_STATS_FIGURES = ['clicks', 'conversions', 'revenue', 'cost', 'profit', 'roi'] as const;
export type ListStatsFigure = (typeof LIST_STATS_FIGURES)[number];

/** The report group each listed resource is counted by. */
export const LIST_STATS_GROUPS: Readonly<Partial<Record<string, ReportGroup>>> = {
  'tracker-campaigns': 'campaign',
  campaigns: 'campaign',
  'tracker-offers': 'offer',
  offers: 'offer',
  'tracker-landers': 'lander',
  'traffic-sources': 'traffic_source',
  'affiliate-networks': 'affiliate_network',
};

export const ZListStatsQuery = z.object({
  stats: z.enum(LIST_STATS_PERIODS).optional(),
  stats_timezone: z
    .string()
    .trim()
    .max(64)
    .default('UTC')
    .refine(
      (zone) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      },
      { message: 'Use an IANA timezone.' },
    ),
});

function dayIn(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

function shift(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The days (both included) a period covers at `now` in `timeZone`; all_time is open at both ends. */
export function listStatsRange(
  period: ListStatsPeriod,
  now: Date,
  timeZone: string,
): { date_from?: string; date_to?: string } {
  const today = dayIn(now, timeZone);
  const monthStart = `${today.slice(0, 7)}-01`;
  switch (period) {
    case 'today':
      return { date_from: today, date_to: today };
    case 'yesterday':
      return { date_from: shift(today, -1), date_to: shift(today, -1) };
    case 'last_7_days':
      return { date_from: shift(today, -6), date_to: today };
    case 'last_30_days':
      return { date_from: shift(today, -29), date_to: today };
    case 'this_month':
      return { date_from: monthStart, date_to: today };
    case 'last_month': {
      const lastDay = shift(monthStart, -1);
      return { date_from: `${lastDay.slice(0, 7)}-01`, date_to: lastDay };
    }
    default:
      return {};
  }
}
