import { ActionIcon, Code, NumberInput, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../components/list/formatDateTime';
import { useCurrencyName } from '../shared/useCurrencyName';
import { CurrencyRateSource } from './CurrencyRateSource';
import type { CurrencyRatesEditor } from './useCurrencyRatesEditor';

export interface CurrencyRatesTableProps {
  editor: CurrencyRatesEditor;
  /** The base currency (USD): its rate is 1 and never edited. */
  base: string;
  canEdit: boolean;
}

/** Code, currency, rate (typed in place by an administrator), source and when it was set. */
export function CurrencyRatesTable({ editor, base, canEdit }: CurrencyRatesTableProps) {
  const { t, i18n } = useTranslation('resources');
  const format = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 6 });
  const currencyName = useCurrencyName();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="xs" highlightOnHover aria-label={t('currency-rates.title')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('currency-rates.columns.code')}</Table.Th>
            <Table.Th>{t('currency-rates.columns.name')}</Table.Th>
            <Table.Th>{t('currency-rates.columns.rate', { base })}</Table.Th>
            <Table.Th>{t('currency-rates.columns.source')}</Table.Th>
            <Table.Th>{t('currency-rates.columns.updated')}</Table.Th>
            {canEdit && (
              <Table.Th w={44}>
                <VisuallyHidden>{t('currency-rates.columns.actions')}</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {editor.rows.map((row) => {
            const errors = editor.errors[row.code];
            const editable = canEdit && row.code !== base;
            return (
              <Table.Tr key={row.code} data-code={row.code} data-changed={row.changed || undefined}>
                <Table.Td>
                  <Code dir="ltr">{row.code}</Code>
                  {errors?.code && (
                    <Text size="xs" c="red" role="alert">
                      {errors.code}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{currencyName(row.code, row.name)}</Table.Td>
                <Table.Td miw={170}>
                  {editable ? (
                    <NumberInput
                      aria-label={t('currency-rates.rateOf', { code: row.code })}
                      value={row.value}
                      onChange={(value) => editor.setRate(row.code, value)}
                      min={0}
                      max={1e9}
                      allowNegative={false}
                      hideControls
                      size="xs"
                      dir="ltr"
                      error={errors?.rate}
                      disabled={editor.isSaving}
                      styles={{ input: row.changed ? { fontWeight: 600 } : undefined }}
                    />
                  ) : (
                    <Text size="sm" dir="ltr" ta="start">
                      {typeof row.value === 'number' ? format.format(row.value) : row.value}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <CurrencyRateSource rate={row.stored} />
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {/* Isolated left to right: in Arabic the time would otherwise come before the day. */}
                  <Text span size="sm" c="dimmed" dir="ltr">
                    {row.stored ? formatDateTime(row.stored.updated_at) : '—'}
                  </Text>
                </Table.Td>
                {canEdit && (
                  <Table.Td>
                    {!row.stored && (
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={t('currency-rates.remove', { code: row.code })}
                        onClick={() => editor.removeAdded(row.code)}
                      >
                        <IconX size={16} aria-hidden />
                      </ActionIcon>
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
