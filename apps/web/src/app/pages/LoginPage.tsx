import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/client';
import { trimAsTyped } from '../../components/form/trimAsTyped';
import { emailError } from '../../shared/account/emailError';
import { useRegistrationStatus } from '../../shared/account/useRegistrationStatus';
import { useAuth } from '../../shared/auth/useAuth';
import { errorText, translateServerMessage } from '../../shared/errors/errorText';

interface LoginValues {
  email: string;
  password: string;
}

/** §4 Login. On success the guard of the login route sends the user to the remembered path. */
export function LoginPage() {
  const { t } = useTranslation();
  const { login } = useAuth();
  const registration = useRegistrationStatus();
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<LoginValues>({
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) => emailError(t, value),
      password: (value) => (value ? null : t('validation.required')),
    },
  });

  async function submit(values: LoginValues) {
    setFailure(null);
    setSubmitting(true);
    try {
      await login(values.email.trim(), values.password);
    } catch (error) {
      setSubmitting(false);
      if (error instanceof ApiError && error.body.errors) {
        const fieldErrors = error.fieldErrors();
        form.setErrors(
          Object.fromEntries(
            Object.entries(fieldErrors).map(([field, text]) => [field, translateServerMessage(t, text)]),
          ),
        );
      }
      setFailure(errorText(t, error));
    }
  }

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h3">
          {t('auth.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('auth.subtitle')}
        </Text>
      </div>
      {failure && (
        <Alert color="red" role="alert" title={t('auth.failed')}>
          {failure}
        </Alert>
      )}
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('auth.email')}
            type="email"
            autoComplete="username"
            withAsterisk
            {...trimAsTyped(form.getInputProps('email'))}
          />
          <PasswordInput
            label={t('auth.password')}
            autoComplete="current-password"
            withAsterisk
            {...form.getInputProps('password')}
          />
          <Button type="submit" fullWidth loading={submitting}>
            {t('auth.submit')}
          </Button>
        </Stack>
      </form>
      <Group justify="space-between" gap="xs">
        <Anchor component={Link} to="/forgot-password" size="sm">
          {t('account.links.forgotPassword')}
        </Anchor>
        {registration.data?.enabled && (
          <Anchor component={Link} to="/register" size="sm">
            {t('account.links.register')}
          </Anchor>
        )}
      </Group>
    </Stack>
  );
}
