import {
  Alert,
  Badge,
  Button,
  FileInput,
  Group,
  PasswordInput,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { ImportAnswer, ImportRequest, ImportSource } from '@switchyard/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { useRunImport } from '../api/useImports';
import { ScreenBreadcrumbs } from '../components/breadcrumbs/ScreenBreadcrumbs';
import { errorText } from '../shared/errors/errorText';

type Source = 'file' | 'live';

const TRACKERS: { value: ImportSource; label: string }[] = [
  { value: 'keitaro', label: 'Keitaro' },
  { value: 'binom', label: 'Binom' },
];

/**
 * /tracker/imports: pick the tracker (Keitaro or Binom), give its URL and key or its export
 * file, see the dry run (what would be created, updated or left out, and why), then confirm.
 */
export function ImportScreen() {
  const { t } = useTranslation(['imports', 'common']);
  const run = useRunImport();
  const [tracker, setTracker] = useState<ImportSource>('keitaro');
  const [source, setSource] = useState<Source>('file');
  const [url, setUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [file, setFile] = useState<Record<string, unknown> | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportAnswer | null>(null);

  const request = (): ImportRequest | null => {
    if (source === 'live') return { from: tracker, url, api_key: apiKey };
    return file ? { from: tracker, file } : null;
  };
  const start = (dryRun: boolean) => {
    const body = request();
    if (!body) return;
    setResult(null);
    run.mutate({ request: body, dryRun }, { onSuccess: setResult });
  };
  const readFile = async (chosen: File | null) => {
    setFile(null);
    setFileError(null);
    setResult(null);
    if (!chosen) return;
    try {
      const parsed: unknown = JSON.parse(await chosen.text());
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      setFile(parsed as Record<string, unknown>);
    } catch {
      setFileError(t('file.unreadable'));
    }
  };
  const ready = source === 'live' ? url.trim() !== '' && apiKey.trim() !== '' : file !== null;

  return (
    <Stack gap="md" maw={960}>
      <ScreenBreadcrumbs title={t('title')} />
      <div>
        <Title order={1} size="h2">
          {t('title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('intro')}
        </Text>
      </div>
      <Select
        label={t('tracker.label')}
        data={TRACKERS}
        value={tracker}
        onChange={(value) => {
          if (!value) return;
          setTracker(value as ImportSource);
          // A dry run of one tracker is not confirmed as another's.
          setResult(null);
          run.reset();
        }}
        allowDeselect={false}
        w={320}
      />
      <SegmentedControl
        aria-label={t('source.label')}
        value={source}
        onChange={(value) => {
          setSource(value as Source);
          setResult(null);
        }}
        data={[
          { value: 'file', label: t('source.file') },
          { value: 'live', label: t('source.live') },
        ]}
        w="fit-content"
      />
      {source === 'file' ? (
        <FileInput
          label={t('file.label')}
          description={tracker === 'binom' ? t('file.descriptionBinom') : t('file.description')}
          accept="application/json,.json"
          onChange={(chosen) => void readFile(chosen)}
          error={fileError}
          clearable
          w={420}
        />
      ) : (
        <Group align="flex-start">
          <TextInput
            label={t('live.url')}
            placeholder="https://tracker.example"
            value={url}
            onChange={(event) => setUrl(event.currentTarget.value)}
            error={run.error ? fieldError(run.error, 'url') : undefined}
            w={360}
          />
          <PasswordInput
            label={tracker === 'binom' ? t('live.apiKeyBinom') : t('live.apiKey')}
            value={apiKey}
            onChange={(event) => setApiKey(event.currentTarget.value)}
            error={run.error ? fieldError(run.error, 'api_key') : undefined}
            w={280}
          />
        </Group>
      )}
      <Group>
        <Button variant="default" onClick={() => start(true)} disabled={!ready} loading={run.isPending}>
          {t('dryRun')}
        </Button>
        <Button
          onClick={() => start(false)}
          disabled={!ready || result === null || !result.dry_run}
          loading={run.isPending}
        >
          {t('confirm')}
        </Button>
      </Group>
      {run.isError && (
        <Alert color="red" title={errorText(t, run.error)}>
          <FileProblems error={run.error} />
        </Alert>
      )}
      {result && <ImportResult result={result} />}
    </Stack>
  );
}

function fieldError(error: unknown, field: string): string | undefined {
  return error instanceof ApiError ? error.fieldErrors()[field] : undefined;
}

/** A refused file's problems, each with its place in the file (`file.streams.1.filters.0.name`). */
function FileProblems({ error }: { error: unknown }) {
  if (!(error instanceof ApiError)) return null;
  const problems = Object.entries(error.fieldErrors()).filter(([field]) => field.startsWith('file.'));
  if (problems.length === 0) return null;
  return (
    <Stack gap={2} component="ul" dir="ltr">
      {problems.slice(0, 20).map(([field, message]) => (
        <Text component="li" size="sm" key={field}>
          {field.slice('file.'.length)}: {message}
        </Text>
      ))}
    </Stack>
  );
}

function ImportResult({ result }: { result: ImportAnswer }) {
  const { t } = useTranslation('imports');
  const { summary } = result;
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {result.dry_run ? t('result.dryTitle') : t('result.doneTitle', { id: result.id })}
      </Title>
      <Group gap="xs" aria-label={t('result.summary')}>
        <Badge color="teal" variant="light">
          {t('result.created', { count: summary.created })}
        </Badge>
        <Badge color="blue" variant="light">
          {t('result.updated', { count: summary.updated })}
        </Badge>
        <Badge color="gray" variant="light">
          {t('result.unchanged', { count: summary.unchanged })}
        </Badge>
        <Badge color="orange" variant="light">
          {t('result.leftOut', { count: summary.left_out })}
        </Badge>
      </Group>
      {result.records.length > 0 && (
        <Title order={3} size="h5">
          {t('records.title')}
        </Title>
      )}
      {result.records.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label={t('records.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('records.kind')}</Table.Th>
                <Table.Th>{t('records.name')}</Table.Th>
                <Table.Th>{t('records.ids')}</Table.Th>
                <Table.Th>{t('records.action')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.records.map((record) => (
                <Table.Tr key={`${record.old_kind}:${record.old_id}`}>
                  <Table.Td>{record.kind}</Table.Td>
                  <Table.Td>{record.name}</Table.Td>
                  <Table.Td dir="ltr">
                    {record.old_kind} {record.old_id} → {record.new_id ?? t('records.new')}
                  </Table.Td>
                  <Table.Td>{t(`records.actions.${record.action}`)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {result.left_out.length > 0 && (
        <Title order={3} size="h5">
          {t('leftOut.title')}
        </Title>
      )}
      {result.left_out.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label={t('leftOut.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('leftOut.what')}</Table.Th>
                <Table.Th>{t('leftOut.campaign')}</Table.Th>
                <Table.Th>{t('leftOut.reason')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.left_out.map((entry, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id, and the list is never reordered.
                <Table.Tr key={index}>
                  <Table.Td>
                    {entry.kind}: {entry.name}
                  </Table.Td>
                  <Table.Td>{entry.campaign?.name ?? '—'}</Table.Td>
                  <Table.Td>{entry.reason}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
