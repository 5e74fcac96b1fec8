import { getResource } from '@switchyard/domain';
import { useMemo } from 'react';
import { useLookup } from '../../api/useLookup';
import type { FormElement } from '../../components/form/types';

const roles = getResource('roles');
const workspaces = getResource('workspaces');

/** The user form; the password is required on create and "leave empty to keep" on edit. */
export function useUserFormElements(mode: 'create' | 'edit'): FormElement[] {
  const roleOptions = useLookup(roles);
  const workspaceOptions = useLookup(workspaces);
  return useMemo(
    () => [
      {
        name: 'name',
        type: 'input',
        label: 'resources:users.fields.name',
        required: true,
        input: { autoComplete: 'off' },
      },
      {
        name: 'email',
        type: 'input',
        label: 'resources:users.fields.email',
        required: true,
        input: { type: 'email', autoComplete: 'off' },
      },
      {
        name: 'password',
        type: 'password',
        label: 'resources:users.fields.password',
        required: mode === 'create',
        labelDescription: mode === 'create' ? 'resources:users.passwordHint' : 'resources:users.passwordKeep',
      },
      {
        name: 'roles',
        type: 'select',
        multiple: true,
        label: 'resources:users.fields.roles',
        placeholder: 'resources:users.rolesPlaceholder',
        options: roleOptions,
      },
      {
        name: 'permissions',
        type: 'permissions',
        label: 'resources:users.fields.permissions',
        labelDescription: 'resources:users.permissionsHint',
        value: [],
      },
      {
        name: 'workspaces',
        type: 'select',
        multiple: true,
        label: 'resources:users.fields.workspaces',
        placeholder: 'resources:users.workspacesPlaceholder',
        options: workspaceOptions,
      },
      { name: 'active', type: 'switch', label: 'resources:users.fields.active', value: true },
    ],
    [mode, roleOptions, workspaceOptions],
  );
}
