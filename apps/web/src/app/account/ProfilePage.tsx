import { Center, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/errors/errorText';
import { ApiTokensCard } from './ApiTokensCard';
import { PasswordChangeCard } from './PasswordChangeCard';
import { ProfileDetailsCard } from './ProfileDetailsCard';
import { SessionsCard } from './SessionsCard';
import { useProfile } from './useProfile';

/** /profile, from the user menu: name, language, password, other sessions, API tokens. */
export function ProfilePage() {
  const { t } = useTranslation();
  const profile = useProfile();

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('account.profile.title')}
      </Title>
      {profile.isError ? (
        <Text c="red">{errorText(t, profile.error)}</Text>
      ) : !profile.data ? (
        <Center py="xl">
          <Loader aria-label={t('app.loading')} />
        </Center>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <Stack gap="lg">
            <ProfileDetailsCard profile={profile.data} />
            <SessionsCard profile={profile.data} />
          </Stack>
          <PasswordChangeCard />
        </SimpleGrid>
      )}
      {profile.data && <ApiTokensCard />}
    </Stack>
  );
}
