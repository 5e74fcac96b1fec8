import { Card, Skeleton, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ReportChart } from './ReportChart';
import { useReportContext } from './ReportContext';
import { useReportSeries } from './useReportSeries';

/**
 * Clicks, conversions and revenue over the report's range (by hour over one day), with its filters; no
 * revenue line for a user without the money permission.
 */
export function ReportSeriesCard() {
  const { t } = useTranslation('reports');
  const { range, params, seesMoney } = useReportContext();
  const { unit, points, isLoading } = useReportSeries(range, params.timezone, params.filters);
  const label = t(unit === 'hour' ? 'chart.byHour' : 'chart.byDay');
  return (
    <Card withBorder radius="md" padding="md">
      <Text fw={700} mb="xs">
        {label}
      </Text>
      {isLoading ? (
        <Skeleton h={260} />
      ) : (
        <ReportChart
          points={points}
          unit={unit}
          series={seesMoney ? ['clicks', 'conversions', 'revenue'] : ['clicks', 'conversions']}
          label={label}
        />
      )}
    </Card>
  );
}
