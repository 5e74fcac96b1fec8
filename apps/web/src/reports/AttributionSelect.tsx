import { Select } from '@mantine/core';
import { REPORT_ATTRIBUTIONS, type ReportAttribution } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { useReportContext } from './ReportContext';

/**
 * When a conversion counts — on its click's day, as the traffic source bills it (the default),
 * or on its postback's, as the network's statistics show it.
 */
export function AttributionSelect() {
  const { t } = useTranslation('reports');
  const { params, update } = useReportContext();
  return (
    <Select
      label={t('toolbar.attribution')}
      data={REPORT_ATTRIBUTIONS.map((attribution) => ({ value: attribution, label: t(`attribution.${attribution}`) }))}
      value={params.attribution}
      onChange={(value) => value && update({ attribution: value as ReportAttribution })}
      allowDeselect={false}
      w={{ base: '100%', xs: 230 }}
    />
  );
}
