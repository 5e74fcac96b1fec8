import { getResource, type Workspace } from '@switchyard/domain';
import { formatDateTime } from '../../components/list/formatDateTime';
import { ResourceList } from '../../components/list/ResourceList';
import type { ListColumn } from '../../components/list/types';

const workspaces = getResource('workspaces');

const COLUMNS: ListColumn<Workspace>[] = [
  { accessor: 'id', label: 'resources:workspaces.fields.id', render: (workspace) => `#${workspace.id}` },
  { accessor: 'name', label: 'resources:workspaces.fields.name', link: true },
  { accessor: 'currency', label: 'resources:workspaces.fields.currency' },
  {
    accessor: 'created_at',
    label: 'resources:workspaces.fields.created_at',
    render: (workspace) => formatDateTime(workspace.created_at),
  },
];

/** /admin/workspaces: id, name, currency, created. */
export function WorkspaceListScreen() {
  return <ResourceList definition={workspaces} columns={COLUMNS} />;
}
