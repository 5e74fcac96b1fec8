import { getResource } from '@switchyard/domain';
import { ResourceCreate } from '../../components/form/ResourceCreate';
import { useWorkspaceFormElements } from './useWorkspaceFormElements';

const workspaces = getResource('workspaces');

/** /admin/workspaces/create */
export function WorkspaceCreateScreen() {
  return <ResourceCreate definition={workspaces} elements={useWorkspaceFormElements('create')} />;
}
