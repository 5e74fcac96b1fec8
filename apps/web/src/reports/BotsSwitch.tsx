import { Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useReportContext } from './ReportContext';

/**
 * Bots' clicks are left out of clicks, CR, EPC and CPC unless this is on (Bot clicks shows
 * them either way). Kept in the URL as `include_bots=true`, like the report's other settings.
 */
export function BotsSwitch() {
  const { t } = useTranslation('reports');
  const { params, update } = useReportContext();
  return (
    <Switch
      label={t('toolbar.includeBots')}
      checked={params.includeBots}
      onChange={(event) => update({ includeBots: event.currentTarget.checked })}
    />
  );
}
