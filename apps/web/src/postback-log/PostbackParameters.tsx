import { Code, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { PostbackLogEntry } from '@switchyard/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatMoney } from '../shared/reporting/useFormatMoney';
import { ConversionHistoryLink } from './ConversionHistoryLink';
import { StateTransition } from './StateTransition';

/** Everything a log line holds: each parameter as received, where it came from, what it was answered. */
export function PostbackParameters({ entry }: { entry: PostbackLogEntry }) {
  const { t } = useTranslation('postbacks');
  const formatMoney = useFormatMoney();
  const parameters = Object.entries(entry.raw);
  const conversion = entry.conversion;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" py="xs">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {t('details.parameters')}
        </Text>
        {parameters.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('details.noParameters')}
          </Text>
        ) : (
          <Table withTableBorder withColumnBorders verticalSpacing={4} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('details.name')}</Table.Th>
                <Table.Th>{t('details.value')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {parameters.map(([name, value]) => (
                <Table.Tr key={name}>
                  <Table.Td>
                    <Code dir="ltr">{name}</Code>
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }} dir="ltr">
                    {value}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <Stack gap={6}>
        <Text fw={600} size="sm">
          {t('details.summary')}
        </Text>
        <Detail label={t('details.answered')} value={`HTTP ${entry.response_status}`} />
        {entry.ip && <Detail label={t('details.ip')} value={entry.ip} ltr />}
        {entry.reason && <Detail label={t('details.reason')} value={entry.reason} />}
        {entry.state && (
          <Detail
            label={t('details.state')}
            value={<StateTransition from={entry.previous_state} to={entry.state} size="sm" />}
          />
        )}
        {conversion && (
          <>
            <Detail
              label={t('details.conversionId')}
              value={<ConversionHistoryLink conversionId={conversion.conversion_id} />}
            />
            <Detail label={t('details.conversionState')} value={t(`conversionStates.${conversion.state}`)} />
            {/* Left out by the server for a user who may not see money. */}
            {conversion.payout !== undefined && (
              <Detail label={t('details.payout')} value={formatMoney(conversion.payout, conversion.currency)} />
            )}
            {/* Which of the campaign's rules, its default, the network or the offer set it. */}
            {conversion.payout !== undefined && conversion.payout_source && (
              <Detail
                label={t('details.payoutSource')}
                value={t(`payoutSources.${conversion.payout_source}`, { rule: conversion.payout_rule_id ?? '' })}
              />
            )}
            {conversion.revenue !== null && conversion.revenue !== undefined && (
              <Detail
                label={t('details.revenue')}
                value={formatMoney(conversion.revenue, conversion.original_currency ?? conversion.currency)}
              />
            )}
            {conversion.original_currency && conversion.original_currency !== conversion.currency && (
              <Detail
                label={t('details.currency')}
                value={t('details.converted', { from: conversion.original_currency, to: conversion.currency })}
              />
            )}
            <Detail
              label={t('details.counted')}
              value={conversion.is_conversion ? t('details.countedYes') : t('details.countedNo')}
            />
          </>
        )}
      </Stack>
    </SimpleGrid>
  );
}

function Detail({ label, value, ltr = false }: { label: string; value: ReactNode; ltr?: boolean }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed" miw={140}>
        {label}
      </Text>
      {typeof value === 'string' ? (
        <Text size="sm" style={{ wordBreak: 'break-word' }} dir={ltr ? 'ltr' : undefined}>
          {value}
        </Text>
      ) : (
        value
      )}
    </Group>
  );
}
