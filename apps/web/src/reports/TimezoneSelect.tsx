import { Select } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useTimezoneOptions } from '../api/useTimezoneOptions';
import { useReportContext } from './ReportContext';

/** The timezone whose days the report counts in (the browser's by default). */
export function TimezoneSelect() {
  const { t } = useTranslation('reports');
  const { params, update } = useReportContext();
  const options = useTimezoneOptions();
  // The browser's zone may be missing from the server's list (or the list not loaded yet): keep it choosable.
  const data = useMemo(() => {
    const zones = options.map((option) => ({ value: String(option.value), label: option.label }));
    return zones.some((zone) => zone.value === params.timezone)
      ? zones
      : [{ value: params.timezone, label: params.timezone }, ...zones];
  }, [options, params.timezone]);
  return (
    <Select
      label={t('toolbar.timezone')}
      data={data}
      value={params.timezone}
      onChange={(timezone) => timezone && update({ timezone })}
      searchable
      allowDeselect={false}
      w={{ base: '100%', xs: 240 }}
    />
  );
}
