import { Alert, Anchor, Button, FileButton, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { LanderFileList } from '@switchyard/domain';
import { IconEye, IconFileZip } from '@tabler/icons-react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { formatBytes } from '../../components/list/formatBytes';
import { errorText } from '../../shared/errors/errorText';
import { LanderCodeEditor } from './LanderCodeEditor';
import { useLanderFile, useLanderFiles, useSaveLanderFile, useUploadLanderZip } from './useLanderFiles';

/** One text file in a code editor; a save refreshes the preview. */
function FileEditor({
  id,
  path,
  onSaved,
  onClose,
}: {
  id: string;
  path: string;
  onSaved: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(['resources', 'common']);
  const file = useLanderFile(id, path);
  const save = useSaveLanderFile(id);
  const [content, setContent] = useState<string | null>(null);
  useEffect(() => {
    if (file.data && content === null) setContent(file.data.content);
  }, [file.data, content]);
  const errorId = useId();
  const fieldErrors = save.error instanceof ApiError ? save.error.fieldErrors() : {};
  const contentError = fieldErrors.content ?? fieldErrors.path;
  if (file.isPending) return <Loader size="sm" />;
  if (file.isError) return <Alert color="red">{errorText(t, file.error)}</Alert>;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {t('tracker-landers.files.editing', { path })}
      </Text>
      {content === null ? (
        <Loader size="sm" />
      ) : (
        <LanderCodeEditor
          path={path}
          value={content}
          onChange={setContent}
          errorId={contentError ? errorId : undefined}
        />
      )}
      {contentError && (
        <Text id={errorId} size="sm" c="red">
          {contentError}
        </Text>
      )}
      <Group gap="sm">
        <Button
          size="xs"
          loading={save.isPending}
          disabled={content === null}
          onClick={() => save.mutate({ path, content: content ?? '' }, { onSuccess: onSaved })}
        >
          {t('tracker-landers.files.save')}
        </Button>
        <Button size="xs" variant="default" onClick={onClose}>
          {t('tracker-landers.files.close')}
        </Button>
        {save.isSuccess && !save.isPending && (
          <Text size="sm" c="teal">
            {t('tracker-landers.files.saved')}
          </Text>
        )}
      </Group>
      {save.isError && Object.keys(fieldErrors).length === 0 && (
        <Alert color="red" variant="light" role="alert">
          {errorText(t, save.error)}
        </Alert>
      )}
    </Stack>
  );
}

function FileTable({ files, onEdit }: { files: LanderFileList; onEdit: (path: string) => void }) {
  const { t, i18n } = useTranslation(['resources']);
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('tracker-landers.files.path')}</Table.Th>
            <Table.Th>{t('tracker-landers.files.type')}</Table.Th>
            <Table.Th>{t('tracker-landers.files.size')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {files.list.map((file) => (
            <Table.Tr key={file.path}>
              <Table.Td dir="ltr" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {file.path}
              </Table.Td>
              <Table.Td dir="ltr">{file.content_type.split(';')[0]}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatBytes(file.size, i18n.language)}</Table.Td>
              <Table.Td>
                {file.editable && (
                  <Button size="compact-xs" variant="subtle" onClick={() => onEdit(file.path)}>
                    {t('tracker-landers.files.edit')}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * The lander edit screen's hosted files — upload a ZIP (which replaces every file), the list,
 * one text file edited, and a preview of the page as served (sandboxed, as visitors get it).
 */
export function LanderFilesPanel({ id }: { id: string | undefined }) {
  const { t } = useTranslation(['resources', 'common']);
  const files = useLanderFiles(id ?? '');
  const upload = useUploadLanderZip(id ?? '');
  const [editing, setEditing] = useState<string | null>(null);
  const [previewKey, setPreviewKey] = useState(0);
  if (!id) return null;
  const uploadErrors = upload.error instanceof ApiError ? (upload.error.body.errors?.file ?? []) : [];
  const servedAt = files.data?.served_at ?? null;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h5">
          {t('tracker-landers.files.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('tracker-landers.files.hint')}
        </Text>
        <Group gap="sm">
          <FileButton
            accept=".zip,application/zip"
            onChange={(file) => {
              if (file) upload.mutate(file, { onSuccess: () => setPreviewKey((key) => key + 1) });
            }}
          >
            {(props) => (
              <Button {...props} size="xs" leftSection={<IconFileZip size={16} />} loading={upload.isPending}>
                {t('tracker-landers.files.upload')}
              </Button>
            )}
          </FileButton>
          {servedAt && (
            <Anchor href={servedAt} target="_blank" rel="noopener noreferrer" size="sm">
              <Group gap={4} component="span">
                <IconEye size={16} />
                {t('tracker-landers.files.open')}
              </Group>
            </Anchor>
          )}
        </Group>
        {upload.isSuccess && (
          <Text size="sm" c="teal">
            {t('tracker-landers.files.uploaded', { total: upload.data.total })}
          </Text>
        )}
        {upload.isError && (
          <Alert color="red" variant="light" role="alert" title={errorText(t, upload.error)}>
            {uploadErrors.map((message) => (
              <Text key={message} size="sm" dir="ltr" style={{ overflowWrap: 'anywhere' }}>
                {message}
              </Text>
            ))}
          </Alert>
        )}
        {files.isPending && <Loader size="sm" />}
        {files.isError && <Alert color="red">{errorText(t, files.error)}</Alert>}
        {files.data && files.data.total === 0 && <Text size="sm">{t('tracker-landers.files.none')}</Text>}
        {files.data && files.data.total > 0 && (
          <>
            <Text size="sm">
              {t('tracker-landers.files.servedAt')}{' '}
              <Text span ff="monospace" dir="ltr">
                {servedAt}
              </Text>
            </Text>
            <FileTable files={files.data} onEdit={setEditing} />
          </>
        )}
        {editing && (
          <FileEditor
            key={editing}
            id={id}
            path={editing}
            onSaved={() => setPreviewKey((key) => key + 1)}
            onClose={() => {
              setEditing(null);
              setPreviewKey((key) => key + 1);
            }}
          />
        )}
        {servedAt && (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('tracker-landers.files.preview')}
            </Text>
            {/* Served with a sandboxing CSP too; the attribute keeps it sandboxed in any browser. */}
            <iframe
              key={previewKey}
              title={t('tracker-landers.files.preview')}
              src={servedAt}
              sandbox="allow-scripts allow-forms"
              style={{ width: '100%', height: 420, border: '1px solid var(--mantine-color-default-border)' }}
            />
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
