import { Anchor, Badge, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { isMoneyMetric, type ReportMetric } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type ReportFormat, useReportFormat } from '../shared/reporting/useReportFormat';
import { useSeesMoney } from '../shared/reporting/useSeesMoney';
import { ReportChart } from './ReportChart';
import { DASHBOARD_DAYS, DASHBOARD_METRICS, useDashboardFigures } from './useDashboardFigures';

/**
 * Today against yesterday for the key figures (the money ones only for a user who may see
 * money), and clicks and conversions of the last 14 days.
 */
export function DashboardFigures() {
  const { t } = useTranslation('reports');
  const format = useReportFormat();
  const { today, yesterday, points, isLoading, isError } = useDashboardFigures();
  const seesMoney = useSeesMoney();
  const metrics = seesMoney ? DASHBOARD_METRICS : DASHBOARD_METRICS.filter((metric) => !isMoneyMetric(metric));
  // A dashboard that cannot load its figures still shows its welcome cards; the reports page says why.
  if (isError) return null;
  const chartLabel = t('dashboard.chartTitle', { days: DASHBOARD_DAYS });

  return (
    <Stack gap="md" aria-busy={isLoading}>
      <Group justify="space-between" align="baseline">
        <Title order={2} size="h3">
          {t('dashboard.title')}
        </Title>
        <Anchor component={Link} to="/tracker/reports" size="sm">
          {t('dashboard.openReports')}
        </Anchor>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        {metrics.map((metric) => (
          <Card key={metric} withBorder radius="md" padding="sm">
            {isLoading ? (
              <Skeleton h={64} aria-label={t('dashboard.loading')} />
            ) : (
              <Stack gap={2}>
                <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                  {format.metricName(metric)}
                </Text>
                <Text fz={24} fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {format.metric(metric, today[metric])}
                </Text>
                <Change metric={metric} today={today[metric]} yesterday={yesterday[metric]} format={format} />
                <Text size="xs" c="dimmed">
                  {t('dashboard.yesterday', { value: format.metric(metric, yesterday[metric]) })}
                </Text>
              </Stack>
            )}
          </Card>
        ))}
      </SimpleGrid>
      <Card withBorder radius="md" padding="md">
        <Text fw={700} mb="xs">
          {chartLabel}
        </Text>
        {isLoading ? (
          <Skeleton h={220} />
        ) : (
          <ReportChart points={points} unit="day" series={['clicks', 'conversions']} h={220} label={chartLabel} />
        )}
      </Card>
    </Stack>
  );
}

interface ChangeProps {
  metric: ReportMetric;
  today: number;
  yesterday: number;
  format: ReportFormat;
}

/**
 * Today's change from yesterday: relative for counts and amounts, in percentage points for ROI (a change
 * of a percentage in percent reads wrong); nothing to compare against when yesterday was zero.
 */
function Change({ metric, today, yesterday, format }: ChangeProps) {
  const { t } = useTranslation('reports');
  const difference = today - yesterday;
  if (difference === 0) {
    return (
      <Badge variant="light" color="gray" size="sm" tt="none">
        {t('dashboard.noChange')}
      </Badge>
    );
  }
  let change: string;
  if (metric === 'roi') change = t('dashboard.points', { change: format.points(difference) });
  else if (yesterday === 0) return <Text size="xs">&nbsp;</Text>;
  else change = format.change(difference / Math.abs(yesterday));
  // Cost going up is not good news, but none of the figures shown here is a cost.
  return (
    <Badge variant="light" color={difference > 0 ? 'teal' : 'red'} size="sm" tt="none">
      {t('dashboard.change', { change })}
    </Badge>
  );
}
