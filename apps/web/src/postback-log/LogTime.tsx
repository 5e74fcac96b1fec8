import { Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** A log time in the interface language's way: the time to the second, the day under it (narrow columns). */
export function LogTime({ iso }: { iso: string | null }) {
  const { i18n } = useTranslation();
  const formats = useMemo(
    () => ({
      day: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }),
      time: new Intl.DateTimeFormat(i18n.language, { timeStyle: 'medium' }),
    }),
    [i18n.language],
  );
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return (
    <time dateTime={iso} style={{ whiteSpace: 'nowrap' }}>
      <Text size="sm" span display="block">
        {formats.time.format(date)}
      </Text>
      <Text size="xs" c="dimmed" span display="block">
        {formats.day.format(date)}
      </Text>
    </time>
  );
}
