import type { FormElement } from '../../components/form/types';

/** The workspace form: its name. */
export const WORKSPACE_FORM_ELEMENTS: readonly FormElement[] = [
  { name: 'name', type: 'input', label: 'resources:workspaces.fields.name', required: true },
];
