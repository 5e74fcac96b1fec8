import { Alert, Button, Card, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { LANGUAGES, type Language, type Profile } from '@switchyard/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { trimAsTyped } from '../../components/form/trimAsTyped';
import { changeLanguage, isLanguage, LANGUAGE_NAMES } from '../../i18n';
import { showServerErrors } from '../../shared/account/formErrors';
import { useAuth } from '../../shared/auth/useAuth';
import { notify } from '../../shared/notify';
import { PROFILE_KEY } from './useProfile';

const LANGUAGE_OPTIONS = LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }));

/** Name and language; the language is also the interface's, and that of the emails the user gets. */
export function ProfileDetailsCard({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const { reloadUser } = useAuth();
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm({
    initialValues: {
      name: profile.name,
      language: profile.language ?? (isLanguage(i18n.language) ? i18n.language : 'en'),
    },
    validate: { name: (value) => (value.trim() ? null : t('validation.required')) },
  });

  async function submit(values: { name: string; language: Language }) {
    setFailure(null);
    setSaving(true);
    try {
      const saved = await api<Profile>('profile', { method: 'PUT', body: { ...values, name: values.name.trim() } });
      queryClient.setQueryData(PROFILE_KEY, saved);
      if (saved.language) await changeLanguage(saved.language);
      await reloadUser();
      notify({ type: 'success', message: t('account.profile.saved') });
    } catch (error) {
      setFailure(showServerErrors(t, error, form.setErrors));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card withBorder radius="md" padding="lg">
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4">
            {t('account.profile.details')}
          </Title>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <TextInput label={t('account.fields.email')} value={profile.email} readOnly />
          <TextInput
            label={t('account.fields.name')}
            withAsterisk
            autoComplete="name"
            {...trimAsTyped(form.getInputProps('name'))}
          />
          <Select
            label={t('account.fields.language')}
            data={LANGUAGE_OPTIONS}
            allowDeselect={false}
            {...form.getInputProps('language')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={saving}>
              {t('account.profile.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
