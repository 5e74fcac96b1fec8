import { Alert, Button, Code, Group, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ConversionHistoryLink } from './ConversionHistoryLink';
import { OutcomeBadge } from './OutcomeBadge';
import { outcomeMessage, reasonBeside } from './outcomeMessage';
import { StateTransition } from './StateTransition';
import type { ConversionImport } from './useConversionImport';

export interface ImportResultsProps {
  result: ConversionImport;
  /** Puts the refused lines back in the box. */
  onKeepRefused: () => void;
}

/** What became of each imported line: counted, acknowledged without a change, or refused and why. */
export function ImportResults({ result, onKeepRefused }: ImportResultsProps) {
  const { t } = useTranslation('postbacks');
  const unchanged = result.lines.length - result.counted - result.refused;
  return (
    <Stack gap="sm">
      <Alert color={result.refused > 0 ? 'orange' : 'teal'} variant="light" title={t('import.done')}>
        <Group justify="space-between" gap="sm">
          <Text size="sm">
            {t('import.summary', {
              counted: result.counted,
              unchanged: Math.max(unchanged, 0),
              refused: result.refused,
            })}
          </Text>
          {result.refused > 0 && (
            <Button size="xs" variant="default" onClick={onKeepRefused}>
              {t('import.keepRefused')}
            </Button>
          )}
        </Group>
      </Alert>
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="xs" aria-label={t('import.results')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('import.columns.line')}</Table.Th>
              <Table.Th>{t('import.columns.text')}</Table.Th>
              <Table.Th>{t('columns.outcome')}</Table.Th>
              <Table.Th>{t('columns.message')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {result.lines.map((line) => {
              const message = outcomeMessage({ outcome: line.outcome, conversion: null });
              const reason = reasonBeside(line.outcome, line.message);
              return (
                <Table.Tr key={line.line} data-outcome={line.outcome}>
                  <Table.Td>{line.line}</Table.Td>
                  <Table.Td maw={320}>
                    <Code dir="ltr" style={{ wordBreak: 'break-all' }}>
                      {line.text}
                    </Code>
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={2} align="flex-start">
                      <OutcomeBadge outcome={line.outcome} />
                      <StateTransition from={null} to={line.state} />
                    </Stack>
                  </Table.Td>
                  <Table.Td miw={220}>
                    <Stack gap={2} align="flex-start">
                      <Text size="sm" c="dimmed">
                        {t(message.key, message.values)}
                      </Text>
                      {reason && (
                        <Text size="xs" c="dimmed" fs="italic" dir="auto">
                          {reason}
                        </Text>
                      )}
                      {line.conversion_id && <ConversionHistoryLink conversionId={line.conversion_id} />}
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
