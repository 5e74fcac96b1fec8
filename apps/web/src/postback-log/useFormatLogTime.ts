import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** Log times in the interface language's way, to the second, in the browser's timezone. */
export function useFormatLogTime(): (iso: string | null | undefined) => string {
  const { i18n } = useTranslation();
  const format = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' }),
    [i18n.language],
  );
  return useCallback(
    (iso) => {
      if (!iso) return '';
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? '' : format.format(date);
    },
    [format],
  );
}
