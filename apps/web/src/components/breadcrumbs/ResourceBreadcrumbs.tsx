import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import type { ResourceDefinition } from '@switchyard/domain';
import { IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { listReturnPath } from '../list/listReturnPath';

export interface ResourceBreadcrumbsProps {
  definition: ResourceDefinition;
  screen: 'list' | 'create' | 'edit';
  /** The record id, on edit screens. */
  id?: string | number;
}

/** Dashboard › <List> › Create / Edit #id (§2.1); the list crumb returns to the list as it was left. */
export function ResourceBreadcrumbs({ definition, screen, id }: ResourceBreadcrumbsProps) {
  const { t } = useTranslation();
  const listLabel = t(`resources:${definition.name}.title`);
  const current = (label: string) => (
    <Text key="current" size="sm" aria-current="page">
      {label}
    </Text>
  );
  return (
    <nav aria-label={t('resources:breadcrumbs.label')}>
      <Breadcrumbs separator={<IconChevronRight size={14} className="sy-flip-rtl" aria-hidden />}>
        <Anchor component={Link} to="/admin" size="sm">
          {t('resources:breadcrumbs.dashboard')}
        </Anchor>
        {screen === 'list' ? (
          current(listLabel)
        ) : (
          <Anchor component={Link} to={listReturnPath(definition)} size="sm">
            {listLabel}
          </Anchor>
        )}
        {screen === 'create' && current(t('resources:breadcrumbs.create'))}
        {screen === 'edit' && current(t('resources:breadcrumbs.edit', { id }))}
      </Breadcrumbs>
    </nav>
  );
}
