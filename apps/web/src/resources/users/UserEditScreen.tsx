import { getResource } from '@switchyard/domain';
import { ResourceEdit } from '../../components/form/ResourceEdit';
import { useUserFormElements } from './useUserFormElements';

const users = getResource('users');

/** /admin/users/edit/:id */
export function UserEditScreen() {
  return <ResourceEdit definition={users} elements={useUserFormElements('edit')} />;
}
