import { Table, VisuallyHidden } from '@mantine/core';
import type { PostbackLogEntry } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { useSeesMoney } from '../shared/reporting/useSeesMoney';
import { IncomingRow } from './IncomingRow';

/** A page of incoming postbacks, newest first. */
export function IncomingTable({ entries, busy }: { entries: PostbackLogEntry[]; busy: boolean }) {
  const { t } = useTranslation('postbacks');
  // The payout column only for a user who may see money.
  const seesMoney = useSeesMoney();
  return (
    <Table.ScrollContainer minWidth={1040}>
      <Table verticalSpacing="xs" highlightOnHover aria-busy={busy} aria-label={t('tabs.incoming')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={44}>
              <VisuallyHidden>{t('columns.details')}</VisuallyHidden>
            </Table.Th>
            <Table.Th>{t('columns.time')}</Table.Th>
            <Table.Th>{t('columns.outcome')}</Table.Th>
            <Table.Th>{t('columns.clickId')}</Table.Th>
            <Table.Th>{t('columns.txid')}</Table.Th>
            <Table.Th>{t('columns.event')}</Table.Th>
            {seesMoney && <Table.Th>{t('columns.payout')}</Table.Th>}
            <Table.Th>{t('columns.campaign')}</Table.Th>
            <Table.Th>{t('columns.message')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <IncomingRow key={entry.id} entry={entry} seesMoney={seesMoney} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
