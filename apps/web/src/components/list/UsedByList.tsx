import { Alert, Anchor, List, Text } from '@mantine/core';
import { getResource, type RecordUser } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';

/**
 * The active records that still use what is about to be archived, each linking to its
 * edit screen (plain links: confirmations open outside the router), and what archiving it anyway does.
 */
export function UsedByList({ users }: { users: readonly RecordUser[] }) {
  const { t } = useTranslation('resources');
  return (
    <Alert color="yellow" title={t('confirm.usedByTitle')} role="alert">
      <List size="sm" spacing={4} mb="xs">
        {users.map((user) => (
          <List.Item key={`${user.kind}:${user.external_id}`}>
            {t(`${user.kind}.kind`, { defaultValue: user.kind })}{' '}
            <Anchor href={`${getResource(user.kind).route}/edit/${encodeURIComponent(user.external_id)}`}>
              {user.name || user.external_id}
            </Anchor>
          </List.Item>
        ))}
      </List>
      <Text size="sm">{t('confirm.usedByText')}</Text>
    </Alert>
  );
}
