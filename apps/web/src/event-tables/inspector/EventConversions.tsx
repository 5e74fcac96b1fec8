import { Paper, Table, Text, Title } from '@mantine/core';
import type { ClickConversion } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { useSeesMoney } from '../../shared/reporting/useSeesMoney';

/**
 * The click inspector: the event's conversions, oldest first; the payout only for a user who
 * sees money (the server leaves it out for anyone else).
 */
export function EventConversions({
  conversions,
  time,
  money,
}: {
  conversions: ClickConversion[];
  time: (iso: string) => string;
  money: (value: number) => string;
}) {
  const { t } = useTranslation('events');
  const seesMoney = useSeesMoney();
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="event-conversions">
      <Title order={2} size="h4" mb="sm" id="event-conversions">
        {t('inspector.conversions')}
      </Title>
      {conversions.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('inspector.noConversions')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={360}>
          <Table verticalSpacing={4} aria-labelledby="event-conversions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('columns.created_at')}</Table.Th>
                <Table.Th>{t('columns.state')}</Table.Th>
                {seesMoney && <Table.Th>{t('columns.payout')}</Table.Th>}
                <Table.Th>{t('columns.conversion_id')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conversions.map((conversion) => (
                <Table.Tr key={conversion.conversion_id}>
                  <Table.Td>{time(conversion.created_at)}</Table.Td>
                  <Table.Td>{t(`states.${conversion.state}`)}</Table.Td>
                  {seesMoney && <Table.Td>{conversion.payout === undefined ? '—' : money(conversion.payout)}</Table.Td>}
                  <Table.Td>
                    <Text span size="sm" ff="monospace" dir="ltr">
                      {conversion.conversion_id}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
