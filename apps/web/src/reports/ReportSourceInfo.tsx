import { ActionIcon, Stack, Text, Tooltip } from '@mantine/core';
import type { ReportMeta } from '@switchyard/domain';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * Which source counted the report (the rollups, the event tables, DuckDB or ClickHouse) and why, in a
 * tooltip on a small icon: for an operator who wonders why a number differs. The reason is the server's
 * own sentence, in English.
 */
export function ReportSourceInfo({ meta }: { meta: ReportMeta | undefined }) {
  const { t } = useTranslation('reports');
  if (!meta?.source) return null;
  const counted = t(`source.counted.${meta.source}`);
  return (
    <Tooltip
      multiline
      w={320}
      withArrow
      events={{ hover: true, focus: true, touch: true }}
      label={
        <Stack gap={2}>
          <Text size="sm" fw={500}>
            {counted}
          </Text>
          {meta.source_reason && (
            // The server's reason is English: it reads left to right in a right-to-left dashboard too.
            <Text size="xs" lang="en" dir="ltr">
              {meta.source_reason}
            </Text>
          )}
        </Stack>
      }
    >
      <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('source.about')}>
        <IconInfoCircle size={16} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}
