import { getResource } from '@switchyard/domain';
import { ResourceCreate } from '../../components/form/ResourceCreate';
import { useUserFormElements } from './useUserFormElements';

const users = getResource('users');

/** /admin/users/create */
export function UserCreateScreen() {
  return <ResourceCreate definition={users} elements={useUserFormElements('create')} />;
}
