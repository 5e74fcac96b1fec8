import { getResource } from '@switchyard/domain';
import { ResourceEdit } from '../screens/ResourceEdit';
import { useUserFormElements } from './useUserFormElements';

const users = getResource('users');

/** /admin/users/edit/:id */
export function UserEditScreen() {
  return <ResourceEdit definition={users} elements={useUserFormElements('edit')} />;
}
