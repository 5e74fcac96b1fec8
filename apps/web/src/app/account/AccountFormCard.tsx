import { Alert, Button, Card, Group, Stack, Title } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showServerErrors } from '../../shared/account/formErrors';

/**
 * A save that shows its server errors under the fields (or above the form when no field is named), and
 * whether it is running.
 */
export function useAccountSave(setErrors: (errors: Record<string, string>) => void) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  async function save(work: () => Promise<void>) {
    setFailure(null);
    setSaving(true);
    try {
      await work();
    } catch (error) {
      setFailure(showServerErrors(t, error, setErrors));
    } finally {
      setSaving(false);
    }
  }
  return { failure, saving, save };
}

/** One of the profile page's cards: a titled form, its error, its fields and its save button. */
export function AccountFormCard({
  title,
  submitLabel,
  onSubmit,
  failure,
  saving,
  children,
}: {
  title: string;
  submitLabel: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  failure: string | null;
  saving: boolean;
  children: ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4">
            {title}
          </Title>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          {children}
          <Group justify="flex-end">
            <Button type="submit" loading={saving}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
