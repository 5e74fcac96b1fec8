import { ActionIcon, Stack, Table, Text } from '@mantine/core';
import type { PostbackLogEntry } from '@switchyard/domain';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatMoney } from '../shared/reporting/useFormatMoney';
import { ConversionHistoryLink } from './ConversionHistoryLink';
import { LoggedRecordLink } from './LoggedRecordLink';
import { LogId } from './LogId';
import { LogTime } from './LogTime';
import { OutcomeBadge } from './OutcomeBadge';
import { outcomeMessage, reasonBeside, recordedNotCounted } from './outcomeMessage';
import { PostbackParameters } from './PostbackParameters';
import { StateTransition } from './StateTransition';

/** The table's columns: with the payout, or without it for a user who may not see money. */
export const INCOMING_COLUMNS = 9;

/** One incoming postback; it opens below itself to show every parameter received. */
export function IncomingRow({ entry, seesMoney }: { entry: PostbackLogEntry; seesMoney: boolean }) {
  const { t } = useTranslation('postbacks');
  const formatMoney = useFormatMoney();
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const message = outcomeMessage(entry);
  const conversion = entry.conversion;
  const reason = reasonBeside(entry.outcome, entry.reason);
  return (
    <>
      <Table.Tr data-outcome={entry.outcome}>
        <Table.Td>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-expanded={open}
            aria-controls={open ? detailsId : undefined}
            aria-label={open ? t('details.hide') : t('details.show')}
            onClick={() => setOpen((current) => !current)}
          >
            {open ? (
              <IconChevronDown size={16} aria-hidden />
            ) : (
              <IconChevronRight size={16} className="sy-flip-rtl" aria-hidden />
            )}
          </ActionIcon>
        </Table.Td>
        <Table.Td>
          <LogTime iso={entry.created_at} />
        </Table.Td>
        <Table.Td>
          <Stack gap={2} align="flex-start">
            <OutcomeBadge outcome={entry.outcome} notCounted={recordedNotCounted(entry)} />
            <StateTransition from={entry.previous_state} to={entry.state} />
            {/* What the network itself said, beside the state it moved the conversion to. */}
            {entry.sent && (entry.sent.status || entry.sent.payout) && (
              <Text size="xs" c="dimmed">
                {t('networkSent', {
                  sent: [entry.sent.status, [entry.sent.payout, entry.sent.currency].filter(Boolean).join(' ')]
                    .filter(Boolean)
                    .join(' · '),
                })}
              </Text>
            )}
          </Stack>
        </Table.Td>
        <Table.Td>
          <LogId value={entry.click_id} maw={130} />
        </Table.Td>
        <Table.Td>
          <LogId value={entry.txid} maw={110} />
        </Table.Td>
        <Table.Td>
          <LoggedRecordLink record={conversion?.event ?? null} />
          {/* The status the network sent, under the event it resolved to (or alone when none matched). */}
          {conversion?.status && (
            <Text size="xs" c="dimmed" ff="monospace" dir="ltr" truncate="end" maw={140} title={conversion.status}>
              {conversion.status}
            </Text>
          )}
        </Table.Td>
        {seesMoney && (
          <Table.Td style={{ whiteSpace: 'nowrap' }}>
            {conversion ? formatMoney(conversion.payout, conversion.currency) : ''}
          </Table.Td>
        )}
        <Table.Td miw={120}>
          <LoggedRecordLink record={entry.campaign} />
        </Table.Td>
        <Table.Td miw={220}>
          <Stack gap={2} align="flex-start">
            <Text size="sm" c="dimmed">
              {t(message.key, message.values)}
            </Text>
            {/* The tracker's own words: which address, which currency, why the state stayed. */}
            {reason && (
              <Text size="xs" c="dimmed" fs="italic" dir="auto">
                {reason}
              </Text>
            )}
            {conversion && <ConversionHistoryLink conversionId={conversion.conversion_id} />}
          </Stack>
        </Table.Td>
      </Table.Tr>
      {open && (
        <Table.Tr id={detailsId}>
          <Table.Td
            colSpan={seesMoney ? INCOMING_COLUMNS : INCOMING_COLUMNS - 1}
            bg="var(--mantine-color-default-hover)"
          >
            <PostbackParameters entry={entry} />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}
