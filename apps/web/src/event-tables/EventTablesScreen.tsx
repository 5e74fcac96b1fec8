// The regions' names and codes, which this screen checks or shows (see vite.config.ts).
import '@switchyard/domain/region-data';
import {
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  Checkbox,
  Group,
  Menu,
  Pagination,
  Pill,
  SegmentedControl,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import {
  type ConversionState,
  DEFAULT_PAGE_SIZE,
  EVENT_CONVERSION_SCOPES,
  EVENT_KINDS,
  type EventConversionScope,
  type EventKind,
  type EventRows,
  type ReportFilterGroup,
} from '@switchyard/domain';
import { IconColumns, IconDownload } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { apiList } from '../api/client';
import { GeoAttribution } from '../components/attribution/GeoAttribution';
import { showNotice } from '../components/feedback/showNotice';
import { routingReasonText } from '../components/simulation/routingReason';
import { toCsv } from '../reports/csv';
import { type EventParams, eventQuery, eventsPath, isKind, parseEventParams } from '../reports/eventParams';
import { amountFormat } from '../shared/reporting/amounts';
import { useReportFormat } from '../shared/reporting/useReportFormat';
import { useSeesMoney } from '../shared/reporting/useSeesMoney';
import { useWorkspaceCurrency } from '../shared/workspace/useWorkspaceCurrency';
import { columnsOf, type EventColumn, type EventFormat, storeColumns, storedColumns } from './eventColumns';
import { InspectLink } from './inspector/InspectLink';
import { isInspectedKind } from './inspector/useEventReplay';

/** Export pages through the list, at most this many events. */
export const EXPORT_CAP = 10_000;
const EXPORT_PAGE = 1000;
const ID_FIELD = { clicks: 'click_id', leads: 'lead_id', conversions: 'conversion_id' } as const;

function fetchEvents<Kind extends EventKind>(
  kind: Kind,
  params: EventParams,
  page: number,
  limit: number,
  signal?: AbortSignal,
) {
  return apiList<EventRows[Kind]>(`events/${kind}`, { query: eventQuery(params, page, limit), signal });
}

function download(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * /tracker/reports/events/:kind: the single clicks, leads or conversions behind a report row,
 * under the filters in the URL, newest first, with a column picker and an export of every row (up to
 * EXPORT_CAP).
 */
export function EventTablesScreen() {
  const { kind } = useParams();
  if (!isKind(kind)) return <Navigate to="/tracker/reports/events/clicks" replace />;
  return <EventTable key={kind} kind={kind} />;
}

function EventTable<Kind extends EventKind>({ kind }: { kind: Kind }) {
  const { t, i18n } = useTranslation('events');
  const reportFormat = useReportFormat();
  const workspaceCurrency = useWorkspaceCurrency();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const params = useMemo(() => parseEventParams(search), [search]);
  const seesMoney = useSeesMoney();
  const available = columnsOf(kind, seesMoney);
  const [chosen, setChosen] = useState(() => storedColumns(kind));
  const columns = available.filter((column) => chosen.includes(column.key));
  const [exporting, setExporting] = useState(false);

  const format = useMemo<EventFormat>(() => {
    const time = new Intl.DateTimeFormat(i18n.language, {
      dateStyle: 'short',
      timeStyle: 'medium',
      timeZone: params.timezone,
    });
    return {
      time: (iso) => time.format(new Date(iso)),
      money: (value, currency) => amountFormat(i18n.language, currency ?? workspaceCurrency, 2).format(value),
      yes: t('yes'),
      no: t('no'),
      state: (state) => t(`states.${state as ConversionState}`, { defaultValue: state }),
      costFlag: (flag) => t(`costFlags.${flag}`, { defaultValue: flag }),
      botReason: (reason) => t(`reports:botReasons.${reason}`, { defaultValue: reason }),
      botBecause: (reason) => t('botBecause', { reason }),
      routingReason: (reason) => routingReasonText(t, reason),
    };
  }, [i18n.language, params.timezone, t, workspaceCurrency]);

  const query = useQuery({
    queryKey: ['events', kind, eventQuery(params, params.page, DEFAULT_PAGE_SIZE)],
    queryFn: ({ signal }) => fetchEvents(kind, params, params.page, DEFAULT_PAGE_SIZE, signal),
    placeholderData: keepPreviousData,
  });

  const setParams = (next: Partial<EventParams>) => {
    const merged = { ...params, ...next };
    navigate(eventsPath(kind, merged));
  };
  const toggle = (key: string) => {
    const next = chosen.includes(key) ? chosen.filter((name) => name !== key) : [...chosen, key];
    setChosen(next);
    storeColumns(kind, next);
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const rows: EventRows[Kind][] = [];
      for (let page = 1; rows.length < EXPORT_CAP; page += 1) {
        const answer = await fetchEvents(kind, params, page, EXPORT_PAGE);
        rows.push(...answer.list);
        if (answer.list.length < EXPORT_PAGE || rows.length >= answer.total) break;
      }
      const csv = toCsv(
        columns.map((column) => ({
          header: t(`columns.${column.key}`),
          value: (row: EventRows[Kind]) => column.value(row, format),
        })),
        rows.slice(0, EXPORT_CAP),
      );
      download(`${kind}-${params.from ?? 'all'}_${params.to ?? 'all'}.csv`, `\uFEFF${csv}`);
    } catch (error) {
      showNotice({ kind: 'danger', message: t('exportFailed') });
      console.error('Unable to export the events', error);
    } finally {
      setExporting(false);
    }
  };

  const filters = Object.entries(params.filters) as [ReportFilterGroup, string | null][];
  const varFilters = Object.entries(params.vars);
  const list = query.data?.list ?? [];
  const total = query.data?.total ?? 0;
  const first = (params.page - 1) * DEFAULT_PAGE_SIZE + 1;
  const pageCount = Math.ceil(total / DEFAULT_PAGE_SIZE);
  const tableColumns = columns as EventColumn<EventRows[Kind]>[];

  return (
    <Stack gap="md">
      <Breadcrumbs>
        <Anchor component={Link} to="/tracker/reports">
          {t('breadcrumbs.reports')}
        </Anchor>
        <Text>{t('title')}</Text>
      </Breadcrumbs>
      <div>
        <Title order={1} size="h2">
          {t('title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('intro')}
        </Text>
      </div>
      <Group gap="xs" role="group" aria-label={t('filters.label')}>
        <Text size="sm" fw={600}>
          {t('filters.label')}
        </Text>
        <Pill size="md">
          {params.from || params.to
            ? t('filters.range', { from: params.from ?? '…', to: params.to ?? '…' })
            : t('filters.allTime')}
          {params.timezone ? ` (${params.timezone})` : ''}
        </Pill>
        {filters.map(([group, value]) => {
          const name = reportFormat.groupName(group);
          const shown = value === null ? t('none') : reportFormat.groupValue(group, value, params.labels[group]);
          return (
            <Pill
              key={group}
              size="md"
              withRemoveButton
              onRemove={() => {
                const { [group]: _removed, ...rest } = params.filters;
                setParams({ filters: rest, page: 1 });
              }}
              removeButtonProps={{ 'aria-label': t('filters.remove', { group: name, value: shown }) }}
            >
              <Text span size="sm" c="dimmed">
                {name}
              </Text>{' '}
              <Text span size="sm" fw={600}>
                {shown}
              </Text>
            </Pill>
          );
        })}
        {varFilters.map(([name, value]) => (
          <Pill key={name} size="md">
            {name}: {value ?? t('none')}
          </Pill>
        ))}
      </Group>
      <Tabs
        value={kind}
        onChange={(next) =>
          next && isKind(next) && navigate(eventsPath(next, { ...params, state: undefined, page: 1 }))
        }
      >
        <Tabs.List>
          {EVENT_KINDS.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {t(`kinds.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Group justify="space-between">
        {kind === 'conversions' && (
          <SegmentedControl
            aria-label={t('scope.label')}
            value={params.state ?? 'counted'}
            onChange={(value) =>
              setParams({ state: value === 'counted' ? undefined : (value as EventConversionScope), page: 1 })
            }
            data={EVENT_CONVERSION_SCOPES.map((scope) => ({ value: scope, label: t(`scope.${scope}`) }))}
          />
        )}
        <Text size="sm" c="dimmed">
          {total === 0 ? t('range.none') : t('range.some', { from: first, to: first + list.length - 1, total })}
        </Text>
        <Group gap="xs">
          <Menu closeOnItemClick={false} position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="default" leftSection={<IconColumns size={16} aria-hidden />}>
                {t('columnsButton')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown mah={420} style={{ overflowY: 'auto' }}>
              <Stack gap={8} p="xs" role="group" aria-label={t('columnsButton')}>
                {available.map((column) => (
                  <Checkbox
                    key={column.key}
                    label={t(`columns.${column.key}`)}
                    checked={chosen.includes(column.key)}
                    onChange={() => toggle(column.key)}
                  />
                ))}
              </Stack>
            </Menu.Dropdown>
          </Menu>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={exporting}
            disabled={total === 0}
            onClick={exportCsv}
          >
            {t('export')}
          </Button>
        </Group>
      </Group>
      {query.error ? (
        <Alert color="red">{t('loadFailed')}</Alert>
      ) : (
        <Table.ScrollContainer minWidth={960}>
          <Table
            striped
            highlightOnHover
            verticalSpacing="xs"
            aria-label={t(`kinds.${kind}`)}
            aria-busy={query.isFetching}
          >
            <Table.Thead>
              <Table.Tr>
                {tableColumns.map((column) => (
                  <Table.Th key={column.key} style={{ whiteSpace: 'nowrap' }}>
                    {t(`columns.${column.key}`)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((row) => (
                <Table.Tr key={String((row as unknown as Record<string, unknown>)[ID_FIELD[kind]])}>
                  {tableColumns.map((column) => (
                    <Table.Td key={column.key} style={{ whiteSpace: 'nowrap' }}>
                      {column.key === ID_FIELD[kind] && isInspectedKind(kind) ? (
                        <InspectLink kind={kind} eventId={String(column.value(row, format))} />
                      ) : column.render ? (
                        column.render(row, format)
                      ) : (
                        column.value(row, format)
                      )}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {!query.isLoading && total === 0 && !query.error && <Text c="dimmed">{t('empty')}</Text>}
      {pageCount > 1 && (
        <Pagination
          total={pageCount}
          value={params.page}
          onChange={(page) =>
            setSearch((current) => {
              const next = new URLSearchParams(current);
              next.set('page', String(page));
              return next;
            })
          }
        />
      )}
      {total > 0 && <GeoAttribution />}
    </Stack>
  );
}
