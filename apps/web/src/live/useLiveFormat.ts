import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { LiveEvent } from './liveEvent';

export interface LiveFormat {
  time: (iso: string) => string;
  fullTime: (iso: string) => string;
  kind: (event: LiveEvent) => string;
  yes: string;
  /** "No", "Yes", or "Yes: Datacenter network" in the reports' words; empty for kinds with no verdict. */
  bot: (event: LiveEvent) => string;
  payout: (event: LiveEvent) => string | null;
  /** A conversion's state, or an outbound postback's, in the logs' words. */
  state: (event: LiveEvent) => string | null;
}

export function useLiveFormat(): LiveFormat {
  const { t, i18n } = useTranslation('events');
  return useMemo(() => {
    const time = new Intl.DateTimeFormat(i18n.language, { timeStyle: 'medium' });
    const full = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' });
    const dated = (format: Intl.DateTimeFormat) => (iso: string) => {
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? iso : format.format(date);
    };
    const money = (value: number, currency: string | null) => {
      try {
        if (currency) return new Intl.NumberFormat(i18n.language, { style: 'currency', currency }).format(value);
      } catch {
        // Not a currency code Intl knows: the number and the code.
      }
      const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 4 }).format(value);
      return currency ? `${number} ${currency}` : number;
    };
    return {
      time: dated(time),
      fullTime: dated(full),
      kind: (event) => t(`live.kinds.${event.kind}`),
      yes: t('yes'),
      bot: (event) => {
        if (event.bot === null) return '';
        if (!event.bot) return t('no');
        if (!event.botReason) return t('yes');
        return t('botBecause', {
          reason: t(`reports:botReasons.${event.botReason}`, { defaultValue: event.botReason }),
        });
      },
      payout: (event) =>
        event.kind === 'conversion' && event.payout !== null ? money(event.payout, event.currency) : null,
      state: (event) => {
        if (!event.state) return null;
        if (event.kind === 'conversion') return t(`states.${event.state}`, { defaultValue: event.state });
        if (event.kind === 'postback') return t(`postbacks:states.${event.state}`, { defaultValue: event.state });
        return null;
      },
    };
  }, [i18n.language, t]);
}
