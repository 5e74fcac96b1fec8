import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useResourceFormContext } from './ResourceFormContext';

/** Save (disabled while saving) and Cancel, back to the list as it was left. */
export function FormActions() {
  const { t } = useTranslation();
  const { isSaving, cancelPath } = useResourceFormContext();
  return (
    <Group justify="flex-end" gap="sm">
      <Button component={Link} to={cancelPath} variant="default">
        {t('resources:form.cancel')}
      </Button>
      <Button type="submit" loading={isSaving} disabled={isSaving}>
        {t('resources:form.save')}
      </Button>
    </Group>
  );
}
