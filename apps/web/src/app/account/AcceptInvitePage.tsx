import { Alert, Button, Center, Loader, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { InvitationPreview } from '@switchyard/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../api/client';
import { trimAsTyped } from '../../components/form/trimAsTyped';
import { confirmationError, newPasswordError, showServerErrors } from '../../shared/account/formErrors';
import { useAuth } from '../../shared/auth/useAuth';
import { errorText } from '../../shared/errors/errorText';
import { AccountPageHeader } from './AccountPageHeader';
import { InvalidLinkNotice } from './InvalidLinkNotice';
import { NewPasswordFields } from './NewPasswordFields';

interface AcceptValues {
  name: string;
  password: string;
  confirmation: string;
}

/** /accept-invite/:token — the invitee chooses a name and a password, and is logged in. */
export function AcceptInvitePage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const { startSession } = useAuth();
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const invitation = useQuery({
    queryKey: ['account', 'invitation', token],
    queryFn: () => api<InvitationPreview>('accept-invite/inspect', { method: 'POST', body: { token } }),
    enabled: token !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const form = useForm<AcceptValues>({
    initialValues: { name: '', password: '', confirmation: '' },
    validate: {
      name: (value) => (value.trim() ? null : t('validation.required')),
      password: (value) => newPasswordError(t, value),
      confirmation: (value, values) => confirmationError(t, value, values.password),
    },
  });

  const suggestedName = invitation.data?.name;
  // biome-ignore lint/correctness/useExhaustiveDependencies: fills the suggestion once, when it arrives.
  useEffect(() => {
    if (suggestedName) form.setFieldValue('name', suggestedName);
  }, [suggestedName]);

  async function submit(values: AcceptValues) {
    setFailure(null);
    setSubmitting(true);
    try {
      const { token: session } = await api<{ token: string }>('accept-invite', {
        method: 'POST',
        body: { token, name: values.name.trim(), password: values.password },
      });
      await startSession(session);
      navigate('/', { replace: true });
    } catch (error) {
      setSubmitting(false);
      setFailure(showServerErrors(t, error, form.setErrors));
    }
  }

  if (!token || invitation.isError) {
    return (
      <Stack gap="lg">
        <AccountPageHeader title={t('account.accept.title')} />
        <InvalidLinkNotice
          message={invitation.isError ? errorText(t, invitation.error) : t('account.messages.invalidLink')}
        />
      </Stack>
    );
  }
  if (!invitation.data) {
    return (
      <Center py="xl">
        <Loader aria-label={t('account.accept.loading')} />
      </Center>
    );
  }

  return (
    <Stack gap="lg">
      <AccountPageHeader title={t('account.accept.title')} subtitle={t('account.accept.subtitle')} />
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="md">
          <TextInput label={t('account.fields.email')} value={invitation.data.email} readOnly />
          <TextInput
            label={t('account.fields.name')}
            autoComplete="name"
            withAsterisk
            {...trimAsTyped(form.getInputProps('name'))}
          />
          <NewPasswordFields form={form} />
          <Button type="submit" fullWidth loading={submitting}>
            {t('account.accept.submit')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
