import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Reports › Postback log. */
export function PostbackLogBreadcrumbs() {
  const { t } = useTranslation('postbacks');
  return (
    <nav aria-label={t('resources:breadcrumbs.label')}>
      <Breadcrumbs separator={<IconChevronRight size={14} className="sy-flip-rtl" aria-hidden />}>
        <Anchor component={Link} to="/tracker/reports" size="sm">
          {t('common:menu.reports')}
        </Anchor>
        <Text size="sm" aria-current="page">
          {t('title')}
        </Text>
      </Breadcrumbs>
    </nav>
  );
}
