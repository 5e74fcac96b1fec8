import {
  ActionIcon,
  Button,
  Group,
  Menu,
  Modal,
  ScrollArea,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { REPORT_VIEW_NAME_MAX, type ReportView } from '@switchyard/domain';
import {
  IconBookmark,
  IconCheck,
  IconChevronDown,
  IconDeviceFloppy,
  IconLink,
  IconPencil,
  IconSettings,
  IconTrash,
} from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { copyText } from '../components/copy/copyText';
import { showNotice } from '../components/feedback/showNotice';
import { useServerMessage } from '../components/feedback/useServerMessage';
import { useReportContext } from './ReportContext';
import { reportViewParams } from './reportParams';
import { reportViewLink, useDeleteReportView, useReportViews, useSaveReportView } from './useReportViews';

/** Puts a view's link on the clipboard; where the browser refuses, the notice shows the link to copy. */
function useCopyViewLink() {
  const { t } = useTranslation('reports');
  return async (view: ReportView) => {
    const link = reportViewLink(view.id);
    if (await copyText(link)) showNotice({ message: t('views.copied', { name: view.name }) });
    else showNotice({ kind: 'danger', message: t('views.copyFailed', { link }) });
  };
}

type NameDialog = { kind: 'save' } | { kind: 'rename'; view: ReportView };

/**
 * The "Views" menu of the reports screen — save the current state under a name, open one of my
 * views, copy the link of the one on screen (anyone of the workspace who reads reports can open it), and
 * rename or delete them.
 */
export function ReportViewsMenu() {
  const { t } = useTranslation('reports');
  const { params, load } = useReportContext();
  const views = useReportViews().data ?? [];
  const copyLink = useCopyViewLink();
  const [dialog, setDialog] = useState<NameDialog | null>(null);
  const [managing, setManaging] = useState(false);
  const currentParams = reportViewParams(params);
  const current = views.find((view) => view.params === currentParams);

  return (
    <>
      <Menu position="bottom-end" width={280} shadow="md">
        <Menu.Target>
          <Button
            variant="default"
            leftSection={<IconBookmark size={16} aria-hidden />}
            rightSection={<IconChevronDown size={14} aria-hidden />}
            maw={300}
          >
            <Text span inherit truncate="end">
              {current ? t('views.menuCurrent', { name: current.name }) : t('views.menu')}
            </Text>
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
            onClick={() => setDialog({ kind: 'save' })}
          >
            {t('views.saveAs')}
          </Menu.Item>
          {current && (
            <Menu.Item leftSection={<IconLink size={16} aria-hidden />} onClick={() => copyLink(current)}>
              {t('views.copyLink')}
            </Menu.Item>
          )}
          <Menu.Divider />
          <Menu.Label>{t('views.mine')}</Menu.Label>
          {views.length === 0 ? (
            <Menu.Item disabled>{t('views.empty')}</Menu.Item>
          ) : (
            <ScrollArea.Autosize mah={280} type="auto">
              {views.map((view) => (
                <Menu.Item
                  key={view.id}
                  leftSection={
                    view.params === currentParams ? (
                      <IconCheck size={16} aria-label={t('views.onScreen')} />
                    ) : (
                      <IconBookmark size={16} aria-hidden />
                    )
                  }
                  onClick={() => load(view.params)}
                >
                  {view.name}
                </Menu.Item>
              ))}
            </ScrollArea.Autosize>
          )}
          {views.length > 0 && (
            <>
              <Menu.Divider />
              <Menu.Item leftSection={<IconSettings size={16} aria-hidden />} onClick={() => setManaging(true)}>
                {t('views.manage')}
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
      <Modal
        opened={dialog !== null}
        onClose={() => setDialog(null)}
        title={dialog?.kind === 'rename' ? t('views.renameTitle', { name: dialog.view.name }) : t('views.saveTitle')}
      >
        {dialog && (
          <ViewNameForm
            view={dialog.kind === 'rename' ? dialog.view : null}
            params={currentParams}
            onDone={() => setDialog(null)}
          />
        )}
      </Modal>
      <Modal opened={managing} onClose={() => setManaging(false)} title={t('views.manageTitle')} size="lg">
        <ReportViewList
          onRename={(view) => {
            setManaging(false);
            setDialog({ kind: 'rename', view });
          }}
        />
      </Modal>
    </>
  );
}

/** My views with their actions: copy the link, rename, delete. */
function ReportViewList({ onRename }: { onRename: (view: ReportView) => void }) {
  const { t } = useTranslation('reports');
  const views = useReportViews().data ?? [];
  const remove = useDeleteReportView();
  const copyLink = useCopyViewLink();
  if (views.length === 0) return <Text size="sm">{t('views.empty')}</Text>;
  return (
    <Table>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('views.name')}</Table.Th>
          <Table.Th aria-label={t('views.actions')} />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {views.map((view) => (
          <Table.Tr key={view.id}>
            <Table.Td>{view.name}</Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap" justify="flex-end">
                <Tooltip label={t('views.copyLinkOf', { name: view.name })}>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('views.copyLinkOf', { name: view.name })}
                    onClick={() => copyLink(view)}
                  >
                    <IconLink size={16} aria-hidden />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('views.rename', { name: view.name })}>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('views.rename', { name: view.name })}
                    onClick={() => onRename(view)}
                  >
                    <IconPencil size={16} aria-hidden />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('views.delete', { name: view.name })}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('views.delete', { name: view.name })}
                    loading={remove.isPending && remove.variables === view.id}
                    onClick={() =>
                      modals.openConfirmModal({
                        title: t('views.delete', { name: view.name }),
                        children: <Text size="sm">{t('views.confirmDelete', { name: view.name })}</Text>,
                        labels: { confirm: t('views.deleteConfirm'), cancel: t('views.cancel') },
                        confirmProps: { color: 'red' },
                        onConfirm: () => remove.mutate(view.id),
                      })
                    }
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Tooltip>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The name of a new view (saving the report on screen), or a view's new name (keeping what it shows). */
function ViewNameForm({ view, params, onDone }: { view: ReportView | null; params: string; onDone: () => void }) {
  const { t } = useTranslation('reports');
  const save = useSaveReportView();
  const serverMessage = useServerMessage();
  const views = useReportViews().data ?? [];
  const [name, setName] = useState(view?.name ?? '');
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') {
      setError(t('views.nameRequired'));
      return;
    }
    // Names are unique among my views (the server says so too; this says it in my language).
    if (views.some((other) => other.id !== view?.id && other.name === name.trim())) {
      setError(t('views.nameTaken'));
      return;
    }
    save.mutate(
      { id: view?.id, form: { name: name.trim(), params: view?.params ?? params } },
      {
        onSuccess: (saved) => {
          showNotice({ message: t(view ? 'views.renamed' : 'views.saved', { name: saved.name }) });
          onDone();
        },
        onError: (failure) => {
          const fields = failure instanceof ApiError ? failure.fieldErrors() : {};
          setError(serverMessage(fields.name ?? fields.params ?? failure.message));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('views.name')}
          value={name}
          maxLength={REPORT_VIEW_NAME_MAX}
          required
          error={error}
          onChange={(event) => {
            setName(event.currentTarget.value);
            setError(undefined);
          }}
          data-autofocus
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onDone}>
            {t('views.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('views.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
