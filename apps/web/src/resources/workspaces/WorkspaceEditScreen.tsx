import { getResource } from '@switchyard/domain';
import { ResourceEdit } from '../screens/ResourceEdit';
import { useWorkspaceFormElements } from './useWorkspaceFormElements';

const workspaces = getResource('workspaces');

/** /admin/workspaces/edit/:id */
export function WorkspaceEditScreen() {
  return <ResourceEdit definition={workspaces} elements={useWorkspaceFormElements('edit')} />;
}
