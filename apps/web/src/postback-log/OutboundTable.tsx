import { Table, Text } from '@mantine/core';
import type { OutboundPostbackEntry } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { LogId } from './LogId';
import { LogTime } from './LogTime';
import { OutboundStateBadge } from './OutboundStateBadge';
import { useFormatLogTime } from './useFormatLogTime';

/** The postbacks owed to traffic sources, newest first, with how sending them went. */
export function OutboundTable({ entries, busy }: { entries: OutboundPostbackEntry[]; busy: boolean }) {
  const { t } = useTranslation('postbacks');
  const formatTime = useFormatLogTime();
  const lastResponse = (entry: OutboundPostbackEntry) => {
    if (entry.last_status === null) return t('lastResponse.none');
    if (entry.last_status === 0) return t('lastResponse.noAnswer', { error: entry.last_error ?? '' });
    return `HTTP ${entry.last_status}`;
  };
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table verticalSpacing="xs" highlightOnHover aria-busy={busy} aria-label={t('tabs.outbound')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('columns.time')}</Table.Th>
            <Table.Th>{t('columns.url')}</Table.Th>
            <Table.Th>{t('columns.state')}</Table.Th>
            <Table.Th>{t('columns.attempts')}</Table.Th>
            <Table.Th>{t('columns.lastResponse')}</Table.Th>
            <Table.Th>{t('columns.nextAttempt')}</Table.Th>
            <Table.Th>{t('columns.clickId')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id} data-state={entry.state}>
              <Table.Td>
                <LogTime iso={entry.created_at} />
              </Table.Td>
              <Table.Td miw={300} maw={480}>
                <Text ff="monospace" size="xs" dir="ltr" style={{ wordBreak: 'break-all' }}>
                  {entry.url}
                </Text>
              </Table.Td>
              <Table.Td>
                <OutboundStateBadge state={entry.state} />
              </Table.Td>
              <Table.Td>{entry.attempts}</Table.Td>
              <Table.Td>
                <Text size="sm" c={entry.last_status !== null && entry.state !== 'sent' ? 'red' : undefined}>
                  {lastResponse(entry)}
                </Text>
                {entry.last_attempt_at && (
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {t('lastResponse.at', { time: formatTime(entry.last_attempt_at) })}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <LogTime iso={entry.next_attempt_at} />
              </Table.Td>
              <Table.Td>
                <LogId value={entry.click_id ?? entry.lead_id} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
