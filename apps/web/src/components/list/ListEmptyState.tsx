import { Button, EmptyState } from '@mantine/core';
import { IconArchive, IconDatabaseOff, IconSearchOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CreateButton } from './CreateButton';
import { useResourceListContext } from './ResourceListContext';

/** What an empty page means and what to do about it: create the first record, or change the search. */
export function ListEmptyState() {
  const { t } = useTranslation();
  const { definition, params, canCreate } = useResourceListContext();

  if (params.search) {
    return (
      <EmptyState
        icon={<IconSearchOff aria-hidden />}
        title={t('resources:list.noMatch', { search: params.search })}
        description={t('resources:list.noMatchHint')}
      >
        <Button variant="default" onClick={() => params.setSearch('')}>
          {t('resources:list.clearSearch')}
        </Button>
      </EmptyState>
    );
  }
  if (params.status === 'archived') {
    return <EmptyState icon={<IconArchive aria-hidden />} title={t('resources:list.noArchived')} />;
  }
  return (
    <EmptyState
      icon={<IconDatabaseOff aria-hidden />}
      title={t(`resources:${definition.name}.empty`)}
      description={canCreate ? t('resources:list.createFirst') : undefined}
    >
      <CreateButton />
    </EmptyState>
  );
}
