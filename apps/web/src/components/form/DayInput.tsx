import '@mantine/dates/styles.css';
import 'dayjs/locale/ar';
import 'dayjs/locale/es';
import 'dayjs/locale/fr';
import 'dayjs/locale/zh-cn';
import { DateInput, type DateInputProps } from '@mantine/dates';
import type { Language } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { isLanguage } from '../../i18n';

/** §2.6: a day reads Y-m-d whatever the language (the time part of Y-m-d H:i is `DateTimeControl`'s). */
export const DAY_FORMAT = 'YYYY-MM-DD';

/** The calendar's month and weekday names come from dayjs, whose Chinese is `zh-cn`. */
const CALENDAR_LOCALES: Record<Language, string> = { en: 'en', fr: 'fr', es: 'es', zh: 'zh-cn', ar: 'ar' };

export interface DayInputProps extends Omit<DateInputProps, 'value' | 'onChange' | 'minDate' | 'maxDate'> {
  /** `YYYY-MM-DD`, or '' for none. */
  value: string;
  onChange: (day: string) => void;
  min?: string;
  max?: string;
}

/**
 * A day typed or picked in a calendar, shown as Y-m-d, in place of the browser's own date
 * field, which shows the browser's format rather than the dashboard's.
 */
export function DayInput({ value, onChange, min, max, ...props }: DayInputProps) {
  const { i18n } = useTranslation();
  return (
    <DateInput
      {...props}
      value={value || null}
      onChange={(day) => onChange(day ?? '')}
      valueFormat={DAY_FORMAT}
      placeholder={props.placeholder ?? DAY_FORMAT}
      locale={CALENDAR_LOCALES[isLanguage(i18n.language) ? i18n.language : 'en']}
      minDate={min || undefined}
      maxDate={max || undefined}
    />
  );
}
