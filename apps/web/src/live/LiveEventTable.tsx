import { Badge, type MantineColor, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { LiveEvent, LiveKind } from './liveEvent';
import { type LiveFormat, useLiveFormat } from './useLiveFormat';
import { type LiveNames, useLiveNames } from './useLiveNames';

const KIND_COLORS: Record<LiveKind, MantineColor> = {
  click: 'blue',
  lead: 'grape',
  conversion: 'teal',
  postback: 'orange',
};

interface LiveColumn {
  key: string;
  /** Shown on the dashboard's tile too. */
  compact?: boolean;
  render: (event: LiveEvent, format: LiveFormat, names: LiveNames) => ReactNode;
}

const dash = (value: string | null) => value ?? '—';

const COLUMNS: LiveColumn[] = [
  {
    key: 'time',
    compact: true,
    render: (event, format) => (
      <time dateTime={event.time} title={format.fullTime(event.time)} style={{ whiteSpace: 'nowrap' }}>
        {format.time(event.time)}
      </time>
    ),
  },
  {
    key: 'kind',
    compact: true,
    render: (event, format) => (
      <Badge color={KIND_COLORS[event.kind]} variant="light" size="sm" miw="max-content">
        {format.kind(event)}
      </Badge>
    ),
  },
  {
    key: 'campaign',
    compact: true,
    render: (event, _format, names) => dash(event.campaign && names.campaign(event.campaign)),
  },
  { key: 'offer', render: (event, _format, names) => dash(event.offer && names.offer(event.offer)) },
  { key: 'pathGroup', render: (event) => dash(event.pathGroup) },
  { key: 'country', compact: true, render: (event) => dash(event.country) },
  { key: 'device', render: (event) => dash(event.device) },
  { key: 'bot', compact: true, render: (event, format) => format.bot(event) },
  { key: 'payout', render: (event, format) => format.payout(event) },
  { key: 'status', render: (event, format) => format.state(event) },
];

/**
 * Live events, one row each, newest first: the live screen's table, and with `compact` the dashboard
 * tile's few columns (issue 25).
 */
export function LiveEventTable({ events, compact = false }: { events: LiveEvent[]; compact?: boolean }) {
  const { t } = useTranslation('events');
  const format = useLiveFormat();
  const names = useLiveNames();
  const columns = compact ? COLUMNS.filter((column) => column.compact) : COLUMNS;
  return (
    <Table.ScrollContainer minWidth={compact ? 360 : 900}>
      <Table verticalSpacing={compact ? 4 : 'xs'} fz="sm" aria-label={t('live.table')} highlightOnHover={!compact}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key}>{t(`live.columns.${column.key}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <Table.Tr key={event.seq} data-kind={event.kind}>
              {columns.map((column) => (
                <Table.Td key={column.key}>{column.render(event, format, names)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
