import { getResource } from '@switchyard/domain';
import { ResourceCreate } from '../../components/form/ResourceCreate';
import { WORKSPACE_FORM_ELEMENTS } from './workspaceFormElements';

const workspaces = getResource('workspaces');

/** /admin/workspaces/create */
export function WorkspaceCreateScreen() {
  return <ResourceCreate definition={workspaces} elements={WORKSPACE_FORM_ELEMENTS} />;
}
