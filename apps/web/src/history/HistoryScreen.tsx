import { Anchor, Center, Group, Loader, Pagination, Select, Stack, Text, Title } from '@mantine/core';
import { can, getResource, type HistoryEntry, RESOURCES, type ResourceDefinition } from '@switchyard/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { resourceKeys } from '../api/queryKeys';
import { useLookup } from '../api/useLookup';
import { useServerMessage } from '../components/feedback/useServerMessage';
import { DayInput } from '../components/form/DayInput';
import { useCurrentUser } from '../shared/auth/useCurrentUser';
import { useHistoryList } from './api';
import { HistoryEntryItem } from './HistoryEntryItem';

const PAGE_SIZE = 20;
/** Kept changes of things that are not resources of the registry. */
const OTHER_KINDS = ['account-settings', 'currency-rates', 'bot-protection', 'auth', 'tokens'] as const;

const definitionOf = (apiPath: string): ResourceDefinition | undefined =>
  RESOURCES.find((definition) => definition.apiPath === apiPath);

/** The name of a kind of record: the resource's title (`Tracker flows`), or the history's word. */
function useKindLabel() {
  const { t, i18n } = useTranslation();
  return (apiPath: string) => {
    const definition = definitionOf(apiPath);
    const key = definition ? `resources:${definition.name}.title` : '';
    if (definition && i18n.exists(key)) return t(key);
    return t(`history:screen.other.${definition?.name ?? apiPath}`, { defaultValue: apiPath });
  };
}

/** The record an entry changed, linked to its edit screen where it has one. */
function RecordLink({ entry }: { entry: HistoryEntry }) {
  const kindLabel = useKindLabel();
  const definition = definitionOf(entry.resource);
  const name = entry.record_name ? `${entry.record_name} (#${entry.record_id})` : entry.record_id;
  const text = name ? `${kindLabel(entry.resource)}: ${name}` : kindLabel(entry.resource);
  if (definition?.route && entry.record_id !== null) {
    return (
      <Anchor
        component={Link}
        to={`${definition.route}/edit/${encodeURIComponent(entry.record_id)}`}
        size="sm"
        fw={500}
        style={{ overflowWrap: 'anywhere' }}
      >
        {text}
      </Anchor>
    );
  }
  return (
    <Text size="sm" fw={500}>
      {text}
    </Text>
  );
}

/** Whose changes: only whoever may see the users can pick one. */
function UserFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  const users = useLookup(getResource('users'));
  return (
    <Select
      label={t('history:screen.user')}
      placeholder={t('history:screen.anyUser')}
      data={users.map((option) => ({ value: String(option.value), label: option.label }))}
      value={value || null}
      onChange={(choice) => onChange(choice ?? '')}
      clearable
      searchable
      w={{ base: '100%', xs: 220 }}
    />
  );
}

/** `/admin/history`, the workspace's kept changes, newest first, by kind, user and days. */
export function HistoryScreen() {
  const { t } = useTranslation();
  const serverMessage = useServerMessage();
  const kindLabel = useKindLabel();
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const filters = {
    resource: params.get('resource') ?? '',
    user: params.get('user') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
  };
  const page = Math.max(1, Number(params.get('page')) || 1);
  const history = useHistoryList({ ...filters, page, limit: PAGE_SIZE });
  const usersDefinition = getResource('users');
  const canSeeUsers = can(user, usersDefinition.permission.section, usersDefinition.permission.resource, 'get');
  const kinds = [...RESOURCES.map((definition) => definition.apiPath), ...OTHER_KINDS].map((apiPath) => ({
    value: apiPath,
    label: kindLabel(apiPath),
  }));

  const setFilter = (changes: Partial<typeof filters>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    next.delete('page');
    setParams(next, { replace: true });
  };
  const setPage = (value: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(value));
    setParams(next);
  };
  const canRestore = (entry: HistoryEntry) => {
    const definition = definitionOf(entry.resource);
    return !!definition && can(user, definition.permission.section, definition.permission.resource, 'update');
  };
  const restored = (entry: HistoryEntry) => {
    const definition = definitionOf(entry.resource);
    if (definition) void queryClient.invalidateQueries({ queryKey: resourceKeys.all(definition) });
  };

  const total = history.data?.total ?? 0;
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('history:screen.title')}
      </Title>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t('history:screen.resource')}
          placeholder={t('history:screen.anyResource')}
          data={kinds}
          value={filters.resource || null}
          onChange={(value) => setFilter({ resource: value ?? '' })}
          clearable
          searchable
          w={{ base: '100%', xs: 240 }}
        />
        {canSeeUsers && <UserFilter value={filters.user} onChange={(value) => setFilter({ user: value })} />}
        <Group gap="sm" wrap="nowrap" w={{ base: '100%', xs: 'auto' }}>
          <DayInput
            label={t('history:screen.from')}
            value={filters.from}
            max={filters.to}
            onChange={(day) => setFilter({ from: day })}
            clearable
            flex={1}
            miw={0}
            w={{ xs: 170 }}
          />
          <DayInput
            label={t('history:screen.to')}
            value={filters.to}
            min={filters.from}
            onChange={(day) => setFilter({ to: day })}
            clearable
            flex={1}
            miw={0}
            w={{ xs: 170 }}
          />
        </Group>
      </Group>
      {history.isPending ? (
        <Center py="xl">
          <Loader aria-label={t('history:loading')} />
        </Center>
      ) : history.isError ? (
        <Text c="red" role="alert">
          {serverMessage(history.error.message)}
        </Text>
      ) : history.data.list.length === 0 ? (
        <Text c="dimmed">{t('history:empty')}</Text>
      ) : (
        <Stack gap="sm" maw={960} aria-busy={history.isFetching}>
          {history.data.list.map((entry) => (
            <HistoryEntryItem
              key={entry.id}
              entry={entry}
              record={<RecordLink entry={entry} />}
              canRestore={canRestore(entry)}
              onRestored={() => restored(entry)}
            />
          ))}
        </Stack>
      )}
      {total > PAGE_SIZE && (
        <Pagination value={page} onChange={setPage} total={Math.ceil(total / PAGE_SIZE)} size="sm" />
      )}
    </Stack>
  );
}
