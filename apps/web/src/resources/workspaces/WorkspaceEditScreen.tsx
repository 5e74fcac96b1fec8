import { getResource } from '@switchyard/domain';
import { ResourceEdit } from '../../components/form/ResourceEdit';
import { WORKSPACE_FORM_ELEMENTS } from './workspaceFormElements';

const workspaces = getResource('workspaces');

/** /admin/workspaces/edit/:id */
export function WorkspaceEditScreen() {
  return <ResourceEdit definition={workspaces} elements={WORKSPACE_FORM_ELEMENTS} />;
}
