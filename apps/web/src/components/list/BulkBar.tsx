import { Alert, Button, Group, List, Menu, Paper, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { BulkAction, TBulkAnswer } from '@switchyard/domain';
import {
  IconArchive,
  IconArrowsExchange,
  IconPlayerPause,
  IconPlayerPlay,
  IconRestore,
  IconX,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWorkspaceSwitch } from '../../shared/workspace/useWorkspaceSwitch';
import { showNotice } from '../feedback/showNotice';
import { useServerMessage } from '../feedback/useServerMessage';
import { recordName } from '../recordName';
import { useResourceListContext } from './ResourceListContext';
import { type BulkOutcome, type BulkRequest, useBulkMutation } from './useBulkActions';

const ICONS: Record<BulkAction, typeof IconArchive> = {
  enable: IconPlayerPlay,
  pause: IconPlayerPause,
  archive: IconArchive,
  restore: IconRestore,
  move: IconArrowsExchange,
};

/**
 * The chosen rows' actions (enable, pause, archive, restore, move to another workspace), then
 * what came of them: how many were done, and each one that was not with the reason.
 */
export function BulkBar() {
  const { t } = useTranslation();
  const serverMessage = useServerMessage();
  const { definition, records, recordId, isArchived, bulkActions, selection } = useResourceListContext();
  const mutation = useBulkMutation(definition);
  const { workspaces, current } = useWorkspaceSwitch();
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  if (bulkActions.length === 0) return null;

  const chosen = records.filter((record) => selection.selected.includes(String(recordId(record))));
  const names = new Map(chosen.map((record) => [String(recordId(record)), recordName(definition, record)]));
  const count = chosen.length;
  const offers = (action: BulkAction) => bulkActions.includes(action);

  function reason(result: TBulkAnswer['results'][number]): string {
    if (result.status === 409) return t('resources:bulk.inUse');
    const field = Object.values(result.errors ?? {})[0]?.[0];
    return serverMessage(field ?? result.message ?? '');
  }

  function run(request: BulkRequest, known = names) {
    mutation.mutate(request, {
      onSuccess: (answer) => {
        setOutcome({
          action: request.action,
          workspace: request.workspace,
          done: answer.results.filter((result) => result.ok).length,
          failed: answer.results
            .filter((result) => !result.ok)
            .map((result) => ({
              id: result.id,
              name: known.get(result.id) || result.id,
              status: result.status,
              message: reason(result),
            })),
        });
        selection.clear();
      },
      onError: (error) => showNotice({ kind: 'danger', message: serverMessage(error.message) }),
    });
  }

  const ids = [...names.keys()];
  const confirmArchive = () =>
    modals.openConfirmModal({
      title: t('resources:bulk.archiveTitle', { count }),
      children: <Text size="sm">{t('resources:bulk.archiveText')}</Text>,
      labels: { confirm: t('resources:bulk.archiveButton'), cancel: t('resources:confirm.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => run({ action: 'archive', ids }),
    });
  const others = workspaces.filter((workspace) => workspace.id !== current?.id);
  const button = (action: BulkAction, onClick: () => void, color?: string) => {
    const Icon = ICONS[action];
    return (
      <Button
        key={action}
        size="compact-sm"
        variant="light"
        color={color}
        leftSection={<Icon size={14} aria-hidden />}
        onClick={onClick}
        disabled={mutation.isPending}
      >
        {t(`resources:bulk.${action}`)}
      </Button>
    );
  };

  return (
    <>
      {count > 0 && (
        <Paper
          withBorder
          p="xs"
          radius="sm"
          component="section"
          className="sy-bulk-bar"
          aria-label={t('resources:bulk.region')}
        >
          <Group gap="xs" wrap="wrap">
            <Text size="sm" fw={600} me="xs" role="status">
              {t('resources:bulk.selected', { count })}
            </Text>
            {offers('enable') && button('enable', () => run({ action: 'enable', ids }))}
            {offers('pause') && button('pause', () => run({ action: 'pause', ids }))}
            {offers('archive') &&
              chosen.some((record) => !isArchived(record)) &&
              button('archive', confirmArchive, 'red')}
            {offers('restore') &&
              chosen.some((record) => isArchived(record)) &&
              button('restore', () => run({ action: 'restore', ids }))}
            {offers('move') && others.length > 0 && (
              <Menu position="bottom-start" withinPortal>
                <Menu.Target>
                  <Button
                    size="compact-sm"
                    variant="light"
                    leftSection={<IconArrowsExchange size={14} aria-hidden />}
                    disabled={mutation.isPending}
                  >
                    {t('resources:bulk.move')}
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Label>{t('resources:bulk.moveTo')}</Menu.Label>
                  {others.map((workspace) => (
                    <Menu.Item key={workspace.id} onClick={() => run({ action: 'move', ids, workspace: workspace.id })}>
                      {workspace.name}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
            )}
            <Button
              size="compact-sm"
              variant="subtle"
              color="gray"
              leftSection={<IconX size={14} aria-hidden />}
              onClick={selection.clear}
            >
              {t('resources:bulk.clear')}
            </Button>
          </Group>
        </Paper>
      )}
      {outcome && (
        <BulkOutcomeNotice
          outcome={outcome}
          onClose={() => setOutcome(null)}
          onForce={(failed) =>
            run(
              { action: 'archive', ids: failed.map((item) => item.id), force: true },
              new Map(failed.map((item) => [item.id, item.name])),
            )
          }
        />
      )}
    </>
  );
}

/** What a bulk change came to; records refused for being in use can be archived anyway from here. */
function BulkOutcomeNotice({
  outcome,
  onClose,
  onForce,
}: {
  outcome: BulkOutcome;
  onClose: () => void;
  onForce: (failed: BulkOutcome['failed']) => void;
}) {
  const { t } = useTranslation();
  const inUse = outcome.failed.filter((item) => item.status === 409);
  return (
    <Alert
      className="sy-bulk-outcome"
      role="status"
      color={outcome.failed.length > 0 ? 'orange' : 'green'}
      variant="light"
      withCloseButton
      closeButtonLabel={t('resources:bulk.close')}
      onClose={onClose}
      title={t(`resources:bulk.done.${outcome.action}`, { count: outcome.done })}
    >
      {outcome.failed.length > 0 && (
        <>
          <Text size="sm" fw={500}>
            {t('resources:bulk.failed', { count: outcome.failed.length })}
          </Text>
          <List size="sm" spacing={2}>
            {outcome.failed.map((item) => (
              <List.Item key={item.id}>
                <Text span fw={500} inherit>
                  {item.name}
                </Text>
                {': '}
                {item.message}
              </List.Item>
            ))}
          </List>
          {outcome.action === 'archive' && inUse.length > 0 && (
            <Button mt="xs" size="compact-sm" color="red" variant="light" onClick={() => onForce(inUse)}>
              {t('resources:bulk.archiveAnyway')}
            </Button>
          )}
        </>
      )}
    </Alert>
  );
}
