// The regions' names and codes, which this screen checks or shows (see vite.config.ts).
import '@switchyard/domain/region-data';
import './reportTable.css';
import { Alert, Button, Center, EmptyState, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconChartBarOff, IconDownload, IconListDetails, IconSearchOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../api/client';
import { GeoAttribution } from '../components/attribution/GeoAttribution';
import { ScreenBreadcrumbs } from '../components/breadcrumbs/ScreenBreadcrumbs';
import { AttributionSelect } from './AttributionSelect';
import { BotsSwitch } from './BotsSwitch';
import { CustomMetricsButton } from './CustomMetricsManager';
import { DateRangeControl } from './DateRangeControl';
import { GroupBySelect } from './GroupBySelect';
import { ReportColumnsMenu, ReportLayoutSwitch } from './ReportColumnsMenu';
import { ReportContext, useReportContext } from './ReportContext';
import { ReportFilterChips } from './ReportFilterChips';
import { ReportNotices } from './ReportNotices';
import { ReportPagination } from './ReportPagination';
import { ReportSearch } from './ReportSearch';
import { ReportSeriesCard } from './ReportSeriesCard';
import { ReportTable } from './ReportTable';
import { ReportTree } from './ReportTree';
import { ReportViewsMenu } from './ReportViewsMenu';
import { showsAsTree } from './reportTree';
import { TimezoneSelect } from './TimezoneSelect';
import { useReportController } from './useReportController';
import { useReportExport } from './useReportExport';
import { useSharedReportView } from './useSharedReportView';

/**
 * /tracker/reports (§2.1, §7.5): clicks, leads, conversions and money, grouped, over time, drillable.
 * `?view=12` opens a saved view first.
 */
export function ReportsPage() {
  const { t } = useTranslation('reports');
  const opening = useSharedReportView();
  if (opening) {
    return (
      <Center py="xl">
        <Loader aria-label={t('views.opening')} />
      </Center>
    );
  }
  return <ReportsScreen />;
}

function ReportsScreen() {
  const { t } = useTranslation('reports');
  const controller = useReportController();
  return (
    <ReportContext.Provider value={controller}>
      <Stack gap="md">
        <ScreenBreadcrumbs title={t('title')} />
        <Group justify="space-between">
          <Title order={1} size="h2">
            {t('title')}
          </Title>
          <Group gap="xs">
            {/* Where the conversions in these figures came from, matched or not. */}
            <Button
              component={Link}
              to="/tracker/reports/postbacks"
              variant="subtle"
              leftSection={<IconListDetails size={16} aria-hidden />}
            >
              {t('postbacks:title')}
            </Button>
            <ReportViewsMenu />
            <ReportColumnsMenu />
            <CustomMetricsButton />
            <ExportButton />
          </Group>
        </Group>
        <ReportNotices />
        <Group gap="sm" align="flex-end" wrap="wrap">
          <GroupBySelect />
          <DateRangeControl />
          <TimezoneSelect />
          <AttributionSelect />
          <BotsSwitch />
          <ReportSearch />
          <LayoutSwitch />
        </Group>
        <ReportFilterChips />
        <ReportResults />
      </Stack>
    </ReportContext.Provider>
  );
}

function LayoutSwitch() {
  const { params } = useReportContext();
  return <ReportLayoutSwitch disabledTree={!showsAsTree({ ...params, layout: 'tree' })} />;
}

function ExportButton() {
  const { t } = useTranslation('reports');
  const { report } = useReportContext();
  const { exportCsv, exporting } = useReportExport();
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      onClick={exportCsv}
      loading={exporting}
      disabled={!report || report.total === 0}
    >
      {t('toolbar.export')}
    </Button>
  );
}

/** The chart and the table, or why there is nothing to show. */
export function ReportResults() {
  const { t } = useTranslation('reports');
  const { report, isLoading, error, params, update, retry } = useReportContext();
  const tree = showsAsTree(params);
  if (isLoading) {
    return (
      <Center py="xl">
        <Loader aria-label={t('table.loading')} />
      </Center>
    );
  }
  // 503: the report waited too long while the server served clicks first; asking again is the answer.
  if (error instanceof ApiError && error.status === 503) {
    return (
      <Alert color="yellow" role="alert" title={t('busy.title')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('busy.hint')}</Text>
          <Button size="xs" variant="default" onClick={() => void retry()}>
            {t('busy.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (error || !report) {
    return (
      <Alert color="red" role="alert">
        {t('error', { message: error?.message ?? '' })}
      </Alert>
    );
  }
  if (report.total === 0 && params.search) {
    return (
      <EmptyState
        icon={<IconSearchOff aria-hidden />}
        title={t('empty.noMatch', { search: params.search })}
        description={t('empty.noMatchHint')}
      >
        <Button variant="default" onClick={() => update({ search: '' })}>
          {t('toolbar.clearSearch')}
        </Button>
      </EmptyState>
    );
  }
  if (report.total === 0) {
    return <EmptyState icon={<IconChartBarOff aria-hidden />} title={t('empty.title')} description={t('empty.hint')} />;
  }
  return (
    <>
      <ReportSeriesCard />
      {tree ? (
        <ReportTree rows={report.list} totals={report.totals} labels={report.meta?.labels} />
      ) : (
        <ReportTable rows={report.list} totals={report.totals} labels={report.meta?.labels} />
      )}
      <ReportPagination shown={report.list.length} total={report.total} meta={report.meta} />
      <GeoAttribution />
    </>
  );
}
