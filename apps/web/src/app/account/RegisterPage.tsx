import { Alert, Button, Center, Loader, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { RegisterResult } from '@switchyard/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { trimAsTyped } from '../../components/form/trimAsTyped';
import { confirmationError, emailError, newPasswordError, showServerErrors } from '../../shared/account/formErrors';
import { useRegistrationStatus } from '../../shared/account/useRegistrationStatus';
import { notify } from '../../shared/notify';
import { AccountPageHeader } from './AccountPageHeader';
import { BackToLoginLink } from './BackToLoginLink';
import { NewPasswordFields } from './NewPasswordFields';

interface RegisterValues {
  name: string;
  email: string;
  password: string;
  confirmation: string;
}

/** /register (§4): success shows "Registration successful" and goes to the login page. */
export function RegisterPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const status = useRegistrationStatus();
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<RegisterValues>({
    initialValues: { name: '', email: '', password: '', confirmation: '' },
    validate: {
      name: (value) => (value.trim() ? null : t('validation.required')),
      email: (value) => emailError(t, value),
      password: (value) => newPasswordError(t, value),
      confirmation: (value, values) => confirmationError(t, value, values.password),
    },
  });

  async function submit(values: RegisterValues) {
    setFailure(null);
    setSubmitting(true);
    try {
      const result = await api<RegisterResult>('register', {
        method: 'POST',
        body: {
          name: values.name.trim(),
          email: values.email.trim(),
          password: values.password,
          language: i18n.language,
        },
      });
      notify({
        type: 'success',
        message: result.verification_required ? t('account.register.checkEmail') : t('account.messages.registered'),
        title: result.verification_required ? t('account.messages.registered') : undefined,
      });
      navigate('/login', { replace: true });
    } catch (error) {
      setSubmitting(false);
      setFailure(showServerErrors(t, error, form.setErrors));
    }
  }

  if (status.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }
  if (!status.data?.enabled) {
    return (
      <Stack gap="lg">
        <AccountPageHeader title={t('account.register.title')} />
        <Alert color="gray" title={t('account.messages.registrationClosed')}>
          {t('account.register.closedText')}
        </Alert>
        <BackToLoginLink />
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <AccountPageHeader title={t('account.register.title')} subtitle={t('account.register.subtitle')} />
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('account.fields.name')}
            autoComplete="name"
            withAsterisk
            {...trimAsTyped(form.getInputProps('name'))}
          />
          <TextInput
            label={t('account.fields.email')}
            type="email"
            autoComplete="email"
            withAsterisk
            {...trimAsTyped(form.getInputProps('email'))}
          />
          <NewPasswordFields form={form} />
          <Button type="submit" fullWidth loading={submitting}>
            {t('account.register.submit')}
          </Button>
        </Stack>
      </form>
      <BackToLoginLink />
    </Stack>
  );
}
