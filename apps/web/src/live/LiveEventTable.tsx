import { Badge, type MantineColor, Table, Text } from '@mantine/core';
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
  render: (event: LiveEvent, format: LiveFormat, names: LiveNames, compact: boolean) => ReactNode;
}

const dash = (value: string | null) => value ?? '—';

/**
 * A text cut to one line, whole on hover: the tile's narrow column and the screen's long names. The screen's
 * widths keep every column inside 1,400 px beside the menu.
 */
const cut = (value: string | null, width: number) =>
  value === null ? (
    '—'
  ) : (
    <Text span size="sm" display="block" truncate="end" maw={width} title={value} dir="auto">
      {value}
    </Text>
  );
const name = (value: string | null, compact: boolean) => cut(value, compact ? 96 : 115);

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
    render: (event, _format, names, compact) => name(event.campaign && names.campaign(event.campaign), compact),
  },
  // What a buyer reads first, before the long names: never the columns scrolled out of sight.
  {
    key: 'payout',
    render: (event, format) => <span style={{ whiteSpace: 'nowrap' }}>{format.payout(event)}</span>,
  },
  { key: 'status', render: (event, format) => format.state(event) },
  { key: 'offer', render: (event, _format, names) => name(event.offer && names.offer(event.offer), false) },
  {
    key: 'pathGroup',
    render: (event, _format, names) => name(event.pathGroup && names.pathGroup(event.pathGroup), false),
  },
  { key: 'country', render: (event) => dash(event.country) },
  { key: 'device', render: (event) => dash(event.device) },
  {
    key: 'bot',
    compact: true,
    // The tile says yes or no, the screen the reason; cut short, both show it whole on hover.
    render: (event, format, _names, compact) => {
      const verdict = format.bot(event);
      if (compact && event.bot) return <span title={verdict}>{format.yes}</span>;
      return compact || verdict === '' ? verdict : cut(verdict, 110);
    },
  },
];

/**
 * Live events, one row each, newest first: the live screen's table, and with `compact` the dashboard
 * tile's few columns.
 */
export function LiveEventTable({ events, compact = false }: { events: LiveEvent[]; compact?: boolean }) {
  const { t } = useTranslation('events');
  const format = useLiveFormat();
  const names = useLiveNames();
  const columns = compact ? COLUMNS.filter((column) => column.compact) : COLUMNS;
  return (
    // The tile fits a phone's width by cutting names short; the screen scrolls sideways instead.
    <Table.ScrollContainer minWidth={compact ? 0 : 900}>
      <Table
        verticalSpacing={compact ? 4 : 'xs'}
        horizontalSpacing={compact ? 6 : 'xs'}
        fz="sm"
        aria-label={t('live.table')}
        highlightOnHover={!compact}
      >
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
                <Table.Td key={column.key} style={compact ? { whiteSpace: 'nowrap' } : undefined}>
                  {column.render(event, format, names, compact)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
