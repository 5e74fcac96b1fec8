import { SegmentedControl } from '@mantine/core';
import { STATUS_FILTERS, type StatusFilter as TStatusFilter } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { useResourceListContext } from './ResourceListContext';

/** Active / Archived / All, kept in `?status=`; only archivable resources have it. */
export function StatusFilter() {
  const { t } = useTranslation();
  const { definition, params } = useResourceListContext();
  if (!definition.archivable) return null;
  return (
    <SegmentedControl
      aria-label={t('resources:list.status')}
      value={params.status}
      onChange={(value) => params.setStatus(value as TStatusFilter)}
      data={STATUS_FILTERS.map((status) => ({ value: status, label: t(`resources:list.statuses.${status}`) }))}
    />
  );
}
