import { ActionIcon, Code, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Network } from './parseNetworks';
import type { BotProtectionEditor } from './useBotProtectionEditor';

function FieldError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <Text size="xs" c="red" role="alert">
      {message}
    </Text>
  );
}

/** Whether a network matches what was typed in the search: part of its name, or of its number. */
function matches(row: Network, search: string): boolean {
  const needle = search
    .trim()
    .toLowerCase()
    .replace(/^as\s*/, '');
  return needle === '' || String(row.asn).includes(needle) || row.name.toLowerCase().includes(needle);
}

export interface NetworksTableProps {
  editor: BotProtectionEditor;
  canEdit: boolean;
  search: string;
}

/** ASN and name of each network, each removable by whoever may edit; a save's errors under their field. */
export function NetworksTable({ editor, canEdit, search }: NetworksTableProps) {
  const { t } = useTranslation('resources');
  // Each row keeps its place in the whole list: the server's errors name rows by it.
  const shown = editor.rows.map((row, index) => ({ row, index })).filter(({ row }) => matches(row, search));
  if (shown.length === 0) {
    return (
      <Text c="dimmed" size="sm" p="md">
        {editor.rows.length === 0 ? t('bot-protection.empty') : t('bot-protection.noMatch', { search })}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table verticalSpacing="xs" highlightOnHover aria-label={t('bot-protection.listTitle')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={140}>{t('bot-protection.columns.asn')}</Table.Th>
            <Table.Th>{t('bot-protection.columns.name')}</Table.Th>
            {canEdit && (
              <Table.Th w={44}>
                <VisuallyHidden>{t('bot-protection.columns.actions')}</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map(({ row, index }) => {
            const errors = editor.errors[index];
            return (
              <Table.Tr key={row.asn} data-asn={row.asn}>
                <Table.Td>
                  <Code dir="ltr">AS{row.asn}</Code>
                  <FieldError message={errors?.asn} />
                </Table.Td>
                <Table.Td>
                  {row.name || (
                    <Text span size="sm" c="dimmed">
                      {t('bot-protection.noName')}
                    </Text>
                  )}
                  <FieldError message={errors?.name} />
                </Table.Td>
                {canEdit && (
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-label={t('bot-protection.remove', { asn: row.asn, name: row.name })}
                      onClick={() => editor.remove(row.asn)}
                      disabled={editor.isSaving}
                    >
                      <IconX size={16} aria-hidden />
                    </ActionIcon>
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
