import { Select, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { LANGUAGES, type Language, type Profile } from '@switchyard/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { trimAsTyped } from '../../components/form/trimAsTyped';
import { changeLanguage, isLanguage, LANGUAGE_NAMES } from '../../i18n';
import { useAuth } from '../../shared/auth/useAuth';
import { notify } from '../../shared/notify';
import { AccountFormCard, useAccountSave } from './AccountFormCard';
import { PROFILE_KEY } from './useProfile';

const LANGUAGE_OPTIONS = LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }));

/** Name and language; the language is also the interface's, and that of the emails the user gets. */
export function ProfileDetailsCard({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const { reloadUser } = useAuth();
  const form = useForm({
    initialValues: {
      name: profile.name,
      language: profile.language ?? (isLanguage(i18n.language) ? i18n.language : 'en'),
    },
    validate: { name: (value) => (value.trim() ? null : t('validation.required')) },
  });

  const { failure, saving, save } = useAccountSave(form.setErrors);

  function submit(values: { name: string; language: Language }) {
    return save(async () => {
      const saved = await api<Profile>('profile', { method: 'PUT', body: { ...values, name: values.name.trim() } });
      queryClient.setQueryData(PROFILE_KEY, saved);
      if (saved.language) await changeLanguage(saved.language);
      await reloadUser();
      notify({ type: 'success', message: t('account.profile.saved') });
    });
  }

  return (
    <AccountFormCard
      title={t('account.profile.details')}
      submitLabel={t('account.profile.save')}
      onSubmit={form.onSubmit(submit)}
      failure={failure}
      saving={saving}
    >
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
    </AccountFormCard>
  );
}
