import { Alert, Center, Loader, Pagination, Stack, Text } from '@mantine/core';
import type { ResourceDefinition } from '@switchyard/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useResourceCan } from '../components/access/useResourceCan';
import { useServerMessage } from '../components/feedback/useServerMessage';
import { useHistoryList } from './api';
import type { FieldLabel } from './HistoryChanges';
import { HistoryEntryItem } from './HistoryEntryItem';

const PAGE_SIZE = 20;

export interface RecordHistoryProps {
  definition: ResourceDefinition;
  id: string;
  fieldLabel?: FieldLabel;
  onRestored?: (record: Record<string, unknown>) => void;
}

/** The History tab of an edit screen — the record's kept changes, newest first. */
export function RecordHistory({ definition, id, fieldLabel, onRestored }: RecordHistoryProps) {
  const { t } = useTranslation();
  const serverMessage = useServerMessage();
  const [page, setPage] = useState(1);
  const canUpdate = useResourceCan(definition, 'update');
  const history = useHistoryList({ resource: definition.apiPath, id, page, limit: PAGE_SIZE });

  if (history.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('history:loading')} />
      </Center>
    );
  }
  if (history.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        {serverMessage(history.error.message)}
      </Alert>
    );
  }
  const { list, total } = history.data;
  if (list.length === 0) return <Text c="dimmed">{t('history:empty')}</Text>;
  return (
    <Stack gap="sm">
      {list.map((entry) => (
        <HistoryEntryItem
          key={entry.id}
          entry={entry}
          fieldLabel={fieldLabel}
          canRestore={canUpdate}
          onRestored={onRestored}
        />
      ))}
      {total > PAGE_SIZE && (
        <Pagination value={page} onChange={setPage} total={Math.ceil(total / PAGE_SIZE)} size="sm" />
      )}
    </Stack>
  );
}
