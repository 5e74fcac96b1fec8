import type { ResourceDefinition } from '@switchyard/domain';
import type { ComponentType } from 'react';
import type { CreateFormComponent } from '../../components/form/createForms';
import { ResourceCreate } from '../../components/form/ResourceCreate';
import { ResourceForm } from '../../components/form/ResourceForm';
import type { FormElement } from '../../components/form/types';
import { ResourceList } from '../../components/list/ResourceList';
import type { ListColumn } from '../../components/list/types';
import { ResourceEdit } from './ResourceEdit';

export type FormMode = 'create' | 'edit';

/** What makes one resource's screens: its definition, its list columns and its form. */
export interface ResourceScreenConfig<TRecord> {
  definition: ResourceDefinition;
  useColumns: () => ListColumn<TRecord>[];
  /** The form elements of the create or the edit screen. */
  useFormElements: (mode: FormMode) => readonly FormElement[];
  /** Create and edit forms take the page's whole width (the flow editor). */
  wideForm?: boolean;
}

export interface ResourceScreenComponents {
  List: ComponentType;
  Create: ComponentType;
  Edit: ComponentType;
  CreateForm?: CreateFormComponent;
}

/** The list, create and edit screens of a resource, all three from one description of it. */
export function resourceScreens<TRecord>({
  definition,
  useColumns,
  useFormElements,
  wideForm = false,
}: ResourceScreenConfig<TRecord>): ResourceScreenComponents {
  function List() {
    return <ResourceList definition={definition} columns={useColumns()} />;
  }
  function Create() {
    return <ResourceCreate definition={definition} elements={useFormElements('create')} wide={wideForm} />;
  }
  function Edit() {
    return <ResourceEdit definition={definition} elements={useFormElements('edit')} wide={wideForm} />;
  }
  function CreateForm({ onCreated }: { onCreated: (saved: Record<string, unknown>) => void }) {
    return <ResourceForm definition={definition} elements={useFormElements('create')} afterCreate={onCreated} />;
  }
  return { List, Create, Edit, CreateForm };
}
