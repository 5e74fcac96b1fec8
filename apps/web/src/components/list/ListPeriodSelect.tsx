import { NativeSelect } from '@mantine/core';
import { LIST_STATS_PERIODS, type ListStatsPeriod } from '@switchyard/domain';
import { IconCalendar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useResourceListContext } from './ResourceListContext';

/** The period of the rows' figures, kept in `?period=`; only lists with figures have it. */
export function ListPeriodSelect() {
  const { t } = useTranslation();
  const { params, figures } = useResourceListContext();
  if (figures.length === 0) return null;
  return (
    <NativeSelect
      aria-label={t('resources:list.period')}
      leftSection={<IconCalendar size={16} aria-hidden />}
      value={params.period}
      onChange={(event) => params.setPeriod(event.currentTarget.value as ListStatsPeriod)}
      data={LIST_STATS_PERIODS.map((period) => ({ value: period, label: t(`resources:list.periods.${period}`) }))}
      w={180}
    />
  );
}
