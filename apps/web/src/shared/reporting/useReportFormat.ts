import type { ReportGroup, ReportMetric } from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useWorkspaceCurrency } from '../workspace/useWorkspaceCurrency';
import { amountFormat } from './amounts';
import { visitorValueLabels } from './visitorLabels';

/** How each figure reads: counts whole, amounts at the currency's decimals, ROI and CR as percentages. */
export const METRIC_KINDS: Record<ReportMetric, 'count' | 'money' | 'percent' | 'perClick'> = {
  clicks: 'count',
  unique_clicks: 'count',
  leads: 'count',
  conversions: 'count',
  approved: 'count',
  pending: 'count',
  rejected: 'count',
  revenue: 'money',
  revenue_confirmed: 'money',
  cost: 'money',
  profit: 'money',
  roi: 'percent',
  roi_confirmed: 'percent',
  cr: 'percent',
  // Cents and fractions of cents: two decimals would show most EPCs as 0.00.
  epc: 'perClick',
  cpc: 'perClick',
  cpa: 'money',
  bot_clicks: 'count',
  lp_clicks: 'count',
  lp_ctr: 'percent',
};

/** Report figures and labels in the interface language (Intl), and the group names through i18n. */
export function useReportFormat() {
  const { t, i18n } = useTranslation('reports');
  const language = i18n.language;
  // Reports sum amounts in the acting workspace's currency.
  const currency = useWorkspaceCurrency();
  return useMemo(() => {
    const formats = {
      count: new Intl.NumberFormat(language, { maximumFractionDigits: 0 }),
      money: amountFormat(language, currency),
      // The API sends ROI and CR already × 100.
      percent: new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 2 }),
      perClick: amountFormat(language, currency, 2),
    };
    const twoDecimals = new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const signedPercent = new Intl.NumberFormat(language, {
      style: 'percent',
      maximumFractionDigits: 1,
      signDisplay: 'exceptZero',
    });
    const signedNumber = new Intl.NumberFormat(language, { maximumFractionDigits: 1, signDisplay: 'exceptZero' });
    const dayFormat = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    const longDayFormat = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });

    const visitorLabel = visitorValueLabels(t, language);
    const groupName = (group: ReportGroup): string => {
      const number = /^var(\d+)$/.exec(group)?.[1];
      return number ? t('groups.var', { number }) : t(`groups.${group}`);
    };
    const day = (value: string, long = false) =>
      (long ? longDayFormat : dayFormat).format(new Date(`${value}T00:00:00Z`));

    return {
      metric(metric: ReportMetric, value: number): string {
        const kind = METRIC_KINDS[metric];
        return formats[kind].format(kind === 'percent' ? value / 100 : value);
      },
      metricName: (metric: ReportMetric): string => t(`metrics.${metric}`),
      /** A custom metric's value, with 2 decimals: a ratio as often as an amount. */
      custom: (value: number): string => twoDecimals.format(value),
      groupName,
      /**
       * Group names with the traffic source's own names of the vars (a report's `meta.labels`): "Zone",
       * not "Custom var 2".
       */
      groupNames: (labels: Readonly<Record<string, string>> | undefined) => (group: ReportGroup) =>
        labels?.[group] ?? groupName(group),
      /** A day (`2026-03-01`) as "Mar 1", or "Mar 1, 2026" when `long`. */
      day,
      /**
       * A row's label for one group: days, weekdays and the bot verdict in the language's way, codes
       * (regions, networks, languages) made readable, "(none)" translated.
       */
      groupValue(group: ReportGroup, value: unknown, label: unknown): string {
        if (value === null || value === undefined) return t('none');
        if (group === 'day' && typeof value === 'string') return day(value, true);
        const readable = typeof value === 'string' ? visitorLabel(group, value) : null;
        if (readable !== null) return readable;
        return typeof label === 'string' ? label : String(value);
      },
      /** A relative change (0.25 → "+25%"). */
      change: (ratio: number) => signedPercent.format(ratio),
      /** A difference of percentage points (3.2 → "+3.2"). */
      points: (difference: number) => signedNumber.format(difference),
    };
  }, [t, language, currency]);
}

export type ReportFormat = ReturnType<typeof useReportFormat>;
