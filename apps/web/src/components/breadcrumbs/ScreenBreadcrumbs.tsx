import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/**
 * Dashboard › <title>, for a screen that is not a resource's (currency rates, bot protection, backups), or
 * <parent> › <title> for one under another screen (live view under reports).
 */
export function ScreenBreadcrumbs({ title, parent }: { title: string; parent?: { to: string; label: string } }) {
  const { t } = useTranslation('resources');
  return (
    <nav aria-label={t('breadcrumbs.label')}>
      <Breadcrumbs separator={<IconChevronRight size={14} className="sy-flip-rtl" aria-hidden />}>
        <Anchor component={Link} to={parent?.to ?? '/admin'} size="sm">
          {parent?.label ?? t('breadcrumbs.dashboard')}
        </Anchor>
        <Text size="sm" aria-current="page">
          {title}
        </Text>
      </Breadcrumbs>
    </nav>
  );
}
