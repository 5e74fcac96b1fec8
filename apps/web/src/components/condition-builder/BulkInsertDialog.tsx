import { Button, Group, List, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { BulkPaste } from './useBulkPaste';

interface BulkInsertDialogProps {
  paste: BulkPaste | null;
  /** Chunks that cannot be added (not among the options); listed so the operator knows before choosing. */
  skipped?: readonly string[];
  onMultiple: (chunks: string[]) => void;
  onSingle: (text: string) => void;
  onCancel: () => void;
}

/** §2.7, §4: "Possible bulk insert detected", offering the pasted chunks as many values or the text as one. */
export function BulkInsertDialog({ paste, skipped = [], onMultiple, onSingle, onCancel }: BulkInsertDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={paste !== null} onClose={onCancel} title={t('controls:conditionBuilder.bulk.title')} centered>
      {paste && (
        <Stack gap="sm">
          <Text size="sm">{t('controls:conditionBuilder.bulk.found', { count: paste.chunks.length })}</Text>
          <ScrollArea.Autosize mah={200} type="auto">
            <List size="sm" spacing={2}>
              {paste.chunks.map((chunk, index) => (
                // Chunks may repeat; their place in the paste tells them apart.
                // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list shown once
                <List.Item key={index}>{chunk}</List.Item>
              ))}
            </List>
          </ScrollArea.Autosize>
          {skipped.length > 0 && (
            <Text size="sm" c="orange">
              {t('controls:conditionBuilder.bulk.skipped', { values: skipped.join(', ') })}
            </Text>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => onSingle(paste.text)}>
              {t('controls:conditionBuilder.bulk.single')}
            </Button>
            <Button onClick={() => onMultiple(paste.chunks)} data-autofocus>
              {t('controls:conditionBuilder.bulk.multiple')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
