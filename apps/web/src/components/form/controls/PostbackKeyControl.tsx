import { Button, Group, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconRotate } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useRotatePostbackKey } from '../../../api/useRotatePostbackKey';
import { useCan } from '../../../shared/auth/useCan';
import { showNotice } from '../../feedback/showNotice';
import { useServerMessage } from '../../feedback/useServerMessage';
import { useResourceFormContext } from '../ResourceFormContext';
import type { FormControlProps } from '../types';
import { CopyTextControl } from './CopyTextControl';

/**
 * `postback-key`: a workspace's postback key as copy-text, and, for whoever may change
 * workspaces, "Rotate key" behind a confirmation that says the old postback URLs stop working. The key is
 * not part of the form's body; a rotation saves at once, whatever else the form holds.
 */
export function PostbackKeyControl(props: FormControlProps) {
  const { t } = useTranslation();
  const translate = useServerMessage();
  const form = useResourceFormContext();
  const canRotate = useCan('general', 'workspace', 'update');
  const rotate = useRotatePostbackKey();
  const id = form.id;

  const confirm = () =>
    modals.openConfirmModal({
      title: t('resources:workspaces.rotate.title'),
      children: <Text size="sm">{t('resources:workspaces.rotate.text')}</Text>,
      labels: { confirm: t('resources:workspaces.rotate.confirm'), cancel: t('resources:confirm.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        if (id === undefined) return;
        rotate.mutate(id, {
          onSuccess: (workspace) => {
            form.setValue(props.element.name, workspace.postback_key);
            showNotice({ message: t('resources:workspaces.rotate.done') });
          },
          onError: (error) => showNotice({ kind: 'danger', message: translate(error.message) }),
        });
      },
    });

  return (
    <Stack gap={6}>
      <CopyTextControl {...props} />
      {canRotate && id !== undefined && (
        <Group>
          <Button
            variant="light"
            color="red"
            size="xs"
            leftSection={<IconRotate size={14} aria-hidden />}
            onClick={confirm}
            loading={rotate.isPending}
            disabled={props.disabled}
          >
            {t('resources:workspaces.rotate.button')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
