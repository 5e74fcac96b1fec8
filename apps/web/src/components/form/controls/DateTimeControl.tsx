import '@mantine/dates/styles.css';
import { DateTimePicker } from '@mantine/dates';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { fieldProps } from '../fieldProps';
import type { FormControlProps } from '../types';

/** §2.6 Y-m-d H:i: how a date-time is shown and stored. */
export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm';

/** The stored text as the picker's value (`YYYY-MM-DD HH:mm:ss`), or null when empty or unreadable. */
function pickerValueOf(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const parsed = dayjs(value.trim());
  return parsed.isValid() ? parsed.format('YYYY-MM-DD HH:mm:ss') : null;
}

/** A date and time picker (`datetime`, §2.6). Value: 'YYYY-MM-DD HH:mm' (e.g. '2024-05-06 07:08') or ''. */
export function DateTimeControl(props: FormControlProps) {
  const { element, value, onChange, placeholder, required } = props;
  const { t } = useTranslation();
  return (
    <DateTimePicker
      {...fieldProps(props)}
      placeholder={placeholder ?? DATETIME_FORMAT}
      clearable={element.allowEmpty ?? !required}
      clearButtonProps={{ 'aria-label': t('controls:controls.datetime.clear') }}
      valueFormat={DATETIME_FORMAT}
      value={pickerValueOf(value)}
      onChange={(picked) => onChange(picked ? dayjs(picked).format(DATETIME_FORMAT) : '')}
      {...element.input}
    />
  );
}
