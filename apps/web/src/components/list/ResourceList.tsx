import { Center, Group, Loader, Stack, Title } from '@mantine/core';
import type { ResourceDefinition } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { ResourceBreadcrumbs } from '../breadcrumbs/ResourceBreadcrumbs';
import { BulkBar } from './BulkBar';
import { CreateButton } from './CreateButton';
import { ListEmptyState } from './ListEmptyState';
import { ListPagination } from './ListPagination';
import { ListPeriodSelect } from './ListPeriodSelect';
import { ListSearch } from './ListSearch';
import { ListTable } from './ListTable';
import { ResourceListContext } from './ResourceListContext';
import { StatusFilter } from './StatusFilter';
import type { ListColumn } from './types';
import { type ListRecord, useResourceListController } from './useResourceListController';

export interface ResourceListProps<TRecord> {
  definition: ResourceDefinition;
  columns: ListColumn<TRecord>[];
}

/**
 * The list screen of any resource (§2.5): title, search, status filter, sortable table, paging; where the
 * registry says so, each row's figures over a chosen period and bulk actions on chosen rows.
 */
export function ResourceList<TRecord>({ definition, columns }: ResourceListProps<TRecord>) {
  const { t } = useTranslation();
  const controller = useResourceListController(definition, columns as ListColumn<ListRecord>[]);
  const { isLoading, records, total, params } = controller;
  // With nothing at all yet, the empty state carries the create button instead of the header.
  const nothingYet = !isLoading && total === 0 && !params.search && params.status === 'active';

  return (
    <ResourceListContext.Provider value={controller}>
      <Stack gap="md">
        <ResourceBreadcrumbs definition={definition} screen="list" />
        <Group justify="space-between">
          <Title order={1} size="h2">
            {t(`resources:${definition.name}.title`)}
          </Title>
          {!nothingYet && <CreateButton />}
        </Group>
        <Group justify="space-between" gap="sm">
          <ListSearch />
          <Group gap="sm">
            <ListPeriodSelect />
            <StatusFilter />
          </Group>
        </Group>
        <BulkBar />
        {isLoading ? (
          <Center py="xl">
            <Loader aria-label={t('resources:list.loading')} />
          </Center>
        ) : records.length === 0 ? (
          <ListEmptyState />
        ) : (
          <>
            <ListTable />
            <ListPagination />
          </>
        )}
      </Stack>
    </ResourceListContext.Provider>
  );
}
