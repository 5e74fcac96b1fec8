import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface StatusBadgeProps {
  status: unknown;
  /** Offers and landers: switched off without being archived. */
  enabled?: unknown;
}

/** Archived, disabled or active, in that order of weight; archived rows are also dimmed by the list table. */
export function StatusBadge({ status, enabled }: StatusBadgeProps) {
  const { t } = useTranslation();
  // Badges truncate their text by default; in a table cell the whole word must show.
  if (status === 'archived') {
    return (
      <Badge color="gray" variant="outline" size="sm" miw="max-content">
        {t('resources:list.archivedBadge')}
      </Badge>
    );
  }
  if (enabled === false) {
    return (
      <Badge color="orange" variant="light" size="sm" miw="max-content">
        {t('resources:fields.disabled')}
      </Badge>
    );
  }
  return (
    <Badge color="teal" variant="light" size="sm" miw="max-content">
      {t('resources:fields.active')}
    </Badge>
  );
}
