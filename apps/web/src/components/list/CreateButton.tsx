import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useResourceListContext } from './ResourceListContext';

/** The link to `<route>/create`; absent for users who may not create (§6). */
export function CreateButton() {
  const { t } = useTranslation();
  const { canCreate, createPath } = useResourceListContext();
  if (!canCreate) return null;
  return (
    <Button component={Link} to={createPath} leftSection={<IconPlus size={16} aria-hidden />}>
      {t('resources:list.create')}
    </Button>
  );
}
