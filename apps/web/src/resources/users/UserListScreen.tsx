import { Badge, Group, Stack } from '@mantine/core';
import { getResource, type User } from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLookup } from '../../api/useLookup';
import { formatDateTime } from '../../components/list/formatDateTime';
import { ResourceList } from '../../components/list/ResourceList';
import type { ListColumn } from '../../components/list/types';
import { InvitationsPanel } from './InvitationsPanel';

const users = getResource('users');
const roles = getResource('roles');

/** /admin/users: name, email, role names, active, created; then the invitations. */
export function UserListScreen() {
  const { t } = useTranslation();
  const roleOptions = useLookup(roles);
  const columns = useMemo<ListColumn<User>[]>(() => {
    const roleNames = new Map(roleOptions.map((option) => [option.value, option.label]));
    return [
      { accessor: 'name', label: 'resources:users.fields.name', link: true },
      { accessor: 'email', label: 'resources:users.fields.email' },
      {
        accessor: 'roles',
        label: 'resources:users.fields.roles',
        render: (user) => (
          <Group gap={4}>
            {user.roles.map((id) => (
              <Badge key={id} variant="light" size="sm">
                {roleNames.get(id) ?? `#${id}`}
              </Badge>
            ))}
          </Group>
        ),
      },
      {
        accessor: 'active',
        label: 'resources:users.fields.active',
        render: (user) =>
          user.active ? (
            <Badge color="teal" variant="light">
              {t('resources:users.activeYes')}
            </Badge>
          ) : (
            <Badge color="gray" variant="light">
              {t('resources:users.activeNo')}
            </Badge>
          ),
      },
      {
        accessor: 'created_at',
        label: 'resources:users.fields.created_at',
        render: (user) => formatDateTime(user.created_at),
      },
    ];
  }, [roleOptions, t]);
  return (
    <Stack gap="xl">
      <ResourceList definition={users} columns={columns} />
      <InvitationsPanel />
    </Stack>
  );
}
